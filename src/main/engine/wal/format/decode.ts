/**
 * Decodes and verifies version-1 WAL objects, part by part, so each caller reads only what it
 * needs: recovery the trailer and footer (one suffix read), a reader the header before one
 * segment (`decode-segment.ts`), verify and the inspector the whole object. Every structural
 * failure is a `CorruptObject(key, check)`; a segment's header failure is a
 * `CorruptSegment(key, region)`, so a reader can skip just that segment. Never touches storage;
 * decoded records are views into the given bytes (no copy).
 */
import { crc32c } from '@node-rs/crc32';
import { CorruptObjectError, CorruptSegmentError, type CorruptObjectCheck } from '../errors';
import { positionOf, seqOf, type EntryId, type Seq } from '../ids';
import { seqOfAnyObjectKey } from '../keys';
import type { RegionId } from '../region-id';
import { runInSlices, runToEnd, type Slicer, type SlicedWork } from '../../slices';
import {
  FOOTER_COUNT_SIZE,
  FOOTER_ENTRY_AT,
  FOOTER_ENTRY_SIZE,
  FORMAT_FLAGS,
  FORMAT_VERSION,
  HEADER_AT,
  HEADER_BODY_SIZE,
  HEADER_MAGIC_BYTES,
  HEADER_SIZE,
  MIN_OBJECT_SIZE,
  TRAILER_AT,
  TRAILER_BODY_SIZE,
  TRAILER_MAGIC_BYTES,
  TRAILER_SIZE,
  type DecodedObject,
  type DecodedSegment,
  type ObjectHeader,
  type ObjectIdentity,
  type ObjectLink,
  type ObjectTrailer,
  type SegmentIndex,
} from './layout';
import { decodeSegment } from './decode-segment';

