/**
 * The regions Replay's picker offers: the prefix's regions by id, with their entry counts and
 * first / latest ids, a page at a time (a GreptimeDB object can hold 300,000 regions: the
 * picker never lists them all at once), and whether every region has been listed (only then
 * can a region be said not to exist here).
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { RegionRow } from '../../../../../shared/contract/wal';
import { api } from '../../../api/client';
import { useRefreshInterval } from '../../../api/hooks';

/** Regions listed per page of the picker. */
export const REGION_PAGE = 500;

interface RegionPage {
  readonly rows: readonly RegionRow[];
  readonly offset: number;
  /** Regions of the prefix over every page. */
  readonly total: number;
}

async function regionPage(
  connectionId: string,
  prefix: string,
  offset: number,
): Promise<RegionPage> {
  const view = await api.call('wal.regions', { connectionId, prefix, offset, limit: REGION_PAGE });
  return { rows: view.regions, offset, total: view.total };
}

export interface RegionChoices {
  readonly rows: readonly RegionRow[];
  /** Regions of the prefix, listed or not; null until the first page arrives. */
  readonly total: number | null;
  /** Every region is listed: a region missing from `rows` is not in the prefix. */
  readonly complete: boolean;
  readonly pending: boolean;
  readonly error: Error | null;
  /** Lists the next page (no-op when complete or already listing). */
  readonly more: () => void;
}

export function useRegionChoices(connectionId: string, prefix: string): RegionChoices {
  const refetchInterval = useRefreshInterval();
  const query = useInfiniteQuery({
    queryKey: ['wal.regions', { connectionId, prefix, picker: true }],
    queryFn: ({ pageParam }) => regionPage(connectionId, prefix, pageParam),
    initialPageParam: 0,
    getNextPageParam: (page) => {
      const next = page.offset + page.rows.length;
      return next < page.total && page.rows.length > 0 ? next : undefined;
    },
    refetchInterval,
  });
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.rows) ?? [], [query.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  return {
    rows,
    total: query.data?.pages[0]?.total ?? null,
    complete: query.data !== undefined && rows.length >= (query.data.pages[0]?.total ?? 0),
    pending: query.isPending,
    error: query.error,
    more: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
  };
}
