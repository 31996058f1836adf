/**
 * Why a collection boundary stops where it does (control.md point 5): the first chain object
 * not wholly at or below its regions' persisted watermarks, and the regions of it that hold
 * entries above their watermark - with those watermarks, so an operator sees which obsolete
 * would let the boundary move. Pure: it judges the same chain and watermarks the boundary
 * rule does (`collectionBoundary`) and decides nothing.
 */
import type { EntryId, Seq } from '../ids';
import type { RegionId } from '../region-id';
import type { CollectableObject } from './plan';

export interface HoldingRegion {
  readonly regionId: RegionId;
  /** The region's persisted watermark (0 when it has none). */
  readonly watermark: EntryId;
  /** The region's last id in the holding object: what is still above the watermark. */
  readonly lastId: EntryId;
}

export interface HeldBack {
  /** The object the boundary stops at (the lowest one still needed). */
  readonly seq: Seq;
  /** Its regions with entries above their watermark, by region id. */
  readonly regions: readonly HoldingRegion[];
  /** Every object is wholly obsolete: only the tip rule holds the boundary (the next open links its start object to the tip). */
  readonly tipOnly: boolean;
}

/**
 * What holds the boundary of `chain` (ascending, its last object the tip) back, or null when
 * the chain is empty. The object named is the one `collectionBoundary` stops at.
 */
export function heldBackBy(
  chain: Iterable<CollectableObject>,
  watermarks: ReadonlyMap<RegionId, EntryId>,
): HeldBack | null {
  let last: CollectableObject | null = null;
  for (const object of chain) {
    last = object;
    const regions = object.segments
      .filter((segment) => segment.lastId > (watermarks.get(segment.regionId) ?? 0n))
      .map((segment) => ({
        regionId: segment.regionId,
        watermark: watermarks.get(segment.regionId) ?? 0n,
        lastId: segment.lastId,
      }))
      .sort((a, b) => (a.regionId < b.regionId ? -1 : a.regionId > b.regionId ? 1 : 0));
    if (regions.length > 0) return { seq: object.seq, regions, tipOnly: false };
  }
  // Every object wholly obsolete: only the tip rule holds the boundary.
  return last === null ? null : { seq: last.seq, regions: [], tipOnly: true };
}
