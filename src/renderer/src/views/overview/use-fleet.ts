/**
 * The fleet overview's rows, kept by TanStack Query like every view's data (so "updated … ago"
 * and "Refresh now" cover it): each poll asks only for the rows changed since the last one and
 * merges them; while a pass is reading, polls come every 300 ms so rows fill in as they are
 * read, then at the user's interval. Leaving the Overview stops the pass in the main process.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import type { FleetRow, FleetView } from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import { useRefreshInterval } from '../../api/hooks';

/** While a pass reads, rows arrive this often. */
const FILLING_POLL_MS = 300;

export interface Fleet {
  readonly version: number;
  /** Every prefix's row, in the main process's order. */
  readonly rows: readonly FleetRow[];
  readonly truncated: boolean;
  readonly reading: boolean;
  readonly passEndedAtMs: number | null;
  readonly error: FleetView['error'];
}

const EMPTY: Fleet = {
  version: 0,
  rows: [],
  truncated: false,
  reading: true,
  passEndedAtMs: null,
  error: null,
};

function merged(before: Fleet, view: FleetView): Fleet {
  const byPrefix = new Map(before.rows.map((row) => [row.prefix, row]));
  for (const row of view.rows) byPrefix.set(row.prefix, row);
  return {
    version: view.version,
    rows: view.prefixes.flatMap((prefix) => byPrefix.get(prefix) ?? []),
    truncated: view.truncated,
    reading: view.reading,
    passEndedAtMs: view.passEndedAtMs,
    error: view.error,
  };
}

export function useFleet(connectionId: string) {
  const queryClient = useQueryClient();
  const interval = useRefreshInterval();
  const refreshMs = interval === false ? 60_000 : interval;
  const queryKey = ['wal.fleet', { connectionId }] as const;
  const query = useQuery<Fleet, ApiError>({
    queryKey,
    queryFn: async () => {
      const before = queryClient.getQueryData<Fleet>(queryKey) ?? EMPTY;
      const view = await api.call('wal.fleet', {
        connectionId,
        since: before.version,
        refreshMs,
      });
      // A main process that restarted counts versions from 0 again: take everything.
      if (view.version < before.version)
        return merged(EMPTY, await api.call('wal.fleet', { connectionId, since: 0, refreshMs }));
      return merged(before, view);
    },
    refetchInterval: (state) => (state.state.data?.reading === true ? FILLING_POLL_MS : interval),
  });
  useEffect(
    () => () => {
      void api.call('wal.fleet.stop', { connectionId }).catch(() => undefined);
    },
    [connectionId],
  );
  return query;
}
