/**
 * Decodes and checks GreptimeDB "GTWALOBJ" v1 objects part by part, so each caller reads only
 * what it needs: recovery the header and the footer (a prefix and a suffix read), a reader one
 * segment, verify the whole object. Every structural failure is a `CorruptObject(key, check)`;
 * a segment's own failure is a `CorruptSegment(key, region)` so a reader can skip just that
 * segment. Nothing is allocated from a declared length or count before the bytes are there.
 * Never touches storage; payloads are views into the given bytes.
 */
import { crc32 } from '@node-rs/crc32';
import { runInSlices, runToEnd, type Slicer, type SlicedWork } from '../slices';
import { CorruptObjectError, CorruptSegmentError, type CorruptObjectCheck } from '../wal/errors';
import type { SegmentIndex, SegmentRecord } from '../wal/format';
import { SEQ_LIMIT } from '../wal/ids';
import { seqOfAnyObjectKey } from '../wal/keys';
import {
  GT_ENTRY_HEADER_SIZE,
  GT_FOOTER_COUNT_SIZE,
  GT_FOOTER_ENTRY_AT,
  GT_FOOTER_ENTRY_SIZE,
  GT_HEADER_AT,
  GT_HEADER_BODY_SIZE,
  GT_HEADER_MAGIC_BYTES,
  GT_HEADER_SIZE,
  GT_MIN_OBJECT_SIZE,
  GT_NO_PREDECESSOR,
  GT_SEGMENT_HEADER_SIZE,
  GT_TRAILER_AT,
  GT_TRAILER_MAGIC_BYTES,
  GT_TRAILER_SIZE,
  GT_VERSION,
  type GtHeader,
  type GtObjectIndex,
  type GtTrailer,
} from './layout';

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A plain loop: recovery checks two magics on every object. */
export function hasMagic(bytes: Uint8Array, at: number, magic: Uint8Array): boolean {
  for (let i = 0; i < magic.length; i++) if (bytes[at + i] !== magic[i]) return false;
  return true;
}

/** How the footer check words a region named twice (the merged layout's `region-twice` rule). */
export const GT_REGION_TWICE = 'a region named twice';

