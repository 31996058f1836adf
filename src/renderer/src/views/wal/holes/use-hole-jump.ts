/**
 * A jump to a hole row of a virtualized table: scrolls the row into view and focuses it once
 * the virtualizer has put it in the page (a few frames at most), so the keyboard carries on
 * from the hole. Each jump is handled once; jumping to the same hole again counts anew.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import { holeId } from '../replay-hole-rows';

export interface HoleJump {
  /** The hole's `holeId`. */
  readonly id: string;
  /** Bumped by every click, so a second jump to the same hole is a new one. */
  readonly count: number;
}

/** The jump a skipped-damage notice asks of its table, and the function the notice calls. */
export function useHoleJumps(): [HoleJump | null, (hole: ReplayHoleView) => void] {
  const [jump, setJump] = useState<HoleJump | null>(null);
  const jumpTo = useCallback(
    (hole: ReplayHoleView) =>
      setJump((previous) => ({ id: holeId(hole), count: (previous?.count ?? 0) + 1 })),
    [],
  );
  return [jump, jumpTo];
}

/** Frames to wait for the row to be rendered after the scroll (a long list settles in 2-3). */
const FRAMES = 30;

export function useHoleJump(
  jump: HoleJump | null,
  indexOf: (id: string) => number,
  /** The virtualizer's: the row is brought to the middle of the list. */
  scrollToIndex: (index: number, options: { align: 'center' }) => void,
  scroller: RefObject<HTMLElement | null>,
): void {
  const handled = useRef<HoleJump | null>(null);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  // Runs again as rows arrive (indexOf changes with them) until the jump's hole is among them.
  useEffect(() => {
    if (jump === null || handled.current === jump) return;
    const index = indexOf(jump.id);
    if (index < 0) return;
    handled.current = jump;
    scrollToIndex(index, { align: 'center' });
    cancelAnimationFrame(frame.current);
    let frames = 0;
    const focusWhenShown = () => {
      const row = scroller.current?.querySelector<HTMLElement>(
        `[data-hole="${CSS.escape(jump.id)}"]`,
      );
      if (row) row.focus();
      else if (++frames < FRAMES) frame.current = requestAnimationFrame(focusWhenShown);
    };
    frame.current = requestAnimationFrame(focusWhenShown);
  }, [jump, indexOf, scrollToIndex, scroller]);
}
