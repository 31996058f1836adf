/**
 * One folder's listing for the bucket browser: pages fetched on demand (ListObjectsV2 with a
 * delimiter), from the folder's start or from a key (a link's scroll anchor, a "Go to"), so a
 * folder of 100,000 objects is never listed whole to reach a key deep in it.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '../../api/client';
import { useRefreshInterval } from '../../api/hooks';
import { keysIn, rowsOf } from './browser-rows';
import { startAfterFor } from './go-to-target';

/** Keys of a folder's first page: small, so its first rows show soon. */
const FIRST_PAGE_SIZE = 500;
/**
 * Keys of every later page: the most one ListObjectsV2 call returns. Each page costs the store
 * one listing call (on a local folder, a read and sort of the whole directory) on the machine
 * the scrolling shares: the fewer the calls, the fewer frames wait behind them.
 */
const PAGE_SIZE = 1_000;
/** Keys loaded up to which a folder's listing is re-read on the refresh interval. */
export const LIVE_KEYS = 2_000;
/**
 * Rows before the end of those loaded at which the next page is asked for: half a page (half
 * the first page, so opening a folder alone does not list its second page).
 */
export const PREFETCH_ROWS = PAGE_SIZE / 2;

export function useFolderListing(connectionId: string, folder: string, from: string | null) {
  const refetchInterval = useRefreshInterval();
  const startAfter = from === null ? undefined : startAfterFor(from);
  const listing = useInfiniteQuery({
    queryKey: ['objects.list', connectionId, folder, from],
    queryFn: ({ pageParam }) =>
      api.call('objects.list', {
        connectionId,
        prefix: folder,
        delimiter: '/',
        continuation: pageParam,
        ...(startAfter === undefined ? {} : { startAfter }),
        pageSize: pageParam === undefined ? FIRST_PAGE_SIZE : PAGE_SIZE,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.continuation,
    // A refetch re-lists every loaded page: past a few pages the listing stays as read until
    // the user refreshes, so a scrolled prefix of 100,000 keys is not listed whole every 5 s.
    refetchInterval: (query) => (keysIn(query.state.data) > LIVE_KEYS ? false : refetchInterval),
  });
  const rows = useMemo(() => rowsOf(listing.data?.pages ?? []), [listing.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  const fetchMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { listing, rows, fetchMore };
}
