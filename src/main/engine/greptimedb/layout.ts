/**
 * GreptimeDB's object-store WAL format "GTWALOBJ" version 1, as its datanodes write it: the
 * byte layout and the values decoded from it. Cairn only reads this format, never writes it.
 * All integers are big-endian; every CRC is CRC-32/IEEE (zlib's).
 *
 *   header  54 B  magic "GTWALOBJ" | version u16 | seq u64 | epoch u64 | predecessor seq u64
 *                 (2^64-1 = none) | predecessor epoch u64 | reclaim boundary u64 |
 *                 headerCrc u32 (over the 50 bytes before it)
 *   segment       region u64 | count u32, then per entry: id u64 | length u32 | payload
 *   footer        count u32, then per segment: region u64 | min id u64 | max id u64 |
 *                 count u32 | offset u64 | length u64 | segmentCrc u32
 *   trailer 32 B  footer offset u64 | footer length u64 | footerCrc u32 | objectCrc u32 |
 *                 magic "GTWALTRL"
 */
import type { ByteRange } from '../objectio/object-io';
import type { ObjectLink, SegmentIndex } from '../wal/format';
import type { Seq } from '../wal/ids';

export const GT_FORMAT = 'greptimedb-v1';
export const GT_VERSION = 1;

export const GT_HEADER_MAGIC_BYTES: Uint8Array = new TextEncoder().encode('GTWALOBJ');
export const GT_TRAILER_MAGIC_BYTES: Uint8Array = new TextEncoder().encode('GTWALTRL');
export const GT_MAGIC_SIZE = 8;

export const GT_HEADER_BODY_SIZE = 50;
export const GT_HEADER_SIZE = GT_HEADER_BODY_SIZE + 4;
export const GT_HEADER_AT = {
  magic: 0,
  version: 8,
  seq: 10,
  epoch: 18,
  predecessorSeq: 26,
  predecessorEpoch: 34,
  reclaimBoundary: 42,
  crc: 50,
} as const;

/** The predecessor sequence of an object that extends none. */
export const GT_NO_PREDECESSOR = (1n << 64n) - 1n;

export const GT_SEGMENT_HEADER_SIZE = 12;
export const GT_ENTRY_HEADER_SIZE = 12;

export const GT_FOOTER_COUNT_SIZE = 4;
export const GT_FOOTER_ENTRY_SIZE = 48;
export const GT_FOOTER_ENTRY_AT = {
  regionId: 0,
  minId: 8,
  maxId: 16,
  count: 24,
  offset: 28,
  length: 36,
  crc: 44,
} as const;

export const GT_TRAILER_SIZE = 32;
export const GT_TRAILER_AT = {
  footerOffset: 0,
  footerLength: 8,
  footerCrc: 16,
  objectCrc: 20,
  magic: 24,
} as const;

/** Header, an empty footer and the trailer: an object with no segment (a start object). */
export const GT_MIN_OBJECT_SIZE = GT_HEADER_SIZE + GT_FOOTER_COUNT_SIZE + GT_TRAILER_SIZE;

/** Bytes of the suffix read recovery makes per object; a larger footer costs one more read. */
export const GT_TAIL_WINDOW_BYTES = 64 * 1024;

export interface GtHeader {
  readonly seq: Seq;
  readonly epoch: bigint;
  /** The object this one extends; null for a chain's first object. */
  readonly link: ObjectLink | null;
  /** Every object below this sequence was fully flushed when this one was sealed. */
  readonly reclaimBoundary: Seq;
}

export interface GtTrailer {
  readonly footerOffset: number;
  readonly footerLength: number;
  readonly footerCrc: number;
  readonly objectCrc: number;
}

/** What recovery knows of an object: header, trailer and footer, no segment read. */
export interface GtObjectIndex {
  readonly header: GtHeader;
  readonly trailer: GtTrailer;
  readonly segments: readonly SegmentIndex[];
}

export function gtHeaderRange(): ByteRange {
  return { start: 0, end: GT_HEADER_SIZE - 1 };
}

export function gtTailRange(): ByteRange {
  return { suffix: GT_TAIL_WINDOW_BYTES };
}

export function gtFooterRange(trailer: GtTrailer): ByteRange {
  return { start: trailer.footerOffset, end: trailer.footerOffset + trailer.footerLength - 1 };
}
