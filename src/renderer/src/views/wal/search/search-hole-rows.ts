/**
 * The Search view's hole rows: a damaged segment skipped sits in the hits table where the
 * search met it (after the hits found before it), without copying the hits - the table asks
 * for a row by its index and gets a hit or a hole. Holes are few and met in order. Pure.
 */
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import type { SearchHit } from '../../../../../shared/search/search-hits';
import { holeId, type GridRow } from '../replay-hole-rows';

/** A hole and how many hits had been found when the search met it. */
export interface MetHole {
  readonly hole: ReplayHoleView;
  readonly afterHits: number;
}

/** The table's row at `index` (hits and holes together), undefined past the end. */
export function searchRowAt(
  index: number,
  hits: readonly SearchHit[],
  holes: readonly MetHole[],
): GridRow<SearchHit> | undefined {
  let holesBefore = 0;
  for (const met of holes) {
    const at = met.afterHits + holesBefore;
    if (at === index) return { kind: 'hole', hole: met.hole };
    if (at > index) break;
    holesBefore += 1;
  }
  const hit = hits[index - holesBefore];
  return hit === undefined ? undefined : { kind: 'entry', row: hit };
}

/** The row index of the hole `id` names, -1 when it is not among `holes`. */
export function searchHoleIndex(holes: readonly MetHole[], id: string): number {
  const at = holes.findIndex((met) => holeId(met.hole) === id);
  return at < 0 ? -1 : (holes[at]?.afterHits ?? 0) + at;
}