function corrupt(key: string, check: CorruptObjectCheck, detail = ''): never {
  throw new CorruptObjectError(key, check, detail);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A u64 that must be an offset or a length: above 2^53 it cannot be one. */
function byteCount(value: bigint): number | null {
  return value <= MAX_SAFE ? Number(value) : null;
}

/** True when `bytes` starts with GreptimeDB's header magic (format detection). */
export function isGtObjectStart(bytes: Uint8Array): boolean {
  return bytes.length >= GT_HEADER_MAGIC_BYTES.length && hasMagic(bytes, 0, GT_HEADER_MAGIC_BYTES);
}

/**
 * The header from the object's first 54 bytes: magic, version, CRC, link, reclaim boundary.
 * `keySeq` is the sequence the key names (null: none), when the caller parsed it already.
 */
export function decodeGtHeader(
  bytes: Uint8Array,
  key: string,
  keySeq: bigint | null = seqOfAnyObjectKey(key),
): GtHeader {
  if (bytes.length < GT_HEADER_SIZE)
    corrupt(key, 'object-size', `${bytes.length} bytes, a header needs ${GT_HEADER_SIZE}`);
  if (!hasMagic(bytes, GT_HEADER_AT.magic, GT_HEADER_MAGIC_BYTES)) corrupt(key, 'header-magic');
  const view = viewOf(bytes);
  const version = view.getUint16(GT_HEADER_AT.version, false);
  if (version !== GT_VERSION) corrupt(key, 'header-version', `version ${version}`);
  if (crc32(bytes.subarray(0, GT_HEADER_BODY_SIZE)) !== view.getUint32(GT_HEADER_AT.crc, false))
    corrupt(key, 'header-crc');
  const seq = view.getBigUint64(GT_HEADER_AT.seq, false);
  const epoch = view.getBigUint64(GT_HEADER_AT.epoch, false);
  const predecessorSeq = view.getBigUint64(GT_HEADER_AT.predecessorSeq, false);
  const predecessorEpoch = view.getBigUint64(GT_HEADER_AT.predecessorEpoch, false);
  const reclaimBoundary = view.getBigUint64(GT_HEADER_AT.reclaimBoundary, false);
  if (seq >= SEQ_LIMIT || (keySeq !== null && keySeq !== seq))
    corrupt(key, 'seq-mismatch', `the header says sequence ${seq}`);
  if (predecessorSeq === GT_NO_PREDECESSOR && predecessorEpoch !== 0n)
    corrupt(key, 'header-link', `no predecessor but predecessor epoch ${predecessorEpoch}`);
  if (predecessorSeq !== GT_NO_PREDECESSOR && predecessorSeq >= seq)
    corrupt(key, 'header-link', `predecessor ${predecessorSeq} is not below ${seq}`);
  if (reclaimBoundary > seq)
    corrupt(key, 'header-reclaim', `reclaim boundary ${reclaimBoundary} above sequence ${seq}`);
  const link =
    predecessorSeq === GT_NO_PREDECESSOR ? null : { seq: predecessorSeq, epoch: predecessorEpoch };
  return { seq, epoch, link, reclaimBoundary };
}

/**
 * The trailer from the object's last bytes (`tail`, any suffix of at least 32 bytes):
 * magic, and a footer range that starts at or after the header and ends where the trailer
 * starts. The footer's own CRC and length are checked by `decodeGtFooter`. `headerSize` is
 * the layout's (54, or 34 for the writer-instance layout).
 */
export function decodeGtTrailer(
  tail: Uint8Array,
  objectSize: number,
  key: string,
  headerSize = GT_HEADER_SIZE,
): GtTrailer {
  const smallest = GT_MIN_OBJECT_SIZE - GT_HEADER_SIZE + headerSize;
  if (objectSize < smallest || tail.length < GT_TRAILER_SIZE)
    corrupt(key, 'object-size', `${objectSize} bytes, the smallest object is ${smallest}`);
  const at = tail.length - GT_TRAILER_SIZE;
  if (!hasMagic(tail, at + GT_TRAILER_AT.magic, GT_TRAILER_MAGIC_BYTES))
    corrupt(key, 'trailer-magic');
  const view = viewOf(tail);
  const footerOffset = byteCount(view.getBigUint64(at + GT_TRAILER_AT.footerOffset, false));
  const footerLength = byteCount(view.getBigUint64(at + GT_TRAILER_AT.footerLength, false));
  const trailerStart = objectSize - GT_TRAILER_SIZE;
  if (
    footerOffset === null ||
    footerLength === null ||
    footerOffset < headerSize ||
    footerOffset + footerLength !== trailerStart
  )
    corrupt(
      key,
      'footer-bounds',
      `footer at ${footerOffset}+${footerLength}, trailer at ${trailerStart}`,
    );
  return {
    footerOffset,
    footerLength,
    footerCrc: view.getUint32(at + GT_TRAILER_AT.footerCrc, false),
    objectCrc: view.getUint32(at + GT_TRAILER_AT.objectCrc, false),
  };
}

/** The footer's bytes when the suffix read holds them, else null (fetch `gtFooterRange`). */
export function gtFooterFromTail(
  tail: Uint8Array,
  objectSize: number,
  trailer: GtTrailer,
): Uint8Array | null {
  const tailStart = objectSize - tail.length;
  if (trailer.footerOffset < tailStart) return null;
  const start = trailer.footerOffset - tailStart;
  return tail.subarray(start, start + trailer.footerLength);
}

/** Footer entries decoded between two looks at the slicer. */
const FOOTER_ENTRIES_PER_SLICE = 1_024;

function footerEntry(view: DataView, at: number, key: string): SegmentIndex {
  const offset = byteCount(view.getBigUint64(at + GT_FOOTER_ENTRY_AT.offset, false));
  const length = byteCount(view.getBigUint64(at + GT_FOOTER_ENTRY_AT.length, false));
  if (offset === null || length === null)
    corrupt(key, 'segments-tile', `a segment at ${offset}+${length} is out of any object`);
  return {
    regionId: view.getBigUint64(at + GT_FOOTER_ENTRY_AT.regionId, false),
    firstId: view.getBigUint64(at + GT_FOOTER_ENTRY_AT.minId, false),
    lastId: view.getBigUint64(at + GT_FOOTER_ENTRY_AT.maxId, false),
    entries: view.getUint32(at + GT_FOOTER_ENTRY_AT.count, false),
    offset,
    length,
    segmentCrc: view.getUint32(at + GT_FOOTER_ENTRY_AT.crc, false),
  };
}

/** Regions strictly increasing, counts and id ranges sane, segments tiling the body exactly. */
function checkSegments(
  segments: readonly SegmentIndex[],
  trailer: GtTrailer,
  key: string,
  headerSize: number,
): void {
  let end = headerSize;
  let previous: bigint | null = null;
  for (const segment of segments) {
    if (previous !== null && segment.regionId <= previous)
      corrupt(
        key,
        'segments-order',
        segment.regionId === previous
          ? `${GT_REGION_TWICE}: ${segment.regionId}`
          : `region ${segment.regionId} after ${previous}`,
      );
    previous = segment.regionId;
    if (segment.entries < 1 || segment.firstId > segment.lastId)
      corrupt(
        key,
        'segment-ids',
        `region ${segment.regionId}: ${segment.entries} entries, ids ${segment.firstId}..${segment.lastId}`,
      );
    if (segment.length < GT_SEGMENT_HEADER_SIZE || segment.offset !== end)
      corrupt(
        key,
        'segments-tile',
        `segment at ${segment.offset}+${segment.length}, expected at ${end}`,
      );
    end = segment.offset + segment.length;
  }
  if (end !== trailer.footerOffset)
    corrupt(
      key,
      'segments-tile',
      `segments end at ${end}, the footer starts at ${trailer.footerOffset}`,
    );
}

/** The segment index from exactly the footer's bytes. */
export function decodeGtFooter(
  footer: Uint8Array,
  trailer: GtTrailer,
  key: string,
  headerSize = GT_HEADER_SIZE,
): SegmentIndex[] {
  return runToEnd(footerDecoding(footer, trailer, key, headerSize));
}

/** `decodeGtFooter`, giving the event loop turns between slices (a footer of 300,000 entries). */
export function decodeGtFooterInSlices(
  footer: Uint8Array,
  trailer: GtTrailer,
  key: string,
  slicer: Slicer,
  headerSize = GT_HEADER_SIZE,
): Promise<SegmentIndex[]> {
  return runInSlices(footerDecoding(footer, trailer, key, headerSize), slicer);
}

function* footerDecoding(
  footer: Uint8Array,
  trailer: GtTrailer,
  key: string,
  headerSize: number,
): SlicedWork<SegmentIndex[]> {
  if (footer.length !== trailer.footerLength)
    corrupt(
      key,
      'footer-bounds',
      `${footer.length} footer bytes, the trailer says ${trailer.footerLength}`,
    );
  if (crc32(footer) !== trailer.footerCrc) corrupt(key, 'footer-crc');
  if (footer.length < GT_FOOTER_COUNT_SIZE) corrupt(key, 'footer-length', `${footer.length} bytes`);
  const view = viewOf(footer);
  const count = view.getUint32(0, false);
  if (footer.length !== GT_FOOTER_COUNT_SIZE + GT_FOOTER_ENTRY_SIZE * count)
    corrupt(key, 'footer-length', `${footer.length} bytes for ${count} segments`);
  const segments: SegmentIndex[] = [];
  for (let i = 0; i < count; i++) {
    segments.push(footerEntry(view, GT_FOOTER_COUNT_SIZE + i * GT_FOOTER_ENTRY_SIZE, key));
    if ((i + 1) % FOOTER_ENTRIES_PER_SLICE === 0) yield FOOTER_ENTRIES_PER_SLICE;
  }
  checkSegments(segments, trailer, key, headerSize);
  return segments;
}

/** Trailer and segment index from a suffix read; `segments` null when the footer is larger. */
export function decodeGtIndexFromTail(
  tail: Uint8Array,
  objectSize: number,
  key: string,
  headerSize = GT_HEADER_SIZE,
): { trailer: GtTrailer; segments: SegmentIndex[] | null } {
  const trailer = decodeGtTrailer(tail, objectSize, key, headerSize);
  const footer = gtFooterFromTail(tail, objectSize, trailer);
  return {
    trailer,
    segments: footer === null ? null : decodeGtFooter(footer, trailer, key, headerSize),
  };
}

/**
 * The entries of one segment from exactly its bytes: CRC, the segment header against the
 * footer, then entries that fill it exactly with strictly increasing ids from min to max.
 * `checksum` is the bytes' CRC32 when the store already took it as it read them.
 */
export function decodeGtSegmentInto<T>(
  bytes: Uint8Array,
  index: SegmentIndex,
  key: string,
  make: (id: bigint, data: Uint8Array) => T,
  checksum?: number,
): T[] {
  const fail = (
    check: 'segment-length' | 'segment-crc' | 'segment-framing' | 'segment-header',
    detail = '',
  ): never => {
    throw new CorruptSegmentError(key, index.regionId, check, detail);
  };
  if (bytes.length !== index.length || bytes.length < GT_SEGMENT_HEADER_SIZE)
    fail('segment-length', `${bytes.length} bytes, the footer says ${index.length}`);
  if ((checksum ?? crc32(bytes)) !== index.segmentCrc) fail('segment-crc');
  const view = viewOf(bytes);
  const regionId = view.getBigUint64(0, false);
  const count = view.getUint32(8, false);
  if (regionId !== index.regionId || count !== index.entries)
    fail(
      'segment-header',
      `region ${regionId} with ${count} entries, the footer says ${index.regionId} with ${index.entries}`,
    );
  if (count * GT_ENTRY_HEADER_SIZE > bytes.length - GT_SEGMENT_HEADER_SIZE)
    fail('segment-framing', `${count} entries cannot fit in ${bytes.length} bytes`);
  const records: T[] = [];
  let first: bigint | null = null;
  let at = GT_SEGMENT_HEADER_SIZE;
  let previous: bigint | null = null;
  for (let i = 0; i < count; i++) {
    if (at + GT_ENTRY_HEADER_SIZE > bytes.length)
      fail('segment-framing', `entry ${i} cut at ${at}`);
    const id = view.getBigUint64(at, false);
    const length = view.getUint32(at + 8, false);
    const start = at + GT_ENTRY_HEADER_SIZE;
    if (length > bytes.length - start) fail('segment-framing', `entry ${id} runs past the segment`);
    if (previous !== null && id <= previous)
      fail('segment-framing', `entry ${id} after ${previous}: ids must increase`);
    records.push(make(id, bytes.subarray(start, start + length)));
    first ??= id;
    previous = id;
    at = start + length;
  }
  if (at !== bytes.length)
    fail('segment-framing', `${bytes.length - at} bytes after the last entry`);
  if (first !== index.firstId || previous !== index.lastId)
    fail(
      'segment-framing',
      `ids ${first}..${previous}, the footer says ${index.firstId}..${index.lastId}`,
    );
  return records;
}

/** `decodeGtSegmentInto` giving plain records. */
export function decodeGtSegment(
  bytes: Uint8Array,
  index: SegmentIndex,
  key: string,
): SegmentRecord[] {
  return decodeGtSegmentInto(bytes, index, key, (id, data) => ({ id, bytes: data }));
}

/** CRC over every byte but the trailer's own object CRC field. */
export function objectCrcOf(bytes: Uint8Array): number {
  const trailerAt = bytes.length - GT_TRAILER_SIZE;
  const beforeCrc = crc32(bytes.subarray(0, trailerAt + GT_TRAILER_AT.objectCrc));
  return crc32(bytes.subarray(trailerAt + GT_TRAILER_AT.magic), beforeCrc);
}

export interface GtDecodedObject extends GtObjectIndex {
  readonly records: ReadonlyArray<{
    readonly index: SegmentIndex;
    readonly records: readonly SegmentRecord[];
  }>;
}

/** Every check on a whole object: header, trailer, footer, object CRC, each segment. */
export function decodeGtObject(bytes: Uint8Array, key: string): GtDecodedObject {
  const header = decodeGtHeader(bytes, key);
  const { trailer, segments } = decodeGtIndexFromTail(bytes, bytes.length, key);
  const index = segments ?? [];
  if (objectCrcOf(bytes) !== trailer.objectCrc) corrupt(key, 'object-crc');
  return { header, trailer, segments: index, records: decodeGtSegments(bytes, index, key) };
}

/** Every segment of a whole object (either layout), each decoded and checked. */
export function decodeGtSegments(
  bytes: Uint8Array,
  index: readonly SegmentIndex[],
  key: string,
): GtDecodedObject['records'] {
  return index.map((segment) => ({
    index: segment,
    records: decodeGtSegment(
      bytes.subarray(segment.offset, segment.offset + segment.length),
      segment,
      key,
    ),
  }));
}
