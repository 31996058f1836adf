/**
 * Encodes one sealed batch into the bytes of a version-1 WAL object. Deterministic: the same
 * batch always gives the same bytes (regions sorted by id, records by entry id, nothing
 * random, no clock), so a create whose response was lost can be recognised by comparing
 * bytes. It validates what it writes and never touches storage.
 */
import { crc32c } from '@node-rs/crc32';
import { EntryTooLargeError, UnencodableBatchError } from '../errors';
import { isSeq, MAX_POSITION, POSITION_BITS, type EntryId, type Seq } from '../ids';
import { isRegionId, type RegionId } from '../region-id';
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
  RECORD_HEADER_SIZE,
  TRAILER_AT,
  TRAILER_BODY_SIZE,
  TRAILER_MAGIC_BYTES,
  TRAILER_SIZE,
  objectSize,
  type EncodedObject,
  type ObjectBatch,
  type ObjectIdentity,
  type ObjectLink,
  type ObjectTrailer,
  type PositionRun,
  type SegmentIndex,
  type SegmentInput,
  type SegmentRecord,
} from './layout';

const U64_LIMIT = 1n << 64n;
/** A record's length field is a u32. */
export const MAX_RECORD_BYTES = 0xffff_ffff;

interface PlannedFields {
  readonly regionId: RegionId;
  readonly firstId: EntryId;
  readonly lastId: EntryId;
  readonly entries: number;
  readonly length: number;
}

/** A segment checked and measured, ready to write: its records, or a run of positions. */
type PlannedSegment = PlannedFields &
  ({ readonly records: readonly SegmentRecord[] } | { readonly run: PositionRun });

function isU64(value: bigint): boolean {
  return value >= 0n && value < U64_LIMIT;
}

function checkIdentity(batch: ObjectIdentity): void {
  const fail = (reason: string): never => {
    throw new UnencodableBatchError(batch.seq, reason);
  };
  if (!isSeq(batch.seq)) fail('the sequence is outside 0..2^44-1');
  if (!isU64(batch.epoch)) fail(`epoch ${batch.epoch} is not a u64`);
  if (batch.link !== null) {
    if (batch.link.seq < 0n || batch.link.seq >= batch.seq)
      fail(`the link ${batch.link.seq} does not precede the object`);
    if (!isU64(batch.link.epoch)) fail(`link epoch ${batch.link.epoch} is not a u64`);
  }
}

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isInIdOrder(records: readonly SegmentRecord[]): boolean {
  for (let i = 1; i < records.length; i++) if (records[i - 1]!.id > records[i]!.id) return false;
  return true;
}

function isRun(input: SegmentInput): input is PositionRun {
  return !Array.isArray(input);
}

function entriesOf(input: SegmentInput): number {
  return isRun(input) ? input.payloads.length : input.length;
}

/** The ids of `seq`'s positions, first and last. */
function idRangeOf(seq: Seq): { readonly first: EntryId; readonly last: EntryId } {
  return { first: (seq << POSITION_BITS) + 1n, last: (seq << POSITION_BITS) + MAX_POSITION };
}

/** Record bytes of `payload`, after checking that its length fits the record's u32 field. */
function recordLength(regionId: RegionId, payload: Uint8Array): number {
  if (payload.length > MAX_RECORD_BYTES)
    throw new EntryTooLargeError(regionId, payload.length, MAX_RECORD_BYTES);
  return RECORD_HEADER_SIZE + payload.length;
}

/**
 * One region's records in id order, after checking that each id belongs to this object. The
 * records are used as given when already in order (no copy); the checks compare against the
 * sequence's id range instead of splitting each id, because every bigint shift or mask
 * allocates and this loop runs once per entry.
 */
function planRecords(
  seq: Seq,
  regionId: RegionId,
  given: readonly SegmentRecord[],
): PlannedSegment {
  const records = isInIdOrder(given)
    ? given
    : [...given].sort((a, b) => compareBigints(a.id, b.id));
  const range = idRangeOf(seq);
  let previous = -1n;
  let length = 0;
  for (const record of records) {
    if (record.id < range.first || record.id > range.last) {
      throw new UnencodableBatchError(
        seq,
        `entry id ${record.id} is not a position of sequence ${seq}`,
      );
    }
    if (record.id === previous)
      throw new UnencodableBatchError(seq, `entry id ${record.id} appears twice`);
    previous = record.id;
    length += recordLength(regionId, record.bytes);
  }
  const firstId = records[0]!.id;
  const lastId = records[records.length - 1]!.id;
  return { regionId, firstId, lastId, entries: records.length, length, records };
}

