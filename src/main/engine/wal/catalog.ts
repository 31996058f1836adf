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
 * in growable typed-array columns (48 B per object and 40 B per segment, doubled at
 * most by growth slack) instead of one JS object each. Sequences, positions, offsets and
 * lengths fit doubles exactly (< 2^53); epochs stay u64.
 *
 * A recovery indexes into a catalog nobody else holds yet, and may give the event loop turns
 * while it does (`indexInSlices`): an object of 300,000 regions is checked and indexed in
 * slices.
 */
import { ConflictingObjectError } from './errors';
import { NO_ENTRY, positionOf, seqOf, type EntryId, type Seq } from './ids';
import { objectKey } from './keys';
import type { RegionId } from './region-id';
import type { ObjectLink, SegmentIndex } from './format';
import { doubles, lowerBound, u32s, u64s } from './catalog-columns';
import { RegionState, type Hole, type RegionSummary } from './catalog-region';
import { checkObjectRules, checkSegmentRules, type IndexedSoFar } from './catalog-rules';
import { mapInSlices, type Slicer } from '../slices';

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

/** Segments checked or added between two looks at the slicer. */
const SEGMENTS_PER_SLICE = 1_024;

const byRegionId = (a: RegionSummary, b: RegionSummary): number =>
  a.regionId < b.regionId ? -1 : 1;

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
    this.addObject(object);
    this.addSegments(object, 0, object.segments.length);
  }

  /**
   * `index`, with the event loop given a turn between slices of `slicer`'s size (one step a
   * segment, one an object): for a catalog no reader holds yet - a recovery's - which a
   * half-indexed object cannot confuse. A violation still changes nothing: every segment is
   * checked before any is added.
   */
  async indexInSlices(object: IndexableObject, slicer: Slicer): Promise<void> {
    const segments = object.segments;
    this.checkObject(object);
    let previous: RegionId | null = null;
    for (let from = 0; from < segments.length; from += SEGMENTS_PER_SLICE) {
      const to = Math.min(segments.length, from + SEGMENTS_PER_SLICE);
      previous = this.checkSegments(object.seq, segments, from, to, previous);
      if (slicer.due(to - from)) await slicer.turn();
    }
    this.addObject(object);
    for (let from = 0; from < segments.length; from += SEGMENTS_PER_SLICE) {
      const to = Math.min(segments.length, from + SEGMENTS_PER_SLICE);
      this.addSegments(object, from, to);
      if (slicer.due(to - from)) await slicer.turn();
    }
    if (slicer.due()) await slicer.turn();
  }

  private addObject(object: IndexableObject): void {
    this.seq.push(Number(object.seq));
    this.epoch.push(object.epoch);
    this.linkSeq.push(object.link === null ? -1 : Number(object.link.seq));
    this.linkEpoch.push(object.link?.epoch ?? 0n);
    this.size.push(object.size);
    this.regionsStart.push(this.objectRegions.length);
    this.byteCount += object.size;
  }

  private addSegments(object: IndexableObject, from: number, to: number): void {
    const seq = Number(object.seq);
    for (let at = from; at < to; at++) {
      const segment = object.segments[at] as SegmentIndex;
      const ordinal = this.ordinalOf(segment.regionId);
      this.objectRegions.push(ordinal);
      this.stateAt(ordinal).add(seq, segment);
    }
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
    const start = lowerBound(state.length, (i) => {
      const seq = state.seqAt(i);
      return seq < fromSeq || (seq === fromSeq && state.lastPositionAt(i) < fromPosition);
    });
    const found: SegmentLocation[] = [];
    for (let i = start; i < state.length && found.length < limit; i++) {
      const seq = BigInt(state.seqAt(i));
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
    return this.regionStates.map((state) => state.summary()).sort(byRegionId);
  }

  /** `regions()`, giving the event loop a turn between slices (a catalog of 300,000 regions). */
  async regionsInSlices(slicer: Slicer): Promise<RegionSummary[]> {
    return (await mapInSlices(this.regionStates, (state) => state.summary(), slicer)).sort(
      byRegionId,
    );
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
    this.checkObject(object);
    this.checkSegments(object.seq, object.segments, 0, object.segments.length, null);
  }

  private checkObject(object: IndexableObject): void {
    const last = this.seq.length - 1;
    checkObjectRules(object, last < 0 ? null : this.seq.at(last), this.rules);
  }

  private checkSegments(
    seq: Seq,
    segments: readonly SegmentIndex[],
    from: number,
    to: number,
    previous: RegionId | null,
  ): RegionId | null {
    return checkSegmentRules(seq, segments, from, to, previous, this.rules);
  }

  /** What the rules need to know of this catalog. */
  private readonly rules: IndexedSoFar = {
    isIndexed: (seq) => this.indexOfSeq(seq) >= 0,
    indexedEntryId: (region) => this.indexedEntryId(region),
    conflict: (seq, reason) => this.conflict(seq, reason),
  };

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
