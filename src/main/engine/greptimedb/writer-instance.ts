/**
 * GreptimeDB's other "GTWALOBJ" v1 layout (spec: greptimedb.md, last section): a 34-byte
 * header - magic, version 1, object sequence, a 16-byte writer instance - with no epoch, link,
 * reclaim boundary or header CRC, then segments, footer and trailer exactly as in the 54-byte
 * layout. The two are told apart by the spec's checks, never guessed: the 54-byte layout's
 * header CRC matches and its body starts at 54; this one's body starts at 34 and its object
 * CRC matches. An object in this layout is sound, not corrupt; it carries no chain, so Cairn
 * decodes it per object and never recovers a prefix of them as one. Pure.
 */
import { crc32 } from '@node-rs/crc32';
import { CorruptObjectError } from '../wal/errors';
import type { SegmentIndex } from '../wal/format';
import type { Seq } from '../wal/ids';
import { seqOfAnyObjectKey } from '../wal/keys';
import {
  decodeGtIndexFromTail,
  decodeGtObject,
  decodeGtSegments,
  hasMagic,
  objectCrcOf,
  viewOf,
  type GtDecodedObject,
} from './decode';
import {
  GT_FOOTER_COUNT_SIZE,
  GT_FOOTER_ENTRY_AT,
  GT_HEADER_AT,
  GT_HEADER_BODY_SIZE,
  GT_HEADER_MAGIC_BYTES,
  GT_HEADER_SIZE,
  GT_TRAILER_AT,
  GT_TRAILER_SIZE,
  GT_VERSION,
  type GtTrailer,
} from './layout';

export const GT_WRITER_HEADER_SIZE = 34;
export const GT_WRITER_HEADER_AT = { magic: 0, version: 8, seq: 10, writerInstance: 18 } as const;
export const GT_WRITER_INSTANCE_SIZE = 16;

export type GtLayout = 'chain-header' | 'writer-instance-header';

/** How each layout is named to people (verify, inspect, the inspector). */
export const GT_LAYOUT_NAMES: Readonly<Record<GtLayout, string>> = {
  'chain-header': 'GTWALOBJ v1',
  'writer-instance-header': 'GTWALOBJ v1, writer-instance header',
};

export interface GtWriterInstanceHeader {
  readonly seq: Seq;
  /** The 16 bytes naming the writer instance, as hex. */
  readonly writerInstance: string;
}

export interface GtWriterInstanceObject {
  readonly header: GtWriterInstanceHeader;
  readonly trailer: GtTrailer;
  readonly segments: readonly SegmentIndex[];
  readonly records: GtDecodedObject['records'];
}

/**
 * Where the footer says the body starts - its first segment's offset, or with no segment the
 * footer's own offset - from a suffix of the object (`tail`); null when the suffix does not
 * hold a trailer and footer that say it.
 */
export function gtBodyStart(tail: Uint8Array, objectSize: number): number | null {
  if (tail.length < GT_TRAILER_SIZE + GT_FOOTER_COUNT_SIZE) return null;
  const view = viewOf(tail);
  const at = tail.length - GT_TRAILER_SIZE;
  const footerOffset = view.getBigUint64(at + GT_TRAILER_AT.footerOffset, false);
  const footerLength = view.getBigUint64(at + GT_TRAILER_AT.footerLength, false);
  if (footerOffset + footerLength !== BigInt(objectSize - GT_TRAILER_SIZE)) return null;
  const footerAt = Number(footerOffset) - (objectSize - tail.length);
  if (footerAt < 0 || footerAt + GT_FOOTER_COUNT_SIZE > at) return null;
  if (view.getUint32(footerAt, false) === 0) return Number(footerOffset);
  const first = footerAt + GT_FOOTER_COUNT_SIZE + GT_FOOTER_ENTRY_AT.offset;
  if (first + 8 > at) return null;
  const offset = view.getBigUint64(first, false);
  return offset <= BigInt(objectSize) ? Number(offset) : null;
}