interface LinkFields {
  readonly hasLink: number;
  readonly linkSeq: number;
  readonly linkEpoch: number;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A plain loop: recovery checks a magic on every object, a callback per byte costs more. */
function hasMagic(bytes: Uint8Array, at: number, magic: Uint8Array): boolean {
  for (let i = 0; i < magic.length; i++) if (bytes[at + i] !== magic[i]) return false;
  return true;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A u64 field that must be a byte count or offset: anything above 2^53 cannot be one. */
function safeNumber(value: bigint): number | null {
  return value <= MAX_SAFE ? Number(value) : null;
}

function corrupt(key: string, check: CorruptObjectCheck, detail = ''): never {
  throw new CorruptObjectError(key, check, detail);
}

/** The link header and trailer carry: `hasLink` 0 with zero fields, or 1 with a predecessor. */
function readLink(
  view: DataView,
  at: number,
  fields: LinkFields,
  seq: Seq,
  key: string,
  check: CorruptObjectCheck,
): ObjectLink | null {
  const hasLink = view.getUint32(at + fields.hasLink, true);
  const linkSeq = view.getBigUint64(at + fields.linkSeq, true);
  const linkEpoch = view.getBigUint64(at + fields.linkEpoch, true);
  if (hasLink === 0) {
    if (linkSeq !== 0n || linkEpoch !== 0n) corrupt(key, check, 'no link but non-zero link fields');
    return null;
  }
  if (hasLink !== 1) corrupt(key, check, `hasLink is ${hasLink}`);
  if (linkSeq >= seq) corrupt(key, check, `link ${linkSeq} does not precede sequence ${seq}`);
  return { seq: linkSeq, epoch: linkEpoch };
}

function expectedSeqOf(key: string): Seq {
  const seq = seqOfAnyObjectKey(key);
  return seq ?? corrupt(key, 'object-key', 'the key does not name a WAL object');
}

/**
 * The trailer, from `tail` = the last bytes of an object of `objectSize` bytes (the last
 * 64 KiB, or the whole object). Checks, in order: the key names an object (`object-key`),
 * sizes (`object-size`), `trailer-magic`, `trailer-crc`, the sequence against the key
 * (`seq-mismatch`), `trailer-link`, that the footer ends where the trailer starts and begins
 * after the header (`footer-bounds`), and that its length fits whole entries (`footer-length`).
 * `expectedSeq` is the sequence the key names when the caller parsed it already (a listing):
 * the key is then not parsed again.
 */
export function decodeTrailer(
  tail: Uint8Array,
  objectSize: number,
  key: string,
  expectedSeq: Seq = expectedSeqOf(key),
): ObjectTrailer {
  if (objectSize < MIN_OBJECT_SIZE)
    corrupt(key, 'object-size', `${objectSize} bytes, below ${MIN_OBJECT_SIZE}`);
  if (tail.length < TRAILER_SIZE || tail.length > objectSize) {
    corrupt(key, 'object-size', `a tail of ${tail.length} bytes for an object of ${objectSize}`);
  }
  const at = tail.length - TRAILER_SIZE;
  const view = viewOf(tail);
  if (!hasMagic(tail, at + TRAILER_AT.magic, TRAILER_MAGIC_BYTES)) corrupt(key, 'trailer-magic');
  const crc = crc32c(tail.subarray(at, at + TRAILER_BODY_SIZE));
  if (crc !== view.getUint32(at + TRAILER_AT.crc, true)) corrupt(key, 'trailer-crc');

  const seq = view.getBigUint64(at + TRAILER_AT.seq, true);
  if (seq !== expectedSeq)
    corrupt(key, 'seq-mismatch', `the trailer says ${seq}, the key ${expectedSeq}`);
  const link = readLink(view, at, TRAILER_AT, seq, key, 'trailer-link');
  const footerOffset = safeNumber(view.getBigUint64(at + TRAILER_AT.footerOffset, true));
  const footerLength = view.getUint32(at + TRAILER_AT.footerLength, true);
  if (
    footerOffset === null ||
    footerOffset < HEADER_SIZE ||
    footerOffset + footerLength !== objectSize - TRAILER_SIZE
  ) {
    corrupt(
      key,
      'footer-bounds',
      `footer at ${footerOffset ?? 'beyond 2^53'} of ${footerLength} bytes in ${objectSize}`,
    );
  }
  if (
    footerLength < FOOTER_COUNT_SIZE ||
    (footerLength - FOOTER_COUNT_SIZE) % FOOTER_ENTRY_SIZE !== 0
  ) {
    corrupt(key, 'footer-length', `${footerLength} bytes`);
  }
  return {
    seq,
    epoch: view.getBigUint64(at + TRAILER_AT.epoch, true),
    link,
    footerOffset,
    footerLength,
    footerCrc: view.getUint32(at + TRAILER_AT.footerCrc, true),
  };
}

/** The footer's bytes when the tail already holds them, else null (read `footerRange` then). */
export function footerFromTail(
  tail: Uint8Array,
  objectSize: number,
  trailer: ObjectTrailer,
): Uint8Array | null {
  const tailStart = objectSize - tail.length;
  if (trailer.footerOffset < tailStart) return null;
  const from = trailer.footerOffset - tailStart;
  return tail.subarray(from, from + trailer.footerLength);
}

/** True when `id` is an entry position (not 0) of the object `seq`. */
function isPositionOf(id: EntryId, seq: Seq): boolean {
  return seqOf(id) === seq && positionOf(id) >= 1n;
}

function checkSegmentIds(key: string, trailer: ObjectTrailer, segment: SegmentIndex): void {
  const { firstId, lastId, entries } = segment;
  const seq = trailer.seq;
  if (
    entries < 1 ||
    firstId > lastId ||
    !isPositionOf(firstId, seq) ||
    !isPositionOf(lastId, seq)
  ) {
    corrupt(
      key,
      'segment-ids',
      `ids ${firstId}..${lastId} (${entries} entries) in sequence ${trailer.seq}`,
    );
  }
  if (BigInt(entries) > lastId - firstId + 1n)
    corrupt(key, 'segment-ids', `${entries} entries between ${firstId} and ${lastId}`);
}

function readFooterEntry(view: DataView, at: number): SegmentIndex | null {
  const offset = safeNumber(view.getBigUint64(at + FOOTER_ENTRY_AT.offset, true));
  const length = safeNumber(view.getBigUint64(at + FOOTER_ENTRY_AT.length, true));
  if (offset === null || length === null) return null;
  return {
    regionId: view.getBigUint64(at + FOOTER_ENTRY_AT.regionId, true),
    firstId: view.getBigUint64(at + FOOTER_ENTRY_AT.firstId, true),
    lastId: view.getBigUint64(at + FOOTER_ENTRY_AT.lastId, true),
    entries: view.getUint32(at + FOOTER_ENTRY_AT.entries, true),
    offset,
    length,
    segmentCrc: view.getUint32(at + FOOTER_ENTRY_AT.segmentCrc, true),
  };
}

/**
 * The segment index of an object from its footer bytes. Checks `footer-length`, `footer-crc`
 * (against the trailer), `footer-count`, that regions ascend (`segments-order`), that every
 * segment's ids belong to the object (`segment-ids`), and that the segments tile the body
 * exactly, from the end of the header to the footer (`segments-tile`).
 */
export function decodeFooter(
  footer: Uint8Array,
  trailer: ObjectTrailer,
  key: string,
): SegmentIndex[] {
  return runToEnd(footerDecoding(footer, trailer, key));
}

/** `decodeFooter`, giving the event loop turns between slices (a footer of 300,000 entries). */
export function decodeFooterInSlices(
  footer: Uint8Array,
  trailer: ObjectTrailer,
  key: string,
  slicer: Slicer,
): Promise<SegmentIndex[]> {
  return runInSlices(footerDecoding(footer, trailer, key), slicer);
}

/** Footer entries decoded between two looks at the slicer. */
const FOOTER_ENTRIES_PER_SLICE = 1_024;

function* footerDecoding(
  footer: Uint8Array,
  trailer: ObjectTrailer,
  key: string,
): SlicedWork<SegmentIndex[]> {
  if (footer.length !== trailer.footerLength)
    corrupt(
      key,
      'footer-length',
      `${footer.length} bytes, the trailer says ${trailer.footerLength}`,
    );
  if (crc32c(footer) !== trailer.footerCrc) corrupt(key, 'footer-crc');
  const view = viewOf(footer);
  const count = view.getUint32(0, true);
  if (FOOTER_COUNT_SIZE + count * FOOTER_ENTRY_SIZE !== footer.length)
    corrupt(key, 'footer-count', `${count} segments in ${footer.length} bytes`);

  const segments: SegmentIndex[] = [];
  let expectedOffset = HEADER_SIZE;
  for (let i = 0; i < count; i++) {
    const segment = readFooterEntry(view, FOOTER_COUNT_SIZE + i * FOOTER_ENTRY_SIZE);
    if (segment === null) corrupt(key, 'segments-tile', `segment ${i} lies beyond 2^53`);
    const previous = segments[segments.length - 1];
    if (previous !== undefined && segment.regionId <= previous.regionId)
      corrupt(key, 'segments-order', `segment ${i}`);
    if (segment.offset !== expectedOffset)
      corrupt(
        key,
        'segments-tile',
        `segment ${i} starts at ${segment.offset}, expected ${expectedOffset}`,
      );
    checkSegmentIds(key, trailer, segment);
    segments.push(segment);
    expectedOffset = segment.offset + segment.length;
    if ((i + 1) % FOOTER_ENTRIES_PER_SLICE === 0) yield FOOTER_ENTRIES_PER_SLICE;
  }
  if (expectedOffset !== trailer.footerOffset) {
    corrupt(
      key,
      'segments-tile',
      `segments end at ${expectedOffset}, the footer starts at ${trailer.footerOffset}`,
    );
  }
  return segments;
}

/** The header, from the first 52 bytes or more: `header-magic`, `header-crc`, `header-version`, `header-flags`, `header-link`. */
export function decodeHeader(bytes: Uint8Array, key: string): ObjectHeader {
  if (bytes.length < HEADER_SIZE) corrupt(key, 'object-size', `a header of ${bytes.length} bytes`);
  const view = viewOf(bytes);
  if (!hasMagic(bytes, HEADER_AT.magic, HEADER_MAGIC_BYTES)) corrupt(key, 'header-magic');
  if (crc32c(bytes.subarray(0, HEADER_BODY_SIZE)) !== view.getUint32(HEADER_AT.crc, true))
    corrupt(key, 'header-crc');
  const version = view.getUint16(HEADER_AT.version, true);
  if (version !== FORMAT_VERSION) corrupt(key, 'header-version', `version ${version}`);
  const flags = view.getUint16(HEADER_AT.flags, true);
  if (flags !== FORMAT_FLAGS) corrupt(key, 'header-flags', `flags ${flags}`);
  const seq = view.getBigUint64(HEADER_AT.seq, true);
  return {
    version,
    flags,
    seq,
    epoch: view.getBigUint64(HEADER_AT.epoch, true),
    link: readLink(view, 0, HEADER_AT, seq, key, 'header-link'),
  };
}

function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  const sameLink =
    a.link === null || b.link === null
      ? a.link === b.link
      : a.link.seq === b.link.seq && a.link.epoch === b.link.epoch;
  return a.seq === b.seq && a.epoch === b.epoch && sameLink;
}

/** The header must repeat the trailer's identity (`header-trailer-mismatch`). */
export function checkHeaderMatchesTrailer(
  header: ObjectHeader,
  trailer: ObjectTrailer,
  key: string,
): void {
  if (!sameIdentity(header, trailer)) {
    corrupt(
      key,
      'header-trailer-mismatch',
      `header seq ${header.seq} epoch ${header.epoch}, trailer seq ${trailer.seq} epoch ${trailer.epoch}`,
    );
  }
}

/**
 * The header check a segment read makes (wal.md): a header that is corrupt or disagrees with
 * the trailer fails that read as `CorruptSegment(key, region, 'segment-header')` - a hole
 * under `skip` - and is never taken for a new link.
 */
export function checkHeaderForRead(
  headerBytes: Uint8Array,
  trailer: ObjectTrailer,
  region: RegionId,
  key: string,
): void {
  try {
    checkHeaderMatchesTrailer(decodeHeader(headerBytes, key), trailer, key);
  } catch (error) {
    if (!(error instanceof CorruptObjectError)) throw error;
    throw new CorruptSegmentError(key, region, 'segment-header', error.check);
  }
}

/**
 * Trailer and segment index from one suffix read: `segments` is null when the footer starts
 * before the window (fetch `footerRange(trailer)` and call `decodeFooter`).
 */
export function decodeIndexFromTail(
  tail: Uint8Array,
  objectSize: number,
  key: string,
  keySeq?: Seq,
): { trailer: ObjectTrailer; segments: SegmentIndex[] | null } {
  const trailer = decodeTrailer(tail, objectSize, key, keySeq);
  const footer = footerFromTail(tail, objectSize, trailer);
  return { trailer, segments: footer === null ? null : decodeFooter(footer, trailer, key) };
}

/** Every check on a whole object, in the order recovery and a reader meet them. */
export function decodeObject(bytes: Uint8Array, key: string): DecodedObject {
  const index = decodeIndexFromTail(bytes, bytes.length, key);
  const trailer = index.trailer;
  const segmentIndex = index.segments ?? [];
  const header = decodeHeader(bytes, key);
  checkHeaderMatchesTrailer(header, trailer, key);
  const segments: DecodedSegment[] = segmentIndex.map((segment) => ({
    index: segment,
    records: decodeSegment(
      bytes.subarray(segment.offset, segment.offset + segment.length),
      segment,
      key,
    ),
  }));
  return { header, trailer, segments };
}
