/**
 * The audit log of every operator action, newest first, live, paged back through the whole
 * log (rotated files included), exportable as NDJSON (what is loaded).
 */
import { useMemo } from 'react';
import { useApiQuery } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { downloadText } from '../components/download';
import { Pending } from '../components/Pending';
import { AuditTable } from './activity/AuditTable';
import { bigintAsText } from './activity/audit-text';
import { useAuditPages } from './activity/use-audit-pages';
import './activity/activity.css';
import { counted } from '../../../shared/plural';
import { formatCount } from './format';

export function ActivityView() {
  const { pages, entries, unreadable } = useAuditPages();
  const connections = useApiQuery('connections.list', {});
  const namesById = useMemo(
    () => new Map((connections.data ?? []).map((connection) => [connection.id, connection.name])),
    [connections.data],
  );
  return (
    <section aria-labelledby="activity-title" className="view">
      <header className="view-header">
        <h1 id="activity-title">Activity</h1>
        <button
          type="button"
          disabled={entries.length === 0}
          onClick={() =>
            downloadText(
              'cairn-activity.ndjson',
              entries.map((entry) => JSON.stringify(entry, bigintAsText)).join('\n') + '\n',
            )
          }
        >
          Export NDJSON
        </button>
      </header>
      {pages.error && <ErrorPanel error={pages.error} onRetry={() => void pages.refetch()} />}
      {pages.isPending && <Pending what="Reading the audit log" />}
      {entries.length === 0 && !pages.isLoading ? (
        <p className="muted">
          No operator action yet. Every change made through Cairn is recorded here.
        </p>
      ) : (
        <AuditTable entries={entries} namesById={namesById} />
      )}
      <p className="small muted" role="status" aria-label="Audit log paging">
        {counted(entries.length, 'entry')} shown
        {unreadable > 0 && ` · ${formatCount(unreadable)} unreadable lines skipped`}
        {!pages.hasNextPage && entries.length > 0 && ' · the oldest is reached'}
      </p>
      {pages.hasNextPage && (
        <button
          type="button"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {pages.isFetchingNextPage ? 'Reading older entries…' : 'Show older'}
        </button>
      )}
    </section>
  );
}
