/**
 * One region of the catalog (see catalog.ts): its segments in sequence order as typed-array
 * columns, its latest and watermark ids and the holes reads met. It keeps no rule of its own:
 * the catalog checks an object before any region takes its segment. Owns the types of what a
 * region reports (`RegionSummary`, `Hole`), which the catalog passes on.
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

/** One region: its segments in sequence order, and what the store tracks about it. */
export class RegionState {
  readonly seq = doubles();
  readonly firstPosition = u32s();
  readonly lastPosition = u32s();
  readonly entries = u32s();
  readonly offset = doubles();
  readonly length = doubles();
  readonly crc = u32s();
  latestId: EntryId = NO_ENTRY;
  watermark: EntryId = NO_ENTRY;
  entryCount = 0;
  byteCount = 0;
  readonly holes: Hole[] = [];

  constructor(readonly regionId: RegionId) {}

  add(seq: number, segment: SegmentIndex): void {
    this.seq.push(seq);
    this.firstPosition.push(Number(positionOf(segment.firstId)));
    this.lastPosition.push(Number(positionOf(segment.lastId)));
    this.entries.push(segment.entries);
    this.offset.push(segment.offset);
    this.length.push(segment.length);
    this.crc.push(segment.segmentCrc);
    this.latestId = segment.lastId;
    this.entryCount += segment.entries;
    this.byteCount += segment.length;
  }

  segmentAt(i: number): SegmentIndex {
    const seq = this.seq.at(i);
    return {
      regionId: this.regionId,
      firstId: idOf(seq, this.firstPosition.at(i)),
      lastId: idOf(seq, this.lastPosition.at(i)),
      entries: this.entries.at(i),
      offset: this.offset.at(i),
      length: this.length.at(i),
      segmentCrc: this.crc.at(i),
    };
  }

  /** Index of this region's segment in object `seq`, or -1. */
  indexOfSeq(seq: number): number {
    const i = lowerBound(this.seq.length, (j) => this.seq.at(j) < seq);
    return i < this.seq.length && this.seq.at(i) === seq ? i : -1;
  }

  dropBelow(seq: number): void {
    const n = lowerBound(this.seq.length, (j) => this.seq.at(j) < seq);
    for (let i = 0; i < n; i++) {
      this.entryCount -= this.entries.at(i);
      this.byteCount -= this.length.at(i);
    }
    for (const column of [
      this.seq,
      this.firstPosition,
      this.lastPosition,
      this.entries,
      this.offset,
      this.length,
      this.crc,
    ]) {
      column.dropFront(n);
    }
  }

  summary(): RegionSummary {
    return {
      regionId: this.regionId,
      entries: this.entryCount,
      firstId: this.seq.length === 0 ? NO_ENTRY : idOf(this.seq.at(0), this.firstPosition.at(0)),
      latestId: this.latestId > this.watermark ? this.latestId : this.watermark,
      watermark: this.watermark,
      objects: this.seq.length,
      bytes: this.byteCount,
      holes: this.holes.length,
    };
  }
}
