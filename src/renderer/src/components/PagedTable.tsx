/**
 * A table of rows the server pages by offset (regions, objects of a prefix): a short list is a
 * plain table of its first page; a long one (100,000 objects, 300,000 regions) is virtualized,
 * its rows asked for a page at a time as they scroll into view - any page, in any order, so a
 * jump to the end costs one page, never the pages before it. Rows not arrived yet show as
 * placeholders of the same height. Owns the scrolling and paging only; the view says what a
 * row shows.
 *
 * A long table's rows are recycled: keyed by their place in the window, not by item, so a
 * scroll writes the items now in view into the rows already there (text and attributes
 * changed in place) instead of making, styling and laying out a dozen new rows a frame and
 * removing as many. What a row holds across a scroll must therefore belong to its item, not
 * to its elements: focus follows its item (useRecycledFocus), a text selection in the rows
 * goes when they change items, a row's dialog keeps the item it opened on, a row's state
 * resets when its item changes.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ApiError } from '../../../shared/api-error';
import { ErrorPanel } from './ErrorPanel';
import { Pending } from './Pending';
import { useRecycledFocus, useRecycledSelection } from './use-recycled-focus';
import './paged-table.css';

/** One page as the server answers it. */
export interface RowPage {
  readonly rows: readonly unknown[];
  readonly total: number;
}

type RowOf<Page extends RowPage> = Page['rows'][number];

export interface PagedTableProps<Page extends RowPage> {
  /** Identifies the list (procedure and input less the paging): a new key starts over. */
  readonly queryKey: readonly unknown[];
  readonly fetchPage: (offset: number, limit: number) => Promise<Page>;
  /** Rows a page asks for. */
  readonly pageSize: number;
  readonly refetchInterval: number | false;
  readonly label: string;
  readonly header: ReactNode;
  readonly columns: number;
  readonly rowKey: (row: RowOf<Page>) => string;
  /**
   * One `<tr>`. `long`: the row is one of a virtualized table (scrolled fast: keep it light),
   * whose elements show another item after a scroll (see above).
   */
  readonly renderRow: (row: RowOf<Page>, index: number, long: boolean) => ReactNode;
  /** What the first page says beside its rows (totals, progress), shown under the table. */
  readonly footer?: (first: Page) => ReactNode;
  readonly empty?: ReactNode;
  readonly pendingText: string;
  /** A row to bring into view (a "go to"): a long list scrolls to it whenever it changes. */
  readonly scrollToIndex?: number | null;
}

/**
 * Every row's height (px) in a long list, as the stylesheet sets it: rows are one height, so
 * only the first row is measured, once (a theme or a zoom may round it differently).
 */
const ROW_HEIGHT = 30;

export function PagedTable<Page extends RowPage>(props: PagedTableProps<Page>) {
  const first = useQuery<Page, ApiError>({
    queryKey: [...props.queryKey, 0],
    queryFn: () => props.fetchPage(0, props.pageSize),
    refetchInterval: props.refetchInterval,
    placeholderData: (previous) => previous,
  });
  if (first.error) return <ErrorPanel error={first.error} onRetry={() => void first.refetch()} />;
  if (first.data === undefined) return <Pending what={props.pendingText} />;
  const page = first.data;
  return (
    <>
      {page.total <= props.pageSize ? (
        <table className="table" aria-label={props.label}>
          <thead>{props.header}</thead>
          <tbody>
            {page.rows.map((row, index) => (
              <Fragment key={props.rowKey(row)}>{props.renderRow(row, index, false)}</Fragment>
            ))}
          </tbody>
        </table>
      ) : (
        <LongTable {...props} total={page.total} firstPage={page} />
      )}
      {page.total === 0 && props.empty}
      {props.footer?.(page)}
    </>
  );
}

function LongTable<Page extends RowPage>(
  props: PagedTableProps<Page> & { total: number; firstPage: Page },
) {
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  const virtualizer = useVirtualizer({
    count: props.total,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    // Rows drawn past each edge: a wheel step or a key press finds them ready; every one more
    // is laid out and painted again on each scroll frame (10 read no better than 3).
    overscan: 3,
  });
  useLayoutEffect(() => {
    const row = body.current?.querySelector('tr:not(.paged-spacer)');
    const height = row?.getBoundingClientRect().height;
    if (height !== undefined && height > 0 && Math.abs(height - rowHeight) > 0.5) {
      setRowHeight(height);
      virtualizer.measure();
    }
  }, [rowHeight, virtualizer]);
  const { scrollToIndex } = props;
  useLayoutEffect(() => {
    if (scrollToIndex !== null && scrollToIndex !== undefined)
      virtualizer.scrollToIndex(scrollToIndex, { align: 'center' });
  }, [scrollToIndex, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  // The pages in view and the one after: a scroll down finds its next rows already there.
  const pages: number[] = [];
  const lastPage = Math.floor((props.total - 1) / props.pageSize);
  for (
    let at = Math.floor(firstIndex / props.pageSize);
    at <= Math.min(lastPage, Math.floor(lastIndex / props.pageSize) + 1);
    at++
  )
    if (at > 0) pages.push(at);
  // Pages off screen stay cached a while (a scroll back shows them at once), never refetched.
  const loaded = useQueries({
    queries: pages.map((at) => ({
      queryKey: [...props.queryKey, at],
      queryFn: () => props.fetchPage(at * props.pageSize, props.pageSize),
      refetchInterval: props.refetchInterval,
      placeholderData: (previous: Page | undefined) => previous,
    })),
  });
  const rowAt = (index: number): RowOf<Page> | undefined => {
    const at = Math.floor(index / props.pageSize);
    const page = at === 0 ? props.firstPage : loaded[pages.indexOf(at)]?.data;
    return page?.rows[index - at * props.pageSize];
  };
  const rows = items.map((item) => rowAt(item.index));
  const keys = rows.map((row) => (row === undefined ? null : props.rowKey(row)));
  useRecycledFocus(body, scroller, keys);
  useRecycledSelection(body, keys);
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    // Focusable (not in the tab order): where focus goes when its row's item scrolls away.
    <div ref={scroller} className="paged-table-scroller" tabIndex={-1}>
      <table className="table paged-table" aria-label={props.label} aria-rowcount={props.total}>
        <thead>{props.header}</thead>
        <tbody ref={body}>
          {before > 0 && <Spacer height={before} columns={props.columns} />}
          {items.map((item, place) => {
            const row = rows[place];
            // Keyed by place in the window: a scroll recycles the rows (see the file's head).
            return row === undefined ? (
              <tr key={place} className="paged-row-pending" aria-busy="true">
                <td colSpan={props.columns} className="muted small">
                  …
                </td>
              </tr>
            ) : (
              <Fragment key={place}>{props.renderRow(row, item.index, true)}</Fragment>
            );
          })}
          {after > 0 && <Spacer height={after} columns={props.columns} />}
        </tbody>
      </table>
    </div>
  );
}

/** Holds the height of the rows not drawn, so the scroll bar stands for the whole list. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" className="paged-spacer" style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}
