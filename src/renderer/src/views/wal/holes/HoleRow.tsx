/**
 * One hole row of a virtualized table (Replay's entries and rows, Search's hits): the whole
 * text of the damaged segment skipped, wrapped over as many lines as it needs (its height is
 * measured, not assumed), and focusable so the keyboard reaches it and a jump can land on it.
 */
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import { holeId, holeText } from '../replay-hole-rows';

export function HoleRow({
  hole,
  at,
  headerRows,
  measure,
}: {
  hole: ReplayHoleView;
  /**
   * Its place in the virtualizer: the index it measures the row's height by, and the offset
   * of a row the virtualizer places (absolute); without one the row sits in the flow.
   */
  at: { readonly index: number; readonly start?: number };
  /** Header rows above the body, for the row's `aria-rowindex`. */
  headerRows: number;
  measure: (element: HTMLElement | null) => void;
}) {
  const positioned = at.start !== undefined;
  return (
    <div
      ref={measure}
      data-index={at.index}
      data-hole={holeId(hole)}
      role="row"
      aria-rowindex={at.index + headerRows + 1}
      aria-label="Hole"
      tabIndex={0}
      className={positioned ? 'virtual-row wal-hole-row' : 'wal-hole-row'}
      style={positioned ? { transform: `translateY(${at.start}px)` } : undefined}
    >
      <span role="gridcell">{holeText(hole)}</span>
    </div>
  );
}
