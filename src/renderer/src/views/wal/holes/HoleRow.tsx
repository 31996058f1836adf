/**
 * One hole row of a virtualized table (Replay's entries and rows, Search's hits): the whole
 * text of the damaged segment skipped, wrapped over as many lines as it needs (its height is
 * measured, not assumed), and focusable so the keyboard reaches it and a jump can land on it.
 */
import type { CSSProperties } from 'react';
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import { holeId, holeText } from '../replay-hole-rows';

export function HoleRow({
  hole,
  rowIndex,
  virtualIndex,
  measure,
  style,
  positioned,
}: {
  hole: ReplayHoleView;
  /** The row's `aria-rowindex` (1-based, header rows counted). */
  rowIndex: number;
  /** Its index in the virtualizer, which measures the row's height from the element. */
  virtualIndex: number;
  measure: (element: HTMLElement | null) => void;
  style?: CSSProperties;
  /** Placed by the virtualizer (absolute), or in the flow between padding spacers. */
  positioned: boolean;
}) {
  return (
    <div
      ref={measure}
      data-index={virtualIndex}
      data-hole={holeId(hole)}
      role="row"
      aria-rowindex={rowIndex}
      aria-label="Hole"
      tabIndex={0}
      className={positioned ? 'virtual-row wal-hole-row' : 'wal-hole-row'}
      style={style}
    >
      <span role="gridcell">{holeText(hole)}</span>
    </div>
  );
}
