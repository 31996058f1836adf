/**
 * The bucket browser: a prefix at a time (ListObjectsV2 with a delimiter), pages fetched on
 * demand and rows virtualized, so a prefix of 100,000 objects never lists whole or sends a
 * HEAD per row. Selecting an object opens the inspector.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client';
import { useRefreshInterval } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { RelativeTimeAt } from '../components/RelativeTime';
import { useNow } from '../components/use-now';
import { formText } from '../components/form-text';
import { useUiStore } from '../state/ui-store';
import { ObjectInspector } from './browser/ObjectInspector';
import { keysIn, rowsOf, type Row } from './browser/browser-rows';
import { formatBytes } from './format';
import { Pending } from '../components/Pending';

/** Keys of a folder's first page: small, so its first rows show soon. */
const FIRST_PAGE_SIZE = 500;
/**
 * Keys of every later page: the most one ListObjectsV2 call returns. Each page costs the store
 * one listing call (on a local folder, a read and sort of the whole directory) on the machine
 * the scrolling shares: the fewer the calls, the fewer frames wait behind them.
 */
const PAGE_SIZE = 1_000;
/** Keys loaded up to which a folder's listing is re-read on the refresh interval. */
const LIVE_KEYS = 2_000;
/**
 * Rows before the end of those loaded at which the next page is asked for: half a page (half
 * the first page, so opening a folder alone does not list its second page).
 */
const PREFETCH_ROWS = PAGE_SIZE / 2;
/** Every row's height (px): fixed, so rows are never measured. */
const ROW_HEIGHT = 30;

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
        <ObjectList
          rows={rows}
          prefix={prefix}
          selected={selected}
          onOpen={open}
          onNearEnd={fetchMore}
          empty={!listing.isLoading && rows.length === 0}
        />
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
        {rows.length > LIVE_KEYS &&
          ` · more than ${LIVE_KEYS.toLocaleString()} keys loaded: re-read on Refresh, not on the interval`}
      </p>
    </section>
  );
}

interface ObjectListProps {
  readonly rows: readonly Row[];
  readonly prefix: string;
  readonly selected: string | null;
  readonly onOpen: (row: Row) => void;
  /** Called while the rows shown are near the end of those loaded. */
  readonly onNearEnd: () => void;
  readonly empty: boolean;
}

/**
 * The virtualized grid, its own component: a scroll frame renders the list and the rows that
 * come into view, never the view around it (header, query state, inspector).
 */
const ObjectList = memo(function ObjectList({
  rows,
  prefix,
  selected,
  onOpen,
  onNearEnd,
  empty,
}: ObjectListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastVisible = items[items.length - 1]?.index ?? 0;
  // One clock for every row's "modified … ago", held still while the list scrolls: a tick
  // would render and lay out again every row shown, in the middle of the scroll's frames.
  const scrolling = virtualizer.isScrolling;
  const clock = useNow(1_000, scrolling);
  const [now, setNow] = useState(clock);
  useEffect(() => {
    if (!scrolling) setNow(clock);
  }, [clock, scrolling]);
  // The next page is asked for half a page before the end, so a fast scroll does not reach the
  // end before it arrives; never the whole prefix up front.
  useEffect(() => {
    if (lastVisible >= rows.length - Math.min(PREFETCH_ROWS, rows.length / 2)) onNearEnd();
  }, [lastVisible, rows.length, onNearEnd]);
  return (
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
              selected={row.key === selected}
              prefix={prefix}
              now={now}
              onOpen={onOpen}
            />
          ) : null;
        })}
      </div>
      {empty && <p className="muted pad">No objects under this prefix.</p>}
    </div>
  );
});

interface BrowserRowProps {
  readonly row: Row;
  readonly index: number;
  readonly start: number;
  readonly selected: boolean;
  readonly prefix: string;
  readonly now: number;
  readonly onOpen: (row: Row) => void;
}

/** One row; memoized, so scrolling renders only the rows that come into view. */
const BrowserRow = memo(function BrowserRow({
  row,
  index,
  start,
  selected,
  prefix,
  now,
  onOpen,
}: BrowserRowProps) {
  const name = row.key.slice(prefix.length);
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      className="virtual-row browser-row"
      style={{ top: start }}
    >
      <span role="gridcell" className="mono browser-key">
        <button type="button" className="link" onClick={() => onOpen(row)}>
          {row.kind === 'folder' ? `📁 ${name}` : name}
        </button>
      </span>
      <span role="gridcell" className="browser-size">
        {row.kind === 'object' ? formatBytes(row.size) : ''}
      </span>
      <span role="gridcell" className="muted browser-time">
        {row.kind === 'object' && row.lastModified ? (
          <RelativeTimeAt atMs={row.lastModified.getTime()} nowMs={now} />
        ) : (
          ''
        )}
      </span>
      <span role="gridcell" className="mono muted small browser-etag">
        {row.kind === 'object' ? row.etag.slice(0, 12) : ''}
      </span>
    </div>
  );
});
