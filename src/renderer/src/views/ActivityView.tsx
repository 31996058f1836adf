/** The audit log of every operator action, newest first, live, exportable as NDJSON. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { downloadText } from '../components/download';
import { RelativeTime } from '../components/RelativeTime';
import { Pending } from '../components/Pending';

export function ActivityView() {
  const recent = useApiQuery('audit.recent', { limit: 1000 });
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type === 'audit.recorded')
          void queryClient.invalidateQueries({ queryKey: ['audit.recent'] });
      }),
    [queryClient],
  );
  const entries = recent.data ?? [];
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
      {recent.error && <ErrorPanel error={recent.error} onRetry={() => void recent.refetch()} />}
      {recent.isPending && <Pending what="Reading the audit log" />}
      {entries.length === 0 && !recent.isLoading ? (
        <p className="muted">
          No operator action yet. Every change made through Cairn is recorded here.
        </p>
      ) : (
        <table className="table" aria-label="Audit log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Connection</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.at}-${index}`}>
                <td className="small">
                  <RelativeTime atMs={Date.parse(entry.at)} />
                </td>
                <td>{entry.connectionId ?? '—'}</td>
                <td className="mono">{entry.action}</td>
                <td className="mono">{entry.target}</td>
                <td>
                  {entry.result === 'ok' ? (
                    <span className="badge ok">ok</span>
                  ) : (
                    <span className="badge warn" title={entry.error}>
                      {entry.error ?? 'error'}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Parameters carry bigint ids, which JSON has no number for: exported as exact text. */
function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
