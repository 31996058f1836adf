/**
 * One region of the catalog (see catalog.ts): its segments in sequence order, its latest and
 * watermark ids and the holes reads met. It keeps no rule of its own: the catalog checks an
 * object before any region takes its segment. Owns the types of what a region reports
 * (`RegionSummary`, `Hole`), which the catalog passes on.
 *
 * A region's segments are two columns, not one per field - doubles (sequence, offset, length)
 * and u32s (first and last position, entries, CRC), 40 B a segment: an object of 300,000
 * regions makes 300,000 of these, and each column is an array the collector tracks (seven a
 * region made indexing such an object spend seconds collecting).
 */
import { doubles, lowerBound, u32s } from './catalog-columns';
import type { SegmentIndex } from './format';
import { NO_ENTRY, POSITION_BITS, positionOf, type EntryId, type Seq } from './ids';
import type { RegionId } from './region-id';

/** A segment a read could not use (`onCorruptedSegment: skip`): its ids are missing. */
export interface Hole {
  readonly regionId: RegionId;
  readonly key: string;
  readonly seq: Seq;
  readonly firstId: EntryId;
  readonly lastId: EntryId;
}

export interface RegionSummary {
  readonly regionId: RegionId;
  /** Entries in the objects still indexed. */
  readonly entries: number;
  /** First id still indexed, 0 if none. */
  readonly firstId: EntryId;
  /** The region's latest id: the larger of the largest id ever indexed (kept when GC drops
   * its object) and the watermark, so a wholly collected region never reports 0 (or any id)
   * below its own watermark. 0 if neither. */
  readonly latestId: EntryId;
  readonly watermark: EntryId;
  readonly objects: number;
  readonly bytes: number;
  readonly holes: number;
}

const idOf = (seq: number, position: number): EntryId =>
  (BigInt(seq) << POSITION_BITS) | BigInt(position);

/** A segment's fields in the region's doubles, in this order. */
const SEQ = 0;
const OFFSET = 1;
const LENGTH = 2;
const WIDE = 3;
/** ... and in its u32s. */
const FIRST_POSITION = 0;
const LAST_POSITION = 1;
const ENTRIES = 2;
const CRC = 3;
const NARROW = 4;

/** One region: its segments in sequence order, and what the store tracks about it. */
export class RegionState {
  /** Sequences, offsets and lengths (exact as doubles below 2^53). */
  private readonly wide = doubles();
  /** Positions, entry counts and CRCs. */
  private readonly narrow = u32s();
  latestId: EntryId = NO_ENTRY;
  watermark: EntryId = NO_ENTRY;
  entryCount = 0;
  byteCount = 0;
  readonly holes: Hole[] = [];

  constructor(readonly regionId: RegionId) {}

  /** Segments held: one per object the region is in. */
  get length(): number {
    return this.wide.length / WIDE;
  }

  /** The sequence of the object holding segment `i`. */
  seqAt(i: number): number {
    return this.wide.at(i * WIDE + SEQ);
  }

  lastPositionAt(i: number): number {
    return this.narrow.at(i * NARROW + LAST_POSITION);
  }

  add(seq: number, segment: SegmentIndex): void {
    this.wide.push(seq);
    this.wide.push(segment.offset);
    this.wide.push(segment.length);
    this.narrow.push(Number(positionOf(segment.firstId)));
    this.narrow.push(Number(positionOf(segment.lastId)));
    this.narrow.push(segment.entries);
    this.narrow.push(segment.segmentCrc);
    this.latestId = segment.lastId;
    this.entryCount += segment.entries;
    this.byteCount += segment.length;
  }

  segmentAt(i: number): SegmentIndex {
    const wide = i * WIDE;
    const narrow = i * NARROW;
    const seq = this.wide.at(wide + SEQ);
    return {
      regionId: this.regionId,
      firstId: idOf(seq, this.narrow.at(narrow + FIRST_POSITION)),
      lastId: idOf(seq, this.narrow.at(narrow + LAST_POSITION)),
      entries: this.narrow.at(narrow + ENTRIES),
      offset: this.wide.at(wide + OFFSET),
      length: this.wide.at(wide + LENGTH),
      segmentCrc: this.narrow.at(narrow + CRC),
    };
  }

  /** Index of this region's segment in object `seq`, or -1. */
  indexOfSeq(seq: number): number {
    const i = lowerBound(this.length, (j) => this.seqAt(j) < seq);
    return i < this.length && this.seqAt(i) === seq ? i : -1;
  }

  dropBelow(seq: number): void {
    const n = lowerBound(this.length, (j) => this.seqAt(j) < seq);
    for (let i = 0; i < n; i++) {
      this.entryCount -= this.narrow.at(i * NARROW + ENTRIES);
      this.byteCount -= this.wide.at(i * WIDE + LENGTH);
    }
    this.wide.dropFront(n * WIDE);
    this.narrow.dropFront(n * NARROW);
  }

  summary(): RegionSummary {
    const held = this.length;
    return {
      regionId: this.regionId,
      entries: this.entryCount,
      firstId: held === 0 ? NO_ENTRY : idOf(this.seqAt(0), this.narrow.at(FIRST_POSITION)),
      latestId: this.latestId > this.watermark ? this.latestId : this.watermark,
      watermark: this.watermark,
      objects: held,
      bytes: this.byteCount,
      holes: this.holes.length,
    };
  }
}
