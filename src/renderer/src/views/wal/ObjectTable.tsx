/**
 * A prefix's objects by sequence, paged from the server and virtualized past a page (a prefix
 * of 100,000 objects scrolls without loading them all): chain, orphans and excluded objects
 * (Cairn's format) or objects below the reclaim boundary (GreptimeDB's).
 */
import { memo, useCallback, useState } from 'react';
import type { WalFormat, WalObjectRow } from '../../../../shared/contract/wal';
import type { OpenProgress } from '../../../../shared/contract/wal-pages';
import { api } from '../../api/client';
import { useRefreshInterval } from '../../api/hooks';
import { PagedTable } from '../../components/PagedTable';
import { useNewKeys } from '../../components/use-changes';
import { formatBytes } from '../format';
import { PROGRESS_POLL_MS } from './OpenProgress';

/** Rows a page of the table asks for. */
const PAGE = 200;

type StatusFilter = 'all' | WalObjectRow['status'];

const FILTERS: Record<WalFormat, readonly StatusFilter[]> = {
  'cairn-v1': ['all', 'chain', 'orphan', 'excluded'],
  'greptimedb-v1': ['all', 'chain', 'orphan', 'below-boundary'],
};

interface FirstPage {
  readonly keys: readonly string[];
  readonly progress: OpenProgress;
}

export function ObjectTable({
  connectionId,
  prefix,
  live,
  format,
}: {
  connectionId: string;
  prefix: string;
  live: boolean;
  format: WalFormat | null;
}) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [first, setFirst] = useState<FirstPage | null>(null);
  const refetchInterval = useRefreshInterval(live);
  const fetchPage = useCallback(
    async (offset: number, limit: number) => {
      const page = await api.call('wal.objects', { connectionId, prefix, status, offset, limit });
      if (offset === 0)
        setFirst({ keys: page.rows.map((row) => row.key), progress: page.progress });
      return page;
    },
    [connectionId, prefix, status],
  );
  // Objects another process (or this app's writer) wrote since the last read are marked.
  const fresh = useNewKeys(status, first?.keys);
  const polling = first?.progress.done === false ? PROGRESS_POLL_MS : refetchInterval;
  return (
    <section aria-label="Objects" className="wal-panel">
      <header className="wal-panel-header">
        <h2>Objects</h2>
        <div role="tablist" aria-label="Object status" className="segmented">
          {FILTERS[format ?? 'cairn-v1'].map((candidate) => (
            <button
              key={candidate}
              type="button"
              role="tab"
              aria-selected={status === candidate}
              onClick={() => setStatus(candidate)}
            >
              {candidate}
            </button>
          ))}
        </div>
      </header>
      <PagedTable
        queryKey={['wal.objects', connectionId, prefix, status]}
        fetchPage={fetchPage}
        pageSize={PAGE}
        refetchInterval={polling}
        label={`Objects of ${prefix}`}
        pendingText="Listing objects"
        columns={6}
        rowKey={(row) => row.key}
        header={
          <tr>
            <th>Seq</th>
            <th>Epoch</th>
            <th>Status</th>
            <th>Size</th>
            <th>Segments</th>
            <th>Entries</th>
          </tr>
        }
        renderRow={(row) => <ObjectRowView row={row} fresh={fresh.has(row.key)} />}
        empty={
          <p className="muted">
            {status === 'all'
              ? 'No objects under this prefix yet: write some with `cairn wal append`, or open a writer here and start the load generator (operator mode).'
              : `No ${status} objects: switch to "all" to see every object.`}
          </p>
        }
        footer={(page) => (
          <div className="wal-pager">
            <span className="small muted" role="status" aria-label="Chain gaps">
              {page.gaps === 0 ? 'no gaps in the chain' : `${page.gaps} gaps in the chain`}
            </span>
            <span className="small muted">
              {page.total === 0 ? 'none' : `${page.total.toLocaleString()} objects`}
            </span>
          </div>
        )}
      />
    </section>
  );
}

/** One row; memoized, so a scroll frame renders only the rows it brings into view. */
const ObjectRowView = memo(function ObjectRowView({
  row,
  fresh,
}: {
  row: WalObjectRow;
  fresh: boolean;
}) {
  return (
    <tr
      className={
        [row.status === 'chain' ? '' : 'wal-warn', fresh ? 'changed' : ''].join(' ').trim() ||
        undefined
      }
    >
      <td className="mono" title={row.key}>
        {String(row.seq)}
        {fresh && <span className="badge ok small"> new</span>}
      </td>
      <td className="mono">{String(row.epoch)}</td>
      <td>{row.status}</td>
      <td>{formatBytes(row.size)}</td>
      <td>{row.segments ?? '—'}</td>
      <td>{row.entries ?? '—'}</td>
    </tr>
  );
});
