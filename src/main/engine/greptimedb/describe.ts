/**
 * A GreptimeDB object laid out part by part for a person (the console's object inspector), in
 * the layout its footer places the body for (54-byte header, or the 34-byte writer-instance
 * header): header fields and its CRC's status (the writer-instance header has none), the chain
 * link, each segment from the footer with its CRC's status, the footer, the trailer and the
 * object CRC's status - every CRC judged on its own, so one damaged part does not hide the
 * others - plus the first check the strict decoder of that layout fails, if any. Never throws
 * on damage; reads nothing.
 */
import { crc32 } from '@node-rs/crc32';
import { CorruptObjectError, CorruptSegmentError } from '../wal/errors';
import { hasMagic, viewOf } from './decode';
import {
  GT_FOOTER_COUNT_SIZE,
  GT_FOOTER_ENTRY_AT,
  GT_FOOTER_ENTRY_SIZE,
  GT_HEADER_AT,
  GT_HEADER_BODY_SIZE,
  GT_HEADER_MAGIC_BYTES,
  GT_HEADER_SIZE,
  GT_NO_PREDECESSOR,
  GT_TRAILER_AT,
  GT_TRAILER_MAGIC_BYTES,
  GT_TRAILER_SIZE,
} from './layout';
import {
  decodeGtObjectAnyLayout,
  GT_LAYOUT_NAMES,
  GT_WRITER_HEADER_AT,
  GT_WRITER_HEADER_SIZE,
  GT_WRITER_INSTANCE_SIZE,
  gtBodyStart,
  type GtLayout,
} from './writer-instance';

export interface GtPartsHeader {
  readonly magicOk: boolean;
  readonly version: number;
  readonly seq: bigint;
  /** Null in the writer-instance layout, which has no epoch, link, boundary or header CRC. */
  readonly epoch: bigint | null;
  readonly prev: { readonly seq: bigint; readonly epoch: bigint } | null;
  readonly reclaimBoundary: bigint | null;
  readonly crcOk: boolean | null;
  /** The writer-instance layout's 16 bytes, as hex; null in the 54-byte layout. */
  readonly writerInstance: string | null;
}

export interface GtPartsSegment {
  readonly regionId: bigint;
  readonly firstId: bigint;
  readonly lastId: bigint;
  readonly entries: number;
  readonly offset: number;
  readonly length: number;
  /** Null when the footer places the segment outside the object. */
  readonly crcOk: boolean | null;
}

export interface GtObjectParts {
  /** The layout the footer places the body for, by name. */
  readonly layout: string;
  readonly size: number;
  readonly header: GtPartsHeader | null;
  readonly trailer: {
    readonly magicOk: boolean;
    readonly footerOffset: bigint;
    readonly footerLength: bigint;
    readonly objectCrcOk: boolean;
  } | null;
  readonly footer: { readonly crcOk: boolean; readonly count: number } | null;
  /** The segments of the page asked for (all by default); `segmentCount` says how many in all. */
  readonly segments: readonly GtPartsSegment[];
  readonly segmentCount: number;
  /** The first check the strict decoder fails; null for a sound object. */
  readonly failure: { readonly check: string; readonly detail: string } | null;
}

function writerHeaderOf(bytes: Uint8Array): GtPartsHeader | null {
  if (bytes.length < GT_WRITER_HEADER_SIZE) return null;
  const view = viewOf(bytes);
  const at = GT_WRITER_HEADER_AT.writerInstance;
  return {
    magicOk: hasMagic(bytes, 0, GT_HEADER_MAGIC_BYTES),
    version: view.getUint16(GT_WRITER_HEADER_AT.version, false),
    seq: view.getBigUint64(GT_WRITER_HEADER_AT.seq, false),
    epoch: null,
    prev: null,
    reclaimBoundary: null,
    crcOk: null,
    writerInstance: Buffer.from(bytes.subarray(at, at + GT_WRITER_INSTANCE_SIZE)).toString('hex'),
  };
}

function headerOf(bytes: Uint8Array): GtPartsHeader | null {
  if (bytes.length < GT_HEADER_SIZE) return null;
  const view = viewOf(bytes);
  const prevSeq = view.getBigUint64(GT_HEADER_AT.predecessorSeq, false);
  return {
    magicOk: hasMagic(bytes, 0, GT_HEADER_MAGIC_BYTES),
    version: view.getUint16(GT_HEADER_AT.version, false),
    seq: view.getBigUint64(GT_HEADER_AT.seq, false),
    epoch: view.getBigUint64(GT_HEADER_AT.epoch, false),
    prev:
      prevSeq === GT_NO_PREDECESSOR
        ? null
        : { seq: prevSeq, epoch: view.getBigUint64(GT_HEADER_AT.predecessorEpoch, false) },
    reclaimBoundary: view.getBigUint64(GT_HEADER_AT.reclaimBoundary, false),
    crcOk:
      crc32(bytes.subarray(0, GT_HEADER_BODY_SIZE)) === view.getUint32(GT_HEADER_AT.crc, false),
    writerInstance: null,
  };
}

