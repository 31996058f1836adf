/**
 * The rules the catalog (catalog.ts) checks before it indexes an object: a sequence in range
 * and above the indexed tip, a byte count for a size, segments sorted by region with each
 * region once, ids that are positions of the object's sequence and that increase per region.
 * Pure checks over what the catalog tells of itself; a broken rule is thrown as the
 * catalog's `ConflictingObject`, and nothing is changed.
 */
import type { ConflictingObjectError } from './errors';
import type { SegmentIndex } from './format';
import { isSeq, positionOf, seqOf, type EntryId, type Seq } from './ids';
import { formatRegionId, type RegionId } from './region-id';

/** What the rules need to know of the catalog. */
export interface IndexedSoFar {
  isIndexed(seq: Seq): boolean;
  /** The largest id of the region indexed so far (0 if none). */
  indexedEntryId(region: RegionId): EntryId;
  conflict(seq: Seq, reason: string): ConflictingObjectError;
}

/** True when `id` is an entry position (not 0) of the object `seq`. */
function isPositionOf(id: EntryId, seq: Seq): boolean {
  return seqOf(id) === seq && positionOf(id) >= 1n;
}

/** The object's own rules: its sequence above the tip (`tipSeq`, null when none), its size a byte count. */
export function checkObjectRules(
  object: { readonly seq: Seq; readonly size: number },
  tipSeq: number | null,
  catalog: IndexedSoFar,
): void {
  const seq = object.seq;
  if (!isSeq(seq)) throw catalog.conflict(seq, 'its sequence is outside 0..2^44-1');
  if (tipSeq !== null && Number(seq) <= tipSeq) {
    throw catalog.conflict(
      seq,
      catalog.isIndexed(seq)
        ? 'its sequence is already indexed'
        : `its sequence is below the indexed tip ${tipSeq}`,
    );
  }
  if (!Number.isSafeInteger(object.size) || object.size < 0)
    throw catalog.conflict(seq, `its size ${object.size} is not a byte count`);
}

/**
 * The rules of segments `from`..`to` of object `seq` (the region before `from` is
 * `previous`); returns the last region checked.
 */
export function checkSegmentRules(
  seq: Seq,
  segments: readonly SegmentIndex[],
  from: number,
  to: number,
  previous: RegionId | null,
  catalog: IndexedSoFar,
): RegionId | null {
  for (let at = from; at < to; at++) {
    const segment = segments[at] as SegmentIndex;
    const regionId = segment.regionId;
    if (previous !== null && regionId <= previous) {
      throw catalog.conflict(
        seq,
        regionId === previous
          ? `it holds region ${formatRegionId(regionId)} twice`
          : 'its segments are not sorted by region',
      );
    }
    previous = regionId;
    if (
      !isPositionOf(segment.firstId, seq) ||
      !isPositionOf(segment.lastId, seq) ||
      segment.firstId > segment.lastId ||
      segment.entries < 1
    ) {
      throw catalog.conflict(
        seq,
        `ids ${segment.firstId}..${segment.lastId} of region ${formatRegionId(regionId)} are not positions of the object's sequence`,
      );
    }
    const latest = catalog.indexedEntryId(regionId);
    if (segment.firstId <= latest)
      throw catalog.conflict(
        seq,
        `ids of region ${formatRegionId(regionId)} do not increase: ${segment.firstId} after ${latest}`,
      );
  }
  return previous;
}
