/**
 * The rows of a long table that are in view, for a scrolling container: which to render and
 * the heights of the spacer rows above and below them, so a table of thousands of rows
 * renders as one of a screenful. A row whose height is not the usual one (a hole's wrapped
 * text) is measured from its element (`measure`, with `data-index` on it).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

export function useVirtualRows(count: number, rowHeight: number) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return {
    scroller,
    items,
    before,
    after,
    measure: virtualizer.measureElement,
    scrollToIndex: virtualizer.scrollToIndex,
  };
}
