/**
 * The audit log as Activity reads it: the newest page first, older pages on demand
 * (`audit.page`'s cursors), re-read when the main process records an entry.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { AuditEntry } from '../../../../shared/contract';
import { api } from '../../api/client';

export const AUDIT_PAGE_SIZE = 200;

export function useAuditPages() {
  const queryClient = useQueryClient();
  const pages = useInfiniteQuery({
    queryKey: ['audit.page'],
    queryFn: ({ pageParam }) =>
      api.call('audit.page', { limit: AUDIT_PAGE_SIZE, before: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.older ?? undefined,
  });
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type === 'audit.recorded')
          void queryClient.invalidateQueries({ queryKey: ['audit.page'] });
      }),
    [queryClient],
  );
  const entries = useMemo<AuditEntry[]>(
    () => pages.data?.pages.flatMap((page) => page.entries) ?? [],
    [pages.data],
  );
  const unreadable = pages.data?.pages.reduce((sum, page) => sum + page.unreadable, 0) ?? 0;
  return { pages, entries, unreadable };
}
