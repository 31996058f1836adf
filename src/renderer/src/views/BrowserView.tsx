/**
 * The bucket browser: a prefix at a time (ListObjectsV2 with a delimiter), pages fetched on
 * demand and rows virtualized, so a prefix of 100,000 objects never lists whole or sends a
 * HEAD per row. Selecting an object opens the inspector.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { OutputOf } from '../../../shared/contract';
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
/** Every row's height (px): fixed, so rows are never measured. */
const ROW_HEIGHT = 30;

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
        {(listing.data?.pages.length ?? 0) > LIVE_PAGES &&
          ` · more than ${(LIVE_PAGES * 500).toLocaleString()} keys loaded: re-read on Refresh, not on the interval`}
      </p>
    </section>
  );
}

type Page = OutputOf<'objects.list'>;

/**
 * A page's rows, made once per page: a page that arrives (or a refetch that leaves a page as it
 * was) keeps every other page's row objects, so the memoized rows shown do not render again.
 */
const pageRows = new WeakMap<Page, readonly Row[]>();

function rowsOf(pages: readonly Page[]): readonly Row[] {
  const all: Row[] = [];
  for (const page of pages) {
    let rows = pageRows.get(page);
    if (rows === undefined) {
      rows = [
        ...page.commonPrefixes.map((key): Row => ({ kind: 'folder', key })),
        ...page.objects.map((object): Row => ({ kind: 'object', ...object })),
      ];
      pageRows.set(page, rows);
    }
    for (const row of rows) all.push(row);
  }
  return all;
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
  // The next page is fetched as the user nears the end, never the whole prefix up front.
  useEffect(() => {
    if (lastVisible >= rows.length - 100) onNearEnd();
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
  readonly onOpen: (row: Row) => void;
}

/** One row; memoized, so scrolling renders only the rows that come into view. */
const BrowserRow = memo(function BrowserRow({
  row,
  index,
  start,
  selected,
  prefix,
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
          <RelativeTime atMs={row.lastModified.getTime()} />
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