function objectCrcOk(bytes: Uint8Array, stored: number): boolean {
  const at = bytes.length - GT_TRAILER_SIZE;
  const before = crc32(bytes.subarray(0, at + GT_TRAILER_AT.objectCrc));
  return crc32(bytes.subarray(at + GT_TRAILER_AT.magic), before) === stored;
}

/** Which of an object's segments to lay out: an object may hold hundreds of thousands. */
export interface GtSegmentPage {
  readonly offset: number;
  readonly limit: number;
}

const ALL_SEGMENTS: GtSegmentPage = { offset: 0, limit: Infinity };

function segmentsOf(
  bytes: Uint8Array,
  footer: Uint8Array,
  count: number,
  page: GtSegmentPage,
): GtPartsSegment[] {
  const view = viewOf(footer);
  const segments: GtPartsSegment[] = [];
  const end = Math.min(count, page.offset + page.limit);
  for (let i = page.offset; i < end; i++) {
    const at = GT_FOOTER_COUNT_SIZE + i * GT_FOOTER_ENTRY_SIZE;
    const offset = Number(view.getBigUint64(at + GT_FOOTER_ENTRY_AT.offset, false));
    const length = Number(view.getBigUint64(at + GT_FOOTER_ENTRY_AT.length, false));
    const inside = offset >= 0 && length >= 0 && offset + length <= bytes.length;
    segments.push({
      regionId: view.getBigUint64(at + GT_FOOTER_ENTRY_AT.regionId, false),
      firstId: view.getBigUint64(at + GT_FOOTER_ENTRY_AT.minId, false),
      lastId: view.getBigUint64(at + GT_FOOTER_ENTRY_AT.maxId, false),
      entries: view.getUint32(at + GT_FOOTER_ENTRY_AT.count, false),
      offset,
      length,
      crcOk: inside
        ? crc32(bytes.subarray(offset, offset + length)) ===
          view.getUint32(at + GT_FOOTER_ENTRY_AT.crc, false)
        : null,
    });
  }
  return segments;
}

function strictFailure(bytes: Uint8Array, key: string): GtObjectParts['failure'] {
  try {
    decodeGtObjectAnyLayout(bytes, key);
    return null;
  } catch (error) {
    if (error instanceof CorruptObjectError || error instanceof CorruptSegmentError)
      return { check: error.check, detail: error.detail };
    throw error;
  }
}

export function describeGtObject(
  bytes: Uint8Array,
  key: string,
  page: GtSegmentPage = ALL_SEGMENTS,
): GtObjectParts {
  const failure = strictFailure(bytes, key);
  const layout: GtLayout =
    gtBodyStart(bytes, bytes.length) === GT_WRITER_HEADER_SIZE
      ? 'writer-instance-header'
      : 'chain-header';
  const headerSize = layout === 'chain-header' ? GT_HEADER_SIZE : GT_WRITER_HEADER_SIZE;
  const header = layout === 'chain-header' ? headerOf(bytes) : writerHeaderOf(bytes);
  const size = bytes.length;
  const base = { layout: GT_LAYOUT_NAMES[layout], size, header, failure };
  const none = { segments: [], segmentCount: 0 };
  if (bytes.length < headerSize + GT_TRAILER_SIZE)
    return { ...base, trailer: null, footer: null, ...none };
  const view = viewOf(bytes);
  const at = bytes.length - GT_TRAILER_SIZE;
  const footerOffset = view.getBigUint64(at + GT_TRAILER_AT.footerOffset, false);
  const footerLength = view.getBigUint64(at + GT_TRAILER_AT.footerLength, false);
  const trailer = {
    magicOk: hasMagic(bytes, at + GT_TRAILER_AT.magic, GT_TRAILER_MAGIC_BYTES),
    footerOffset,
    footerLength,
    objectCrcOk: objectCrcOk(bytes, view.getUint32(at + GT_TRAILER_AT.objectCrc, false)),
  };
  const fits =
    footerOffset >= BigInt(headerSize) &&
    footerLength >= BigInt(GT_FOOTER_COUNT_SIZE) &&
    footerOffset + footerLength === BigInt(at);
  if (!fits) return { ...base, trailer, footer: null, ...none };
  const footerBytes = bytes.subarray(Number(footerOffset), at);
  const count = viewOf(footerBytes).getUint32(0, false);
  const footer = {
    crcOk: crc32(footerBytes) === view.getUint32(at + GT_TRAILER_AT.footerCrc, false),
    count,
  };
  const complete = footerBytes.length === GT_FOOTER_COUNT_SIZE + GT_FOOTER_ENTRY_SIZE * count;
  if (!complete) return { ...base, trailer, footer, ...none };
  const segments = segmentsOf(bytes, footerBytes, count, page);
  return { ...base, trailer, footer, segments, segmentCount: count };
}