/** A run of positions: its first and last ids must both be positions of `seq`. */
function planRun(seq: Seq, regionId: RegionId, run: PositionRun): PlannedSegment {
  const range = idRangeOf(seq);
  const lastId = run.firstId + BigInt(run.payloads.length - 1);
  if (run.firstId < range.first || lastId > range.last) {
    throw new UnencodableBatchError(
      seq,
      `entry ids ${run.firstId}..${lastId} are not positions of sequence ${seq}`,
    );
  }
  let length = 0;
  for (const payload of run.payloads) length += recordLength(regionId, payload);
  return { regionId, firstId: run.firstId, lastId, entries: run.payloads.length, length, run };
}

function planSegment(seq: Seq, regionId: RegionId, input: SegmentInput): PlannedSegment {
  if (!isRegionId(regionId))
    throw new UnencodableBatchError(seq, `region id ${regionId} is not a u64`);
  return isRun(input) ? planRun(seq, regionId, input) : planRecords(seq, regionId, input);
}

function planSegments(batch: ObjectBatch): PlannedSegment[] {
  return [...batch.segments.entries()]
    .filter(([, input]) => entriesOf(input) > 0)
    .sort(([a], [b]) => compareBigints(a, b))
    .map(([regionId, input]) => planSegment(batch.seq, regionId, input));
}

interface LinkFields {
  readonly hasLink: number;
  readonly linkSeq: number;
  readonly linkEpoch: number;
}

/** Header and trailer carry the link alike; "no link" is written as zeros, for determinism. */
function writeLink(view: DataView, at: number, fields: LinkFields, link: ObjectLink | null): void {
  view.setUint32(at + fields.hasLink, link === null ? 0 : 1, true);
  view.setBigUint64(at + fields.linkSeq, link?.seq ?? 0n, true);
  view.setBigUint64(at + fields.linkEpoch, link?.epoch ?? 0n, true);
}

function writeHeader(bytes: Uint8Array, view: DataView, batch: ObjectIdentity): void {
  bytes.set(HEADER_MAGIC_BYTES, HEADER_AT.magic);
  view.setUint16(HEADER_AT.version, FORMAT_VERSION, true);
  view.setUint16(HEADER_AT.flags, FORMAT_FLAGS, true);
  view.setBigUint64(HEADER_AT.seq, batch.seq, true);
  view.setBigUint64(HEADER_AT.epoch, batch.epoch, true);
  writeLink(view, 0, HEADER_AT, batch.link);
  view.setUint32(HEADER_AT.crc, crc32c(bytes.subarray(0, HEADER_BODY_SIZE)), true);
}

function writeRecords(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  records: readonly SegmentRecord[],
): void {
  for (const record of records) {
    view.setBigUint64(at, record.id, true);
    view.setUint32(at + 8, record.bytes.length, true);
    bytes.set(record.bytes, at + RECORD_HEADER_SIZE);
    at += RECORD_HEADER_SIZE + record.bytes.length;
  }
}

/**
 * A run's ids as two u32 halves: within one sequence the position (the low 20 bits) never
 * carries into the high half, so each id is the first one's low half plus its index - no
 * bigint per entry.
 */
function writeRun(bytes: Uint8Array, view: DataView, at: number, run: PositionRun): void {
  const low = Number(run.firstId & 0xffff_ffffn);
  const high = Number(run.firstId >> 32n);
  const payloads = run.payloads;
  for (let i = 0; i < payloads.length; i++) {
    const payload = payloads[i]!;
    view.setUint32(at, low + i, true);
    view.setUint32(at + 4, high, true);
    view.setUint32(at + 8, payload.length, true);
    bytes.set(payload, at + RECORD_HEADER_SIZE);
    at += RECORD_HEADER_SIZE + payload.length;
  }
}

