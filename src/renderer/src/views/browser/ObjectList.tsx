/**
 * The bucket browser's list: a virtualized grid of one folder's rows (folders, then objects
 * with size, modified time and ETag), asking for the next page as the end comes near, and
 * telling which row is at the top when scrolling stops (the place's scroll anchor).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState } from 'react';
import { RelativeTimeAt } from '../../components/RelativeTime';
import { useNow } from '../../components/use-now';
import { formatBytes } from '../format';
import type { Row } from './browser-rows';
import { PREFETCH_ROWS } from './use-folder-listing';

/** Every row's height (px): fixed, so rows are never measured. */
const ROW_HEIGHT = 30;

interface ObjectListProps {
  readonly rows: readonly Row[];
  readonly prefix: string;
  readonly selected: string | null;
  readonly onOpen: (row: Row) => void;
  /** Called while the rows shown are near the end of those loaded. */
  readonly onNearEnd: () => void;
  /** The index of the row at the top once scrolling stops. */
  readonly onTopRow: (index: number) => void;
  readonly empty: boolean;
}

/**
 * The virtualized grid, its own component: a scroll frame renders the list and the rows that
 * come into view, never the view around it (header, query state, inspector).
 */
export const ObjectList = memo(function ObjectList({
  rows,
  prefix,
  selected,
  onOpen,
  onNearEnd,
  onTopRow,
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
  const top = virtualizer.range?.startIndex ?? 0;
  useEffect(() => {
    if (!scrolling) onTopRow(top);
  }, [top, scrolling, onTopRow]);
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
