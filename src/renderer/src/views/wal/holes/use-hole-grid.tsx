/**
 * A virtualized table whose rows may be hole rows (Replay's entries and its rows): the
 * scroller, the virtualizer over the grid's rows, a skipped-damage notice's jump carried to its
 * hole, and the rows in view - a hole drawn as HoleRow, placed and measured, every other row by
 * the table's own `draw`.
 */
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useCallback, useRef, type ReactNode } from 'react';
import { holeId, holeIndex, type GridRow } from '../replay-hole-rows';
import { HoleRow } from './HoleRow';
import { useHoleJump, type HoleJump } from './use-hole-jump';

export interface HoleGridOptions {
  readonly rowHeight: number;
  readonly overscan: number;
  /** Header lines above the rows, for the rows' `aria-rowindex`. */
  readonly headerRows: number;
  readonly jump: HoleJump | null;
}

export function useHoleGrid<T>(rows: readonly GridRow<T>[], options: HoleGridOptions) {
  const { rowHeight, overscan, headerRows, jump } = options;
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan,
  });
  const indexOf = useCallback((id: string) => holeIndex(rows, id), [rows]);
  useHoleJump(jump, indexOf, virtualizer.scrollToIndex, scroller);
  const rowsInView = (draw: (row: T, at: VirtualItem) => ReactNode): ReactNode[] =>
    virtualizer.getVirtualItems().map((at) => {
      const gridRow = rows[at.index];
      if (!gridRow) return null;
      if (gridRow.kind === 'entry') return draw(gridRow.row, at);
      return (
        <HoleRow
          key={holeId(gridRow.hole)}
          hole={gridRow.hole}
          at={at}
          headerRows={headerRows}
          measure={virtualizer.measureElement}
        />
      );
    });
  return { scroller, virtualizer, rowsInView };
}
