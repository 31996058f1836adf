/** The records table: sortable by created / name / last seen, a row's name opens its details. */
import { useState } from 'react';
import type { ListedNamespace, ShardInfo } from '../../../../shared/contract/namespaces';
import { shardLabel } from '../../../../shared/contract/namespaces';
import { describePlacement, type SortDirection, type SortKey } from './namespace-filters';
import { RelativeTime } from '../../components/RelativeTime';

/** Rows drawn at once; more on request, so a registry of many thousands never floods the page. */
const PAGE_ROWS = 500;

export interface NamespaceTableProps {
  readonly records: readonly ListedNamespace[];
  readonly owners: ReadonlyMap<number, ShardInfo['owner']>;
  readonly sort: { key: SortKey; direction: SortDirection };
  readonly onSort: (key: SortKey) => void;
  readonly selected: string | null;
  readonly onSelect: (name: string) => void;
}

function SortableHeader({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: SortKey;
  sort: NamespaceTableProps['sort'];
  onSort: (key: SortKey) => void;
}) {
  const active = sort.key === column;
  return (
    <th scope="col" aria-sort={active ? sort.direction : 'none'}>
      <button type="button" className="link" onClick={() => onSort(column)}>
        {label}
        {active ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
}

export function NamespaceTable({
  records,
  owners,
  sort,
  onSort,
  selected,
  onSelect,
}: NamespaceTableProps) {
  const [shown, setShown] = useState(PAGE_ROWS);
  const owner = (shard: number) => {
    const found = owners.get(shard);
    return found ? `node ${found.nodeId} · e${found.ownerEpoch}` : '—';
  };
  return (
    <div>
      <table className="table" aria-label="Namespaces">
        <thead>
          <tr>
            <SortableHeader label="Name" column="name" sort={sort} onSort={onSort} />
            <th scope="col">State</th>
            <th scope="col">Origin</th>
            <SortableHeader label="Created" column="createdAt" sort={sort} onSort={onSort} />
            <SortableHeader label="Last seen" column="lastSeen" sort={sort} onSort={onSort} />
            <th scope="col">Placement</th>
            <th scope="col">Shard</th>
            <th scope="col">Owner</th>
          </tr>
        </thead>
        <tbody>
          {records.slice(0, shown).map((record) => (
            <tr key={record.name} aria-selected={record.name === selected}>
              <th scope="row" className="mono">
                <button type="button" className="link" onClick={() => onSelect(record.name)}>
                  {record.name}
                </button>
              </th>
              <td>
                <span className={record.state === 'active' ? 'badge ok' : 'badge warn'}>
                  {record.state}
                </span>
              </td>
              <td>{record.origin}</td>
              <td className="small">
                <RelativeTime atMs={record.createdAt} />
              </td>
              <td className="small">
                <RelativeTime atMs={record.lastSeen} />
              </td>
              <td className="small">{describePlacement(record.placement)}</td>
              <td className="mono">{shardLabel(record.shard)}</td>
              <td className="small">{owner(record.shard)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {records.length > shown && (
        <button type="button" onClick={() => setShown((count) => count + PAGE_ROWS)}>
          Show {Math.min(PAGE_ROWS, records.length - shown)} more of {records.length - shown}
        </button>
      )}
    </div>
  );
}
