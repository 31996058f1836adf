/**
 * The in-memory catalog of one WAL prefix (wal.md, "Catalog and recovery"): the indexed
 * objects by sequence, and per region the objects holding it with their id ranges, its
 * durable (latest indexed) id, its obsolete watermark and the holes reads met. It enforces
 * the catalog's rules - objects indexed in strictly ascending sequence, one segment per
 * region per object, each region's ranges strictly increasing - and rejects a violation with
 * `ConflictingObject`, changing nothing. It never reads storage and never decides what to
 * index: recovery and the actor do.
 *
 * Memory: a catalog can hold hundreds of thousands of objects, so objects and segments live
 * in growable typed-array columns (48 B per object and 44 B per segment, doubled at
 * most by growth slack) instead of one JS object each. Sequences, positions, offsets and
 * lengths fit doubles exactly (< 2^53); epochs stay u64.
 */
import { ConflictingObjectError } from './errors';
import { isSeq, NO_ENTRY, positionOf, seqOf, type EntryId, type Seq } from './ids';
import { objectKey } from './keys';
import { formatRegionId, type RegionId } from './region-id';
import type { ObjectLink, SegmentIndex } from './format';
import { doubles, lowerBound, u32s, u64s } from './catalog-columns';
import { RegionState, type Hole, type RegionSummary } from './catalog-region';

export type { Hole, RegionSummary } from './catalog-region';

/** An object to index: its identity, size and footer (key derived from the prefix). */
export interface IndexableObject {
  readonly seq: Seq;
  readonly epoch: bigint;
  readonly link: ObjectLink | null;
  readonly size: number;
  readonly segments: readonly SegmentIndex[];
}

export interface CatalogObject extends IndexableObject {
  readonly key: string;
}

/** Where one region's entries lie in one object. */
export interface SegmentLocation extends SegmentIndex {
  readonly key: string;
  readonly seq: Seq;
}

/** True when `id` is an entry position (not 0) of the object `seq`. */
function isPositionOf(id: EntryId, seq: Seq): boolean {
  return seqOf(id) === seq && positionOf(id) >= 1n;
}

export class ObjectCatalog {
  // Not readonly only so that `adopt` can take another catalog's columns whole.
  private seq = doubles();
  private epoch = u64s();
  /** -1 when the object has no link. */
  private linkSeq = doubles();
  private linkEpoch = u64s();
  private size = doubles();
  /** Where each object's region ordinals start in `objectRegions` (they run to the next start). */
  private regionsStart = doubles();
  private objectRegions = u32s();
  private regionOrdinals = new Map<RegionId, number>();
  private regionStates: RegionState[] = [];
  private byteCount = 0;
  private watermarkChanges = 0;

  constructor(readonly prefix: string) {}

  get objectCount(): number {
    return this.seq.length;
  }

  /** Bytes of every indexed object. */
  get totalBytes(): number {
    return this.byteCount;
  }

  /** Sequence and epoch of the last indexed object, or null when none is. */
  tip(): ObjectLink | null {
    const last = this.seq.length - 1;
    return last < 0 ? null : { seq: BigInt(this.seq.at(last)), epoch: this.epoch.at(last) };
  }

  /**
   * Indexes one object after checking every rule; on a violation throws `ConflictingObject`
   * naming the key and the rule, and changes nothing.
   */
  index(object: IndexableObject): void {
    this.checkIndexable(object);
    const seq = Number(object.seq);
    this.seq.push(seq);
    this.epoch.push(object.epoch);
    this.linkSeq.push(object.link === null ? -1 : Number(object.link.seq));
    this.linkEpoch.push(object.link?.epoch ?? 0n);
    this.size.push(object.size);
    this.regionsStart.push(this.objectRegions.length);
    for (const segment of object.segments) {
      const ordinal = this.ordinalOf(segment.regionId);
      this.objectRegions.push(ordinal);
      this.stateAt(ordinal).add(seq, segment);
    }
    this.byteCount += object.size;
  }

