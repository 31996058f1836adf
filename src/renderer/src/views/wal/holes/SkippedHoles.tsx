/**
 * The skipped-damage notice of a replay or a search: how many damaged segments were skipped,
 * each named (region, ids, object, the check that failed and the decoder's reason) with a jump
 * to its row in the table. A replay keeps only its newest holes; the notice says when the count
 * is more than it lists.
 */
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import { formatEntryId, formatRegionId } from '../../../../../shared/id-notation';
import { counted } from '../../../../../shared/plural';
import { holeId, holeWords } from '../replay-hole-rows';
import { formatCount } from '../../format';

export function SkippedHoles({
  count,
  holes,
  onJump,
}: {
  /** Segments skipped in all, listed or not. */
  count: number;
  holes: readonly ReplayHoleView[];
  onJump: (hole: ReplayHoleView) => void;
}) {
  if (count === 0 && holes.length === 0) return null;
  const total = Math.max(count, holes.length);
  const listed = holes.length < total ? ` (the newest ${formatCount(holes.length)} listed)` : '';
  return (
    <section aria-label="Damaged segments skipped" className="wal-holes small wal-warn">
      <p>
        {counted(total, 'damaged segment')} skipped{listed}:
      </p>
      <ul className="wal-damage-list">
        {holes.map((hole) => (
          <li key={holeId(hole)}>
            {holeWords(hole)}{' '}
            <button
              type="button"
              className="link"
              aria-label={`Go to the hole of region ${formatRegionId(hole.regionId)} ids ${formatEntryId(hole.firstId)}–${formatEntryId(hole.lastId)}`}
              onClick={() => onJump(hole)}
            >
              Go to row
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
