/** TanStack Query over the typed client: server state lives here, never in zustand. */
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { InputOf, OutputOf, ProcedureName } from '../../../shared/contract';
import type { ApiError } from '../../../shared/api-error';
import { api } from './client';

export function useApiQuery<K extends ProcedureName>(
  name: K,
  input: InputOf<K>,
  options: Omit<UseQueryOptions<OutputOf<K>, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<OutputOf<K>, ApiError>({
    queryKey: [name, input],
    queryFn: () => api.call(name, input),
    ...options,
  });
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
        if (event.type === 'connections.changed')
          queryClient.setQueryData(['connections.list', {}], event.connections);
      }),
    [queryClient],
  );
}
