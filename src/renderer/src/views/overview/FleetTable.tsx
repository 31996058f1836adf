/**
 * The fleet table: one row per prefix, sortable by every column (the header buttons), only the
 * rows in view rendered (a bucket of thousands of prefixes scrolls as one of ten), a spinner in
 * each row not read yet, changed object counts marked.
 */
import type { FleetRow } from '../../../../shared/contract/wal';
import { ChangeMarked } from '../../components/ChangeMarked';
import { Pending } from '../../components/Pending';
import { RelativeTime } from '../../components/RelativeTime';
import { useVirtualRows } from '../../components/use-virtual-rows';
import { useUiStore } from '../../state/ui-store';
import { countText, formatBytes, formatCount } from '../format';
import { SearchThisPrefix } from '../wal/search/SearchThisPrefix';
import { FormatBadge } from '../wal/FormatBadge';
import {
  FLEET_COLUMNS,
  lagText,
  objectsText,
  tipText,
  writerText,
  type FleetColumnKey,
  type FleetSort,
} from './fleet-columns';

const ROW_HEIGHT = 34;

export function FleetTable({
  rows,
  selected,
  sort,
  onSort,
}: {
  rows: readonly FleetRow[];
  selected: string | null;
  sort: FleetSort;
  onSort: (key: FleetColumnKey) => void;
}) {
  const { scroller, items, before, after } = useVirtualRows(rows.length, ROW_HEIGHT);
  return (
    <div ref={scroller} className="fleet-scroller">
      <table
        className="table fleet-table"
        aria-label="WAL prefixes"
        aria-rowcount={rows.length + 1}
      >
        <thead>
          <tr>
            {FLEET_COLUMNS.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={
                  sort.key !== column.key ? 'none' : sort.descending ? 'descending' : 'ascending'
                }
              >
                <button type="button" className="link" onClick={() => onSort(column.key)}>
                  {column.label}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden="true" style={{ height: before }} />}
          {items.map((item) => {
            const row = rows[item.index];
            return row === undefined ? null : (
              <PrefixRow key={row.prefix} row={row} selected={row.prefix === selected} />
            );
          })}
          {after > 0 && <tr aria-hidden="true" style={{ height: after }} />}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One prefix: a click on the row selects it (the Overview's charts and garbage collection
 * follow), its name opens it in Batches.
 */
function PrefixRow({ row, selected }: { row: FleetRow; selected: boolean }) {
  const select = useUiStore((state) => state.selectWalPrefix);
  const showView = useUiStore((state) => state.showView);
  const pending = row.state === 'pending';
  return (
    <tr aria-selected={selected} onClick={() => select(row.prefix)}>
      <th scope="row">
        <button
          type="button"
          className="link mono"
          title={`Open ${row.prefix} in Batches`}
          onClick={(event) => {
            event.stopPropagation();
            showView('batches', { walPrefix: row.prefix, region: null, inspected: null });
          }}
        >
          {row.prefix}
        </button>{' '}
        <FormatBadge format={row.format} /> <SearchThisPrefix prefix={row.prefix} compact />
      </th>
      <ChangeMarked
        as="td"
        label={`Objects of ${row.prefix}`}
        value={row.objects}
        describe={(was) => `was ${formatCount(was)}`}
      >
        {objectsText(row)}
      </ChangeMarked>
      <td>{row.bytes === null ? null : formatBytes(row.bytes)}</td>
      <td className="mono">{tipText(row)}</td>
      <td>{row.newestObjectAtMs === null ? null : <RelativeTime atMs={row.newestObjectAtMs} />}</td>
      <td className="mono" title={floorTitle(row)}>
        {row.floor === null ? null : `seq ${String(row.floor)}`}
      </td>
      <td
        title={
          row.floorLag === null
            ? undefined
            : `the tip runs ${String(row.floorLag)} sequences above the floor`
        }
      >
        {lagText(row)}
      </td>
      <td>{countText(row.orphans, 'object')}</td>
      <td className={row.damaged !== null && row.damaged > 0 ? 'wal-warn' : undefined}>
        {countText(row.damaged, 'object')}
      </td>
      <td>{writerText(row)}</td>
      <td
        className={
          row.health.state === 'unhealthy'
            ? 'wal-warn'
            : row.health.state === 'unverified'
              ? 'wal-unverified'
              : undefined
        }
        title={row.openFailure?.message ?? row.error?.message}
      >
        {pending ? <Pending what={`Reading ${row.prefix}`} /> : <StateText row={row} />}
      </td>
    </tr>
  );
}

/**
 * `healthy` with when it was verified, `unverified` with why, or the State with each reason on
 * its own line (the reasons are the State); what it covers on hover.
 */
function StateText({ row }: { row: FleetRow }) {
  const reasons = row.health.reasons;
  const covered = row.coverage?.text;
  if (reasons.length === 0)
    return (
      <span title={covered} aria-label={`State of ${row.prefix}`}>
        {row.health.text}
        {row.health.state === 'healthy' && row.coverage?.verifiedAtMs != null && (
          <span className="muted small">
            {' '}
            · verified <RelativeTime atMs={row.coverage.verifiedAtMs} />
          </span>
        )}
      </span>
    );
  return (
    <ul className="fleet-reasons" aria-label={`State of ${row.prefix}`} title={covered}>
      {reasons.map((reason) => (
        <li key={reason.kind}>{reason.text}</li>
      ))}
    </ul>
  );
}

function floorTitle(row: FleetRow): string {
  return row.format === 'greptimedb-v1'
    ? 'Reclaim boundary: GreptimeDB deletes objects below it'
    : 'Boundary: GC collected the objects below it';
}
