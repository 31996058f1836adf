/**
 * One region of the catalog (see catalog.ts): its segments in sequence order, its latest and
 * watermark ids and the holes reads met. It keeps no rule of its own: the catalog checks an
 * object before any region takes its segment.
 *
 * A region's segments are one column of doubles, seven to a segment, not a column per field:
 * an object of 300,000 regions makes 300,000 of these, and each column is an array the
 * collector tracks (seven a region made indexing such an object spend seconds collecting).
 */
import { doubles, lowerBound } from './catalog-columns';
import type { Hole, RegionSummary } from './catalog';
import type { SegmentIndex } from './format';
import { NO_ENTRY, POSITION_BITS, positionOf, type EntryId } from './ids';
import type { RegionId } from './region-id';

const idOf = (seq: number, position: number): EntryId =>
  (BigInt(seq) << POSITION_BITS) | BigInt(position);

/** A segment's fields in the region's column, in this order. */
const SEQ = 0;
const FIRST_POSITION = 1;
const LAST_POSITION = 2;
const ENTRIES = 3;
const OFFSET = 4;
const LENGTH = 5;
const CRC = 6;
const STRIDE = 7;

/** One region: its segments in sequence order, and what the store tracks about it. */
export class RegionState {
  /** Every field of every segment: sequences, positions, offsets and lengths fit doubles. */
  private readonly fields = doubles();
  latestId: EntryId = NO_ENTRY;
  watermark: EntryId = NO_ENTRY;
  entryCount = 0;
  byteCount = 0;
  readonly holes: Hole[] = [];

  constructor(readonly regionId: RegionId) {}

  /** Segments held: one per object the region is in. */
  get length(): number {
    return this.fields.length / STRIDE;
  }

  /** The sequence of the object holding segment `i`. */
  seqAt(i: number): number {
    return this.fields.at(i * STRIDE + SEQ);
  }

  lastPositionAt(i: number): number {
    return this.fields.at(i * STRIDE + LAST_POSITION);
  }

  add(seq: number, segment: SegmentIndex): void {
    const fields = this.fields;
    fields.push(seq);
    fields.push(Number(positionOf(segment.firstId)));
    fields.push(Number(positionOf(segment.lastId)));
    fields.push(segment.entries);
    fields.push(segment.offset);
    fields.push(segment.length);
    fields.push(segment.segmentCrc);
    this.latestId = segment.lastId;
    this.entryCount += segment.entries;
    this.byteCount += segment.length;
  }

  segmentAt(i: number): SegmentIndex {
    const at = i * STRIDE;
    const seq = this.fields.at(at + SEQ);
    return {
      regionId: this.regionId,
      firstId: idOf(seq, this.fields.at(at + FIRST_POSITION)),
      lastId: idOf(seq, this.fields.at(at + LAST_POSITION)),
      entries: this.fields.at(at + ENTRIES),
      offset: this.fields.at(at + OFFSET),
      length: this.fields.at(at + LENGTH),
      segmentCrc: this.fields.at(at + CRC),
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
      this.entryCount -= this.fields.at(i * STRIDE + ENTRIES);
      this.byteCount -= this.fields.at(i * STRIDE + LENGTH);
    }
    this.fields.dropFront(n * STRIDE);
  }

  summary(): RegionSummary {
    const held = this.length;
    return {
      regionId: this.regionId,
      entries: this.entryCount,
      firstId: held === 0 ? NO_ENTRY : idOf(this.seqAt(0), this.fields.at(FIRST_POSITION)),
      latestId: this.latestId > this.watermark ? this.latestId : this.watermark,
      watermark: this.watermark,
      objects: held,
      bytes: this.byteCount,
      holes: this.holes.length,
    };
  }
}
