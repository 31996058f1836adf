/**
 * One page of a prefix's objects by sequence, paged from the server: chain, orphans and
 * excluded objects (Cairn's format) or objects below the reclaim boundary (GreptimeDB's), and
 * the objects a scrub or a replay found damaged (status `damaged` and the check that failed).
 * A row opens its object in the inspector (a click anywhere on it, or Enter on its sequence);
 * "go to" jumps to an object's page and opens it. Objects written since the last read are
 * marked new; objects a collection moved onto the page are not.
 */
import { useEffect, useRef, useState } from 'react';
import type { WalFormat, WalObjectRow } from '../../../../shared/contract/wal';
import { useApiQuery, useRefreshInterval } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Pending } from '../../components/Pending';
import { useNewRows } from '../../components/use-changes';
import { formatBytes } from '../format';
import { GoToObject } from './GoToObject';

const PAGE = 100;

type StatusFilter = 'all' | 'damaged' | WalObjectRow['status'];

const FILTERS: Record<WalFormat, readonly StatusFilter[]> = {
  'cairn-v1': ['all', 'chain', 'orphan', 'excluded', 'damaged'],
  'greptimedb-v1': ['all', 'chain', 'orphan', 'below-boundary', 'damaged'],
};

/** `damaged · segment-crc` for a damaged object; its status otherwise. */
function statusText(row: WalObjectRow): string {
  return row.damage === undefined ? row.status : `damaged · ${row.damage.check}`;
}

function statusTitle(row: WalObjectRow): string | undefined {
  if (row.damage === undefined) return undefined;
  const detail = row.damage.detail === '' ? '' : ` (${row.damage.detail})`;
  return `${row.status} object; found by a ${row.damage.source}: ${row.damage.check} check failed${detail}`;
}

export function ObjectTable({
  connectionId,
  prefix,
  live,
  format,
  openKey,
  onOpen,
}: {
  connectionId: string;
  prefix: string;
  live: boolean;
  format: WalFormat | null;
  /** The object shown in the inspector, if any. */
  openKey: string | null;
  onOpen: (key: string) => void;
}) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [offset, setOffset] = useState(0);
  /** The row "go to" jumped to: scrolled to and focused once its page is shown. */
  const [located, setLocated] = useState<string | null>(null);
  const locatedRow = useRef<HTMLButtonElement | null>(null);
  const refetchInterval = useRefreshInterval(live);
  const page = useApiQuery(
    'wal.objects',
    { connectionId, prefix, status, offset, limit: PAGE },
    { refetchInterval, placeholderData: (previous) => previous },
  );
  // Objects another process (or this app's writer) wrote since the last read are marked.
  const fresh = useNewRows(status, page.data?.rows, page.data?.newestSeq);
  const locatedShown = page.data?.rows.some((row) => row.key === located) === true;
  useEffect(() => {
    if (!locatedShown) return;
    locatedRow.current?.scrollIntoView({ block: 'center' });
    locatedRow.current?.focus();
  }, [locatedShown, located]);
  return (
    <section aria-label="Objects" className="wal-panel">
      <header className="wal-panel-header">
        <h2>Objects</h2>
        <GoToObject
          connectionId={connectionId}
          prefix={prefix}
          status={status}
          onFound={({ index, row }) => {
            setOffset(Math.floor(index / PAGE) * PAGE);
            setLocated(row.key);
            onOpen(row.key);
          }}
        />
        <div role="tablist" aria-label="Object status" className="segmented">
          {FILTERS[format ?? 'cairn-v1'].map((candidate) => (
            <button
              key={candidate}
              type="button"
              role="tab"
              aria-selected={status === candidate}
              onClick={() => {
                setStatus(candidate);
                setOffset(0);
                setLocated(null);
              }}
            >
              {candidate}
            </button>
          ))}
        </div>
      </header>
      {page.error && <ErrorPanel error={page.error} onRetry={() => void page.refetch()} />}
      {page.isPending && <Pending what="Listing objects" />}
      {page.data && (
        <>
          <table className="table" aria-label={`Objects of ${prefix}`}>
            <thead>
              <tr>
                <th>Seq</th>
                <th>Epoch</th>
                <th>Status</th>
                <th>Size</th>
                <th>Segments</th>
                <th>Entries</th>
              </tr>
            </thead>
            <tbody>
              {page.data.rows.map((row) => (
                <tr
                  key={row.key}
                  aria-selected={row.key === openKey}
                  className={[
                    row.status === 'chain' && row.damage === undefined ? '' : 'wal-warn',
                    fresh.has(row.key) ? 'changed' : '',
                    row.key === located ? 'located' : '',
                    'openable',
                  ]
                    .join(' ')
                    .trim()}
                  onClick={() => onOpen(row.key)}
                >
                  <td className="mono" title={row.key}>
                    <button
                      type="button"
                      className="link mono"
                      aria-label={`Inspect object seq ${String(row.seq)}`}
                      ref={row.key === located ? locatedRow : undefined}
                      onClick={(event) => {
                        // The row's own click opens it too: once is enough.
                        event.stopPropagation();
                        onOpen(row.key);
                      }}
                    >
                      {String(row.seq)}
                    </button>
                    {fresh.has(row.key) && <span className="badge ok small"> new</span>}
                  </td>
                  <td className="mono">{String(row.epoch)}</td>
                  <td title={statusTitle(row)}>{statusText(row)}</td>
                  <td>{formatBytes(row.size)}</td>
                  <td>{row.segments ?? '—'}</td>
                  <td>{row.entries ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.data.total === 0 && (
            <p className="muted">
              {status === 'all'
                ? 'No objects under this prefix yet: write some with `cairn wal append`, or open a writer here and start the load generator (operator mode).'
                : `No ${status} objects: switch to "all" to see every object.`}
            </p>
          )}
          <div className="wal-pager">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => {
                setOffset(Math.max(0, offset - PAGE));
                setLocated(null);
              }}
            >
              Previous
            </button>
            <span className="small muted" role="status" aria-label="Chain gaps">
              {page.data.gaps === 0
                ? 'no gaps in the chain'
                : `${page.data.gaps} gaps in the chain`}
            </span>
            <span className="small muted">
              {page.data.total === 0
                ? 'none'
                : `${offset + 1}–${Math.min(offset + PAGE, page.data.total)} of ${page.data.total.toLocaleString()}`}
            </span>
            <button
              type="button"
              disabled={offset + PAGE >= page.data.total}
              onClick={() => {
                setOffset(offset + PAGE);
                setLocated(null);
              }}
            >
              Next
            </button>
          </div>
        </>
      )}
    </section>
  );
}
