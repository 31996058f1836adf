/**
 * The head of a rows grid (`rows.css`), the layout Replay's rows and Search's hits share: one
 * column template for the header lines and every row, the table as wide as its columns, and
 * the header lines kept in view above the rows as they scroll.
 */
import type { ReactNode } from 'react';

export interface RowsGrid {
  /** `grid-template-columns` of every line. */
  readonly template: string;
  /** Every column with its 10 px gap, and 20 px of edge. */
  readonly width: number;
}

export function rowsGrid(widths: readonly number[]): RowsGrid {
  return {
    template: widths.map((width) => `${width}px`).join(' '),
    width: widths.reduce((sum, width) => sum + width + 10, 20),
  };
}

export function RowsGridHead({ grid, children }: { grid: RowsGrid; children: ReactNode }) {
  return (
    <div className="rows-head" style={{ width: grid.width }}>
      {children}
    </div>
  );
}

/** One header line; `rowIndex` counts from 1, as `aria-rowindex` does. */
export function RowsHeadLine({
  grid,
  rowIndex,
  children,
}: {
  grid: RowsGrid;
  rowIndex: number;
  children: ReactNode;
}) {
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      className="rows-line"
      style={{ gridTemplateColumns: grid.template }}
    >
      {children}
    </div>
  );
}