/** Writes the records of one segment at `offset` and returns its footer entry. */
function writeSegment(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  segment: PlannedSegment,
): SegmentIndex {
  if ('run' in segment) writeRun(bytes, view, offset, segment.run);
  else writeRecords(bytes, view, offset, segment.records);
  return {
    regionId: segment.regionId,
    firstId: segment.firstId,
    lastId: segment.lastId,
    entries: segment.entries,
    offset,
    length: segment.length,
    segmentCrc: crc32c(bytes.subarray(offset, offset + segment.length)),
  };
}

function writeFooter(view: DataView, offset: number, segments: readonly SegmentIndex[]): void {
  view.setUint32(offset, segments.length, true);
  segments.forEach((segment, i) => {
    const at = offset + FOOTER_COUNT_SIZE + i * FOOTER_ENTRY_SIZE;
    view.setBigUint64(at + FOOTER_ENTRY_AT.regionId, segment.regionId, true);
    view.setBigUint64(at + FOOTER_ENTRY_AT.firstId, segment.firstId, true);
    view.setBigUint64(at + FOOTER_ENTRY_AT.lastId, segment.lastId, true);
    view.setUint32(at + FOOTER_ENTRY_AT.entries, segment.entries, true);
    view.setBigUint64(at + FOOTER_ENTRY_AT.offset, BigInt(segment.offset), true);
    view.setBigUint64(at + FOOTER_ENTRY_AT.length, BigInt(segment.length), true);
    view.setUint32(at + FOOTER_ENTRY_AT.segmentCrc, segment.segmentCrc, true);
  });
}

function writeTrailer(bytes: Uint8Array, view: DataView, trailer: ObjectTrailer): void {
  const at = bytes.length - TRAILER_SIZE;
  bytes.set(TRAILER_MAGIC_BYTES, at + TRAILER_AT.magic);
  view.setBigUint64(at + TRAILER_AT.seq, trailer.seq, true);
  view.setBigUint64(at + TRAILER_AT.epoch, trailer.epoch, true);
  writeLink(view, at, TRAILER_AT, trailer.link);
  view.setBigUint64(at + TRAILER_AT.footerOffset, BigInt(trailer.footerOffset), true);
  view.setUint32(at + TRAILER_AT.footerLength, trailer.footerLength, true);
  view.setUint32(at + TRAILER_AT.footerCrc, trailer.footerCrc, true);
  view.setUint32(at + TRAILER_AT.crc, crc32c(bytes.subarray(at, at + TRAILER_BODY_SIZE)), true);
}

/**
 * The object for one batch: `UnencodableBatch` if an id does not belong to `seq` (or appears
 * twice), the link does not precede the object, or a number does not fit its field;
 * `EntryTooLarge` for a record above 4 GiB. Regions with no records get no segment; a batch
 * with no records at all is a start object. `allocate` answers `size` bytes holding anything:
 * the layout has no gap, so every byte is written here, each before any checksum reads it (the
 * writer encodes into its committed batches' buffers as they were left, unzeroed).
 */
export function encodeObject(
  batch: ObjectBatch,
  allocate: (size: number) => Uint8Array = zeroBytes,
): EncodedObject {
  checkIdentity(batch);
  const planned = planSegments(batch);
  const segmentBytes = planned.reduce((sum, segment) => sum + segment.length, 0);
  const bytes = allocate(objectSize(planned.length, segmentBytes));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  writeHeader(bytes, view, batch);
  const segments: SegmentIndex[] = [];
  let offset = HEADER_SIZE;
  for (const segment of planned) {
    segments.push(writeSegment(bytes, view, offset, segment));
    offset += segment.length;
  }
  const footerOffset = offset;
  const footerLength = FOOTER_COUNT_SIZE + FOOTER_ENTRY_SIZE * segments.length;
  writeFooter(view, footerOffset, segments);
  const trailer: ObjectTrailer = {
    seq: batch.seq,
    epoch: batch.epoch,
    link: batch.link === null ? null : { seq: batch.link.seq, epoch: batch.link.epoch },
    footerOffset,
    footerLength,
    footerCrc: crc32c(bytes.subarray(footerOffset, footerOffset + footerLength)),
  };
  writeTrailer(bytes, view, trailer);
  return { bytes, trailer, segments };
}

function zeroBytes(size: number): Uint8Array {
  return new Uint8Array(size);
}

/** The object that starts an epoch: no segments, only identity. */
export function encodeStartObject(identity: ObjectIdentity): EncodedObject {
  return encodeObject({ ...identity, segments: new Map() });
}