  /**
   * Takes over the contents of `recovered`, a catalog of the same prefix built by a newer
   * recovery (a writer that re-opened itself): the holders of this object - readers, the
   * console - see the new chain without being told. Holes met by reads stay (in memory, as
   * ever). `recovered` must not be used afterwards.
   */
  adopt(recovered: ObjectCatalog): void {
    if (recovered.prefix !== this.prefix)
      throw new Error(`catalog of ${recovered.prefix} cannot replace one of ${this.prefix}`);
    const holes = this.regionStates.flatMap((state) => state.holes);
    this.seq = recovered.seq;
    this.epoch = recovered.epoch;
    this.linkSeq = recovered.linkSeq;
    this.linkEpoch = recovered.linkEpoch;
    this.size = recovered.size;
    this.regionsStart = recovered.regionsStart;
    this.objectRegions = recovered.objectRegions;
    this.regionOrdinals = recovered.regionOrdinals;
    this.regionStates = recovered.regionStates;
    this.byteCount = recovered.byteCount;
    this.watermarkChanges += 1;
    for (const hole of holes) this.recordHole(hole);
  }

  object(seq: Seq): CatalogObject | undefined {
    const i = this.indexOfSeq(seq);
    return i < 0 ? undefined : this.objectAt(i);
  }

  /** Every indexed object, ascending by sequence. */
  *objects(): IterableIterator<CatalogObject> {
    for (let i = 0; i < this.seq.length; i++) yield this.objectAt(i);
  }

  /**
   * The region's latest id: the larger of its largest indexed id and its watermark (0 if
   * neither). A recovery never indexes objects below the boundary, so a region GC collected
   * whole has no indexed id; its persisted watermark still names how far it went.
   */
  latestEntryId(region: RegionId): EntryId {
    const indexed = this.indexedEntryId(region);
    const watermark = this.watermark(region);
    return indexed > watermark ? indexed : watermark;
  }

  /** The largest id of the region this catalog indexed (0 if none), whatever the watermark. */
  indexedEntryId(region: RegionId): EntryId {
    return this.regionState(region)?.latestId ?? NO_ENTRY;
  }

  watermark(region: RegionId): EntryId {
    return this.regionState(region)?.watermark ?? NO_ENTRY;
  }

  /**
   * Moves whenever any watermark may have changed (a raise, an adopt), so a reader that hides
   * ids per entry looks a watermark up again only then, not once per entry.
   */
  get watermarkVersion(): number {
    return this.watermarkChanges;
  }

  /** Raises the region's watermark to `id` (never lowers it); returns the watermark now in force. */
  raiseWatermark(region: RegionId, id: EntryId): EntryId {
    const state = this.stateAt(this.ordinalOf(region));
    if (id > state.watermark) {
      state.watermark = id;
      this.watermarkChanges += 1;
    }
    return state.watermark;
  }

  /**
   * The region's segments that hold ids >= `fromId`, in sequence order, at most `limit` of
   * them. A reader pages with `fromId = last.lastId + 1`, which stays right across GC.
   */
  objectsForRegion(
    region: RegionId,
    fromId: EntryId,
    limit = Number.POSITIVE_INFINITY,
  ): SegmentLocation[] {
    const state = this.regionState(region);
    if (state === undefined) return [];
    const from = fromId < 0n ? 0n : fromId;
    const fromSeq = Number(seqOf(from));
    const fromPosition = Number(positionOf(from));
    const start = lowerBound(state.seq.length, (i) => {
      const seq = state.seq.at(i);
      return seq < fromSeq || (seq === fromSeq && state.lastPosition.at(i) < fromPosition);
    });
    const found: SegmentLocation[] = [];
    for (let i = start; i < state.seq.length && found.length < limit; i++) {
      const seq = BigInt(state.seq.at(i));
      found.push({ ...state.segmentAt(i), key: objectKey(this.prefix, seq), seq });
    }
    return found;
  }

  /** Records a hole met by a read; a segment met twice counts once. Returns whether it was new. */
  recordHole(hole: Hole): boolean {
    const state = this.stateAt(this.ordinalOf(hole.regionId));
    if (state.holes.some((known) => known.seq === hole.seq)) return false;
    state.holes.push(hole);
    return true;
  }

  holes(region: RegionId): readonly Hole[] {
    return this.regionState(region)?.holes ?? [];
  }

  region(region: RegionId): RegionSummary | undefined {
    return this.regionState(region)?.summary();
  }

  /** Every region the catalog knows (by an entry, a watermark or a hole), by region id. */
  regions(): RegionSummary[] {
    return this.regionStates
      .map((state) => state.summary())
      .sort((a, b) => (a.regionId < b.regionId ? -1 : 1));
  }