function headerCrcMatches(bytes: Uint8Array): boolean {
  return (
    bytes.length >= GT_HEADER_SIZE &&
    crc32(bytes.subarray(0, GT_HEADER_BODY_SIZE)) ===
      viewOf(bytes).getUint32(GT_HEADER_AT.crc, false)
  );
}

function objectCrcMatches(bytes: Uint8Array): boolean {
  return (
    bytes.length >= GT_WRITER_HEADER_SIZE + GT_FOOTER_COUNT_SIZE + GT_TRAILER_SIZE &&
    objectCrcOf(bytes) ===
      viewOf(bytes).getUint32(bytes.length - GT_TRAILER_SIZE + GT_TRAILER_AT.objectCrc, false)
  );
}

/** The layout of a whole object by the spec's checks; null when it fits neither (corrupt). */
export function gtLayoutOf(bytes: Uint8Array): GtLayout | null {
  if (!hasMagic(bytes, 0, GT_HEADER_MAGIC_BYTES)) return null;
  const start = gtBodyStart(bytes, bytes.length);
  if (start === GT_HEADER_SIZE && headerCrcMatches(bytes)) return 'chain-header';
  if (start === GT_WRITER_HEADER_SIZE && objectCrcMatches(bytes)) return 'writer-instance-header';
  return null;
}

/** The 34-byte header: magic, version 1, the sequence the key names, the writer instance. */
export function decodeGtWriterInstanceHeader(
  bytes: Uint8Array,
  key: string,
  keySeq: bigint | null = seqOfAnyObjectKey(key),
): GtWriterInstanceHeader {
  const fail = (
    check: 'object-size' | 'header-magic' | 'header-version' | 'seq-mismatch',
    detail = '',
  ) => {
    throw new CorruptObjectError(key, check, detail);
  };
  if (bytes.length < GT_WRITER_HEADER_SIZE)
    fail('object-size', `${bytes.length} bytes, the header needs ${GT_WRITER_HEADER_SIZE}`);
  if (!hasMagic(bytes, GT_WRITER_HEADER_AT.magic, GT_HEADER_MAGIC_BYTES)) fail('header-magic');
  const view = viewOf(bytes);
  const version = view.getUint16(GT_WRITER_HEADER_AT.version, false);
  if (version !== GT_VERSION) fail('header-version', `version ${version}`);
  const seq = view.getBigUint64(GT_WRITER_HEADER_AT.seq, false);
  if (keySeq !== null && keySeq !== seq) fail('seq-mismatch', `the header says sequence ${seq}`);
  const instance = bytes.subarray(
    GT_WRITER_HEADER_AT.writerInstance,
    GT_WRITER_HEADER_AT.writerInstance + GT_WRITER_INSTANCE_SIZE,
  );
  return { seq, writerInstance: Buffer.from(instance).toString('hex') };
}

/** Every check on a whole object of the writer-instance layout: header, trailer, footer, object CRC, each segment. */
export function decodeGtWriterInstanceObject(
  bytes: Uint8Array,
  key: string,
): GtWriterInstanceObject {
  const header = decodeGtWriterInstanceHeader(bytes, key);
  const { trailer, segments } = decodeGtIndexFromTail(
    bytes,
    bytes.length,
    key,
    GT_WRITER_HEADER_SIZE,
  );
  const index = segments ?? [];
  if (objectCrcOf(bytes) !== trailer.objectCrc) throw new CorruptObjectError(key, 'object-crc');
  return { header, trailer, segments: index, records: decodeGtSegments(bytes, index, key) };
}

/**
 * Every check on a whole object in whichever layout its footer places its body at: the
 * writer-instance layout's when at byte 34, else the 54-byte layout's (whose first failing
 * check names what is wrong with an object that fits neither). Returns the layout.
 */
export function decodeGtObjectAnyLayout(bytes: Uint8Array, key: string): GtLayout {
  if (gtBodyStart(bytes, bytes.length) === GT_WRITER_HEADER_SIZE) {
    decodeGtWriterInstanceObject(bytes, key);
    return 'writer-instance-header';
  }
  decodeGtObject(bytes, key);
  return 'chain-header';
}
