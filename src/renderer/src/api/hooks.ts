/** TanStack Query over the typed client: server state lives here, never in zustand. */
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { InputOf, OutputOf, ProcedureName } from '../../../shared/contract';
import type { ApiError } from '../../../shared/api-error';
import { useUiStore } from '../state/ui-store';
import { api } from './client';

/**
 * A query of the API, re-read on the user's refresh interval (paused at 0; never while the
 * window is hidden) unless the caller picks its own interval.
 */
export function useApiQuery<K extends ProcedureName>(
  name: K,
  input: InputOf<K>,
  options: Omit<UseQueryOptions<OutputOf<K>, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  const refetchInterval = useRefreshInterval();
  return useQuery<OutputOf<K>, ApiError>({
    queryKey: [name, input],
    queryFn: () => api.call(name, input),
    refetchInterval,
    ...options,
  });
}

/**
 * The user's refresh interval (false when paused). `writerHere`: a writer of this app changes
 * the data under the view at its own pace, so it is re-read at least every 2 s.
 */
export function useRefreshInterval(writerHere = false): number | false {
  const refreshMs = useUiStore((state) => state.refreshMs);
  if (refreshMs === 0) return false;
  return writerHere ? Math.min(refreshMs, 2_000) : refreshMs;
}

/** A mutation that refreshes the named queries when it succeeds. */
export function useApiMutation<K extends ProcedureName>(
  name: K,
  invalidates: readonly ProcedureName[] = [],
) {
  const queryClient = useQueryClient();
  return useMutation<OutputOf<K>, ApiError, InputOf<K>>({
    mutationFn: (input) => api.call(name, input),
    onSuccess: async () => {
      await Promise.all(
        invalidates.map((query) => queryClient.invalidateQueries({ queryKey: [query] })),
      );
    },
  });
}

/** Keeps cached server state fresh when the main process announces a change. */
export function useLiveInvalidation(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onEvent((event) => {
        // Re-read, not pushed: which connections are in operator mode differs per session.
        if (event.type === 'connections.changed')
          void queryClient.invalidateQueries({ queryKey: ['connections.list'] });
      }),
    [queryClient],
  );
}