  /**
   * Forgets the objects below `seq` (collected by GC). Latest ids, watermarks and holes stay.
   * Returns how many objects and bytes were dropped.
   */
  dropBelow(seq: Seq): { objects: number; bytes: number } {
    const boundary = Number(seq);
    const n = lowerBound(this.seq.length, (i) => this.seq.at(i) < boundary);
    if (n === 0) return { objects: 0, bytes: 0 };
    let bytes = 0;
    for (let i = 0; i < n; i++) bytes += this.size.at(i);
    const regionsDropped =
      n < this.seq.length ? this.regionsStart.at(n) : this.objectRegions.length;
    for (const column of [this.seq, this.linkSeq, this.size, this.regionsStart])
      column.dropFront(n);
    for (const column of [this.epoch, this.linkEpoch]) column.dropFront(n);
    this.objectRegions.dropFront(regionsDropped);
    this.regionsStart.update((start) => start - regionsDropped);
    for (const state of this.regionStates) state.dropBelow(boundary);
    this.byteCount -= bytes;
    return { objects: n, bytes };
  }

  /**
   * Every rule `index` enforces, in order. Recovery indexes every object of a chain through
   * here, so nothing is formatted (key, region) and no closure made unless a rule is broken.
   */
  private checkIndexable(object: IndexableObject): void {
    const seq = object.seq;
    if (!isSeq(seq)) throw this.conflict(seq, 'its sequence is outside 0..2^44-1');
    const last = this.seq.length - 1;
    if (last >= 0 && Number(seq) <= this.seq.at(last)) {
      throw this.conflict(
        seq,
        this.indexOfSeq(seq) >= 0
          ? 'its sequence is already indexed'
          : `its sequence is below the indexed tip ${this.seq.at(last)}`,
      );
    }
    if (!Number.isSafeInteger(object.size) || object.size < 0)
      throw this.conflict(seq, `its size ${object.size} is not a byte count`);
    let previous: RegionId | null = null;
    for (const segment of object.segments) {
      const regionId = segment.regionId;
      if (previous !== null && regionId <= previous) {
        throw this.conflict(
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
        throw this.conflict(
          seq,
          `ids ${segment.firstId}..${segment.lastId} of region ${formatRegionId(regionId)} are not positions of the object's sequence`,
        );
      }
      const latest = this.indexedEntryId(regionId);
      if (segment.firstId <= latest)
        throw this.conflict(
          seq,
          `ids of region ${formatRegionId(regionId)} do not increase: ${segment.firstId} after ${latest}`,
        );
    }
  }

  private conflict(seq: Seq, reason: string): ConflictingObjectError {
    return new ConflictingObjectError(objectKey(this.prefix, seq), reason);
  }

  private indexOfSeq(seq: Seq): number {
    const target = Number(seq);
    const i = lowerBound(this.seq.length, (j) => this.seq.at(j) < target);
    return i < this.seq.length && this.seq.at(i) === target ? i : -1;
  }

  private objectAt(i: number): CatalogObject {
    const seq = BigInt(this.seq.at(i));
    const linkSeq = this.linkSeq.at(i);
    const end = i + 1 < this.seq.length ? this.regionsStart.at(i + 1) : this.objectRegions.length;
    const segments: SegmentIndex[] = [];
    for (let r = this.regionsStart.at(i); r < end; r++) {
      const state = this.stateAt(this.objectRegions.at(r));
      segments.push(state.segmentAt(state.indexOfSeq(this.seq.at(i))));
    }
    return {
      key: objectKey(this.prefix, seq),
      seq,
      epoch: this.epoch.at(i),
      link: linkSeq < 0 ? null : { seq: BigInt(linkSeq), epoch: this.linkEpoch.at(i) },
      size: this.size.at(i),
      segments,
    };
  }

  private regionState(region: RegionId): RegionState | undefined {
    const ordinal = this.regionOrdinals.get(region);
    return ordinal === undefined ? undefined : this.regionStates[ordinal];
  }

  private ordinalOf(region: RegionId): number {
    let ordinal = this.regionOrdinals.get(region);
    if (ordinal === undefined) {
      ordinal = this.regionStates.length;
      this.regionStates.push(new RegionState(region));
      this.regionOrdinals.set(region, ordinal);
    }
    return ordinal;
  }

  private stateAt(ordinal: number): RegionState {
    const state = this.regionStates[ordinal];
    if (state === undefined) throw new Error(`catalog region ordinal ${ordinal} is unknown`);
    return state;
  }
}
