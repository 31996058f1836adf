/**
 * Object format version 1, frozen once released (wal.md, "Object format"): the byte layout of
 * header, segments, footer and trailer, and the values decoded from them. All integers are
 * little-endian; every CRC is CRC32C. The golden fixture test pins these numbers: changing
 * any of them is a new format version, never an edit.
 *
 *   header  52 B  magic "CAIRNWAL" | version u16 | flags u16 | seq u64 | epoch u64 |
 *                 hasLink u32 | linkSeq u64 | linkEpoch u64 | headerCrc u32 (over 48 B)
 *   segments      one per region, by region id; records by entry id: id u64 | length u32 | bytes
 *   footer        count u32, then per segment regionId u64 | firstId u64 | lastId u64 |
 *                 entries u32 | offset u64 | length u64 | segmentCrc u32
 *   trailer 64 B  magic "CAIRNTRL" | seq u64 | epoch u64 | hasLink u32 | linkSeq u64 |
 *                 linkEpoch u64 | footerOffset u64 | footerLength u32 | footerCrc u32 |
 *                 trailerCrc u32 (over 60 B)
 */
import type { ByteRange } from '../../objectio/object-io';
import type { EntryId, Seq } from '../ids';
import type { RegionId } from '../region-id';

export const FORMAT_VERSION = 1;
export const FORMAT_FLAGS = 0;

export const HEADER_MAGIC = 'CAIRNWAL';
export const HEADER_MAGIC_BYTES: Uint8Array = new TextEncoder().encode(HEADER_MAGIC);
export const HEADER_BODY_SIZE = 48;
export const HEADER_SIZE = HEADER_BODY_SIZE + 4;
/** Byte offsets inside the header. */
export const HEADER_AT = {
  magic: 0,
  version: 8,
  flags: 10,
  seq: 12,
  epoch: 20,
  hasLink: 28,
  linkSeq: 32,
  linkEpoch: 40,
  crc: 48,
} as const;

export const RECORD_HEADER_SIZE = 12;

export const FOOTER_COUNT_SIZE = 4;
export const FOOTER_ENTRY_SIZE = 48;
/** Byte offsets inside one footer entry. */
export const FOOTER_ENTRY_AT = {
  regionId: 0,
  firstId: 8,
  lastId: 16,
  entries: 24,
  offset: 28,
  length: 36,
  segmentCrc: 44,
} as const;

export const TRAILER_MAGIC = 'CAIRNTRL';
export const TRAILER_MAGIC_BYTES: Uint8Array = new TextEncoder().encode(TRAILER_MAGIC);
export const TRAILER_BODY_SIZE = 60;
export const TRAILER_SIZE = TRAILER_BODY_SIZE + 4;
/** Byte offsets inside the trailer. */
export const TRAILER_AT = {
  magic: 0,
  seq: 8,
  epoch: 16,
  hasLink: 24,
  linkSeq: 28,
  linkEpoch: 36,
  footerOffset: 44,
  footerLength: 52,
  footerCrc: 56,
  crc: 60,
} as const;

/** The smallest object: a start object (header, an empty footer, trailer) = 120 bytes. */
export const MIN_OBJECT_SIZE = HEADER_SIZE + FOOTER_COUNT_SIZE + TRAILER_SIZE;
/** Recovery reads this suffix of each object, one range read (wal.md). */
export const TAIL_WINDOW_BYTES = 64 * 1024;

/** The predecessor an object names in the pipeline: its sequence and the epoch that wrote it. */
export interface ObjectLink {
  readonly seq: Seq;
  readonly epoch: bigint;
}

/** What header and trailer both say about an object. */
export interface ObjectIdentity {
  readonly seq: Seq;
  readonly epoch: bigint;
  readonly link: ObjectLink | null;
}

export interface ObjectHeader extends ObjectIdentity {
  readonly version: number;
  readonly flags: number;
}

export interface ObjectTrailer extends ObjectIdentity {
  readonly footerOffset: number;
  readonly footerLength: number;
  readonly footerCrc: number;
}

/** One footer entry: where a region's segment lies and what it holds. */
export interface SegmentIndex {
  readonly regionId: RegionId;
  readonly firstId: EntryId;
  readonly lastId: EntryId;
  readonly entries: number;
  readonly offset: number;
  readonly length: number;
  readonly segmentCrc: number;
}

export interface SegmentRecord {
  readonly id: EntryId;
  readonly bytes: Uint8Array;
}

/**
 * A region's payloads at consecutive positions of one object, the first at `firstId`: how the
 * writer admits them. It spares a record and an id per entry, which a saturated writer would
 * otherwise allocate for every append.
 */
export interface PositionRun {
  readonly firstId: EntryId;
  readonly payloads: readonly Uint8Array[];
}

/** One region's entries for the encoder: records in any order, or a run of positions. */
export type SegmentInput = readonly SegmentRecord[] | PositionRun;

/** What the store hands the encoder: one sealed batch. */
export interface ObjectBatch extends ObjectIdentity {
  readonly segments: ReadonlyMap<RegionId, SegmentInput>;
}

export interface EncodedObject {
  readonly bytes: Uint8Array;
  readonly trailer: ObjectTrailer;
  readonly segments: readonly SegmentIndex[];
}

export interface DecodedSegment {
  readonly index: SegmentIndex;
  readonly records: readonly SegmentRecord[];
}

export interface DecodedObject {
  readonly header: ObjectHeader;
  readonly trailer: ObjectTrailer;
  readonly segments: readonly DecodedSegment[];
}

export function headerRange(): ByteRange {
  return { start: 0, end: HEADER_SIZE - 1 };
}

export function tailRange(): ByteRange {
  return { suffix: TAIL_WINDOW_BYTES };
}

export function footerRange(trailer: ObjectTrailer): ByteRange {
  return { start: trailer.footerOffset, end: trailer.footerOffset + trailer.footerLength - 1 };
}

export function segmentRange(index: SegmentIndex): ByteRange {
  return { start: index.offset, end: index.offset + index.length - 1 };
}

/** The size of a segment holding records of these byte lengths. */
export function segmentSize(recordLengths: Iterable<number>): number {
  let size = 0;
  for (const length of recordLengths) size += RECORD_HEADER_SIZE + length;
  return size;
}

/** The size of an object whose segments take `segmentBytes` in all. */
export function objectSize(segmentCount: number, segmentBytes: number): number {
  return (
    HEADER_SIZE + segmentBytes + FOOTER_COUNT_SIZE + FOOTER_ENTRY_SIZE * segmentCount + TRAILER_SIZE
  );
}
