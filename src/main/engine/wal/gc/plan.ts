/**
 * What a garbage-collection pass decides (control.md, Protocol point 5), as pure functions:
 * - the new collection boundary: the lowest sequence still needed, i.e. the first object of
 *   the chain that is not wholly at or below its regions' persisted watermarks - never above
 *   the tip, never below the boundary already in force;
 * - the delete list: every listed object below that boundary, chain or orphan, ascending by
 *   sequence, with the bytes it frees.
 * Never touches storage and never decides who may collect: the pass (`run`) proves it holds
 * the epoch by CASing the boundary before it deletes anything.
 */
import type { EntryId, Seq } from '../ids';
import type { RegionId } from '../region-id';

/** What the boundary rule needs of a chain object: its sequence and each region's last id. */
export interface CollectableObject {
  readonly seq: Seq;
  readonly segments: ReadonlyArray<{ readonly regionId: RegionId; readonly lastId: EntryId }>;
}

/** A listed object: enough to delete it and count the bytes. */
export interface ListedWalObject {
  readonly key: string;
  readonly seq: Seq;
  readonly size: number;
}

export interface CollectionPlan {
  /** The boundary the pass CASes (at least the one in force). */
  readonly boundary: Seq;
  /** Every listed object below `boundary`, ascending by sequence. */
  readonly deletes: readonly ListedWalObject[];
  /** Bytes the deletes free. */
  readonly bytes: number;
}

/** Whether every entry of the object is at or below its region's persisted watermark. */
export function isWhollyObsolete(
  object: CollectableObject,
  watermarks: ReadonlyMap<RegionId, EntryId>,
): boolean {
  return object.segments.every(
    (segment) => segment.lastId <= (watermarks.get(segment.regionId) ?? 0n),
  );
}

/**
 * The lowest sequence still needed. `chain` is the chain in ascending order, its last object
 * the tip (the catalog, or recovery's selection); an empty chain keeps `current`. A boundary
 * never falls (a pass that judged from an older state must not undo a newer one) and never
 * passes the tip: the tip is what the next open links its start object to.
 */
export function collectionBoundary(
  chain: Iterable<CollectableObject>,
  watermarks: ReadonlyMap<RegionId, EntryId>,
  current: Seq,
): Seq {
  let needed: Seq | null = null;
  for (const object of chain) {
    needed = object.seq;
    if (!isWhollyObsolete(object, watermarks)) break;
  }
  return needed !== null && needed > current ? needed : current;
}

/** The delete list for `boundary`: listed objects below it, ascending, and their bytes. */
export function planDeletes(listed: Iterable<ListedWalObject>, boundary: Seq): CollectionPlan {
  const deletes = [...listed]
    .filter((object) => object.seq < boundary)
    .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const bytes = deletes.reduce((sum, object) => sum + object.size, 0);
  return { boundary, deletes, bytes };
}
