/**
 * The bucket browser: a prefix at a time (ListObjectsV2 with a delimiter), pages fetched on
 * demand and rows virtualized, so a prefix of 100,000 objects never lists whole or sends a
 * HEAD per row. Selecting an object opens the inspector.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { api } from '../api/client';
import { useRefreshInterval } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { RelativeTime } from '../components/RelativeTime';
import { formText } from '../components/form-text';
import { useUiStore } from '../state/ui-store';
import { ObjectInspector } from './browser/ObjectInspector';
import { formatBytes } from './format';
import { Pending } from '../components/Pending';

/** Pages (500 keys each) a folder's listing re-reads on the refresh interval. */
const LIVE_PAGES = 4;

type Row =
  | { kind: 'folder'; key: string }
  | { kind: 'object'; key: string; size: number; etag: string; lastModified?: Date };

export function BrowserView() {
  const connectionId = useUiStore((state) => state.connectionId);
  // The folder and the object open in the inspector are part of the place (URL).
  const prefix = useUiStore((state) => state.folder);
  const selected = useUiStore((state) => state.objectKey);
  const select = useUiStore((state) => state.select);
  const setPrefix = useCallback((folder: string) => select({ folder, objectKey: null }), [select]);
  const setSelected = useCallback((objectKey: string | null) => select({ objectKey }), [select]);
  const refetchInterval = useRefreshInterval();
  const listing = useInfiniteQuery({
    queryKey: ['objects.list', connectionId, prefix],
    queryFn: ({ pageParam }) =>
      api.call('objects.list', {
        connectionId,
        prefix,
        delimiter: '/',
        continuation: pageParam,
        pageSize: 500,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.continuation,
    // A refetch re-lists every loaded page: past a few pages the listing stays as read until
    // the user refreshes, so a scrolled prefix of 100,000 keys is not listed whole every 5 s.
    refetchInterval: (query) =>
      (query.state.data?.pages.length ?? 0) > LIVE_PAGES ? false : refetchInterval,
  });
  const rows = useMemo<Row[]>(
    () =>
      listing.data?.pages.flatMap((page) => [
        ...page.commonPrefixes.map((key): Row => ({ kind: 'folder', key })),
        ...page.objects.map((object): Row => ({ kind: 'object', ...object })),
      ]) ?? [],
    [listing.data],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 30,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastVisible = items[items.length - 1]?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  // The next page is fetched as the user nears the end, never the whole prefix up front.
  useEffect(() => {
    if (lastVisible >= rows.length - 100 && hasNextPage && !isFetchingNextPage)
      void fetchNextPage();
  }, [lastVisible, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const open = useCallback(
    (row: Row) => (row.kind === 'folder' ? setPrefix(row.key) : setSelected(row.key)),
    [setPrefix, setSelected],
  );
  const crumbs = prefix.split('/').filter(Boolean);
  return (
    <section aria-labelledby="browser-title" className="view browser">
      <header className="view-header">
        <h1 id="browser-title">Bucket browser</h1>
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault();
            setPrefix(formText(new FormData(event.currentTarget), 'prefix'));
          }}
        >
          <input
            name="prefix"
            aria-label="Prefix"
            placeholder="Search by prefix"
            defaultValue={prefix}
            key={prefix}
            className="mono"
          />
          <button type="submit">Go</button>
        </form>
      </header>
      <nav aria-label="Prefix path" className="crumbs">
        <button type="button" className="link" onClick={() => setPrefix('')}>
          (root)
        </button>
        {crumbs.map((part, index) => (
          <span key={index}>
            {' / '}
            <button
              type="button"
              className="link"
              onClick={() => setPrefix(crumbs.slice(0, index + 1).join('/') + '/')}
            >
              {part}
            </button>
          </span>
        ))}
      </nav>
      {listing.error && <ErrorPanel error={listing.error} onRetry={() => void listing.refetch()} />}
      {listing.isPending && <Pending what="Listing objects" />}
      <div className="split">
        <div
          ref={scroller}
          className="virtual-list"
          role="grid"
          aria-label="Objects"
          aria-rowcount={rows.length}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index];
              return row ? (
                <BrowserRow
                  key={row.key}
                  row={row}
                  index={item.index}
                  start={item.start}
                  size={item.size}
                  selected={row.key === selected}
                  prefix={prefix}
                  onOpen={open}
                />
              ) : null;
            })}
          </div>
          {!listing.isLoading && rows.length === 0 && (
            <p className="muted pad">No objects under this prefix.</p>
          )}
        </div>
        {selected && (
          <ObjectInspector
            connectionId={connectionId}
            objectKey={selected}
            onClose={() => setSelected(null)}
          />
        )}
      </div>
      <p className="muted small" role="status">
        {rows.length} {listing.hasNextPage ? '+ (more pages load as you scroll)' : 'entries'}
        {(listing.data?.pages.length ?? 0) > LIVE_PAGES &&
          ` · more than ${(LIVE_PAGES * 500).toLocaleString()} keys loaded: re-read on Refresh, not on the interval`}
      </p>
    </section>
  );
}

interface BrowserRowProps {
  readonly row: Row;
  readonly index: number;
  readonly start: number;
  readonly size: number;
  readonly selected: boolean;
  readonly prefix: string;
  readonly onOpen: (row: Row) => void;
}

/** One row; memoized, so scrolling renders only the rows that come into view. */
const BrowserRow = memo(function BrowserRow({
  row,
  index,
  start,
  size,
  selected,
  prefix,
  onOpen,
}: BrowserRowProps) {
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      className="virtual-row"
      style={{ transform: `translateY(${start}px)`, height: size }}
    >
      <span role="gridcell" className="mono grow">
        <button type="button" className="link" onClick={() => onOpen(row)}>
          {row.kind === 'folder' ? '📁 ' : ''}
          {row.key.slice(prefix.length)}
        </button>
      </span>
      <span role="gridcell">{row.kind === 'object' ? formatBytes(row.size) : ''}</span>
      <span role="gridcell" className="muted">
        {row.kind === 'object' && row.lastModified ? (
          <RelativeTime atMs={row.lastModified.getTime()} />
        ) : (
          ''
        )}
      </span>
      <span role="gridcell" className="mono muted small">
        {row.kind === 'object' ? row.etag.slice(0, 12) : ''}
      </span>
    </div>
  );
});
