/**
 * What the shown data's age is and how it stays fresh: "updated 4 s ago" (the oldest data
 * on screen), the refresh interval (paused, 2 s .. 1 min; views re-read only while the
 * window is visible) and a refresh-now button.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { REFRESH_CHOICES_MS, useUiStore } from '../state/ui-store';
import { RelativeTime } from './RelativeTime';

/** When the oldest data of the queries on screen was read; null while nothing has loaded. */
function useOldestRead(): number | null {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((onChange: () => void) => cache.subscribe(onChange), [cache]);
  return useSyncExternalStore(subscribe, () => {
    const reads = cache
      .findAll({ type: 'active' })
      .map((query) => query.state.dataUpdatedAt)
      .filter((at) => at > 0);
    return reads.length === 0 ? null : Math.min(...reads);
  });
}

function intervalLabel(ms: number): string {
  if (ms === 0) return 'paused';
  return ms < 60_000 ? `every ${ms / 1000} s` : `every ${ms / 60_000} min`;
}

export function LiveStatus() {
  const queryClient = useQueryClient();
  const oldest = useOldestRead();
  const refreshMs = useUiStore((state) => state.refreshMs);
  const setRefreshMs = useUiStore((state) => state.setRefreshMs);
  return (
    <div className="live-status" role="group" aria-label="Data freshness">
      <span className="small muted" aria-label="Data read">
        {oldest === null ? (
          'loading…'
        ) : (
          <>
            updated <RelativeTime atMs={oldest} />
          </>
        )}
      </span>
      <select
        aria-label="Refresh interval"
        value={refreshMs}
        onChange={(event) => setRefreshMs(Number(event.target.value))}
      >
        {REFRESH_CHOICES_MS.map((ms) => (
          <option key={ms} value={ms}>
            Refresh {intervalLabel(ms)}
          </option>
        ))}
      </select>
      <button
        type="button"
        title="Refresh now"
        onClick={() => void queryClient.refetchQueries({ type: 'active' })}
      >
        Refresh
      </button>
    </div>
  );
}
