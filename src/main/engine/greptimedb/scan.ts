/**
 * What read-only recovery reads of each object of a GreptimeDB prefix: one suffix read
 * covering the trailer and footer and one 54-byte prefix read (the header) - none when the
 * suffix read returned the whole object, and one whole read instead of both when the object
 * is only a little larger than the window - plus one more read only when the footer is larger
 * than the suffix window; as many objects at a time as the link's width (`IoSlots`). An
 * object listed and then gone is reported missing; a damaged one is reported with its
 * `CorruptObject` (an object in Cairn's format with a `MixedFormat`) and left out of the
 * chain. An object whose footer puts its body at byte 34 is read whole and, when it checks out
 * in GreptimeDB's writer-instance layout, reported as that layout (never as damage). Reads only.
 */
import { isStorageError } from '../objectio/errors';
import { coveringReads } from '../objectio/coalesce';
import { fanOutWhilePaging, linkIo, slotsOf } from '../objectio/link';
import { Slicer } from '../slices';
import { readTail, type ObjectIo, type TailResult } from '../objectio/object-io';
import { CorruptObjectError, MixedFormatError } from '../wal/errors';
import { HEADER_MAGIC_BYTES, type SegmentIndex } from '../wal/format';
import type { Seq } from '../wal/ids';
import {
  compareSeq,
  listObjectPagesInRanges,
  newestFirst,
  ScanMemo,
  scanStep,
  watchedPages,
  type ListedObject,
  type ScanMemoOptions,
  type ScanOptions,
} from '../wal/recovery';
import { decodeGtFooterInSlices, decodeGtHeader, decodeGtIndexFromTail, hasMagic } from './decode';
import {
  GT_FORMAT,
  GT_HEADER_SIZE,
  GT_MIN_OBJECT_SIZE,
  GT_TAIL_WINDOW_BYTES,
  gtFooterRange,
  gtHeaderRange,
  type GtHeader,
} from './layout';
import {
  decodeGtWriterInstanceObject,
  GT_LAYOUT_NAMES,
  GT_WRITER_HEADER_SIZE,
  gtBodyStart,
} from './writer-instance';

/** The smallest object of either layout: the writer-instance layout's, with no segment. */
const GT_SMALLEST_OBJECT = GT_MIN_OBJECT_SIZE - GT_HEADER_SIZE + GT_WRITER_HEADER_SIZE;

export interface GtScannedObject extends GtHeader {
  readonly key: string;
  readonly size: number;
  readonly segments: readonly SegmentIndex[];
}

/** An object in GreptimeDB's writer-instance layout: sound, but no part of any chain. */
export interface GtOtherLayoutObject {
  readonly key: string;
  readonly seq: Seq;
  readonly size: number;
  readonly layout: string;
  readonly writerInstance: string;
  readonly segments: readonly SegmentIndex[];
}

export interface GtDamagedObject {
  readonly key: string;
  readonly seq: Seq;
  readonly size: number;
  /** A `MixedFormat` for an object in Cairn's format. */
  readonly error: CorruptObjectError | MixedFormatError;
}

export interface GtScan {
  readonly listed: readonly ListedObject[];
  /** Objects read whole-header and footer, ascending by sequence. */
  readonly objects: readonly GtScannedObject[];
  readonly missing: readonly ListedObject[];
  readonly damaged: readonly GtDamagedObject[];
  readonly otherLayout: readonly GtOtherLayoutObject[];
}

export type GtScanOutcome =
  | { readonly kind: 'read'; readonly object: GtScannedObject }
  | { readonly kind: 'other-layout'; readonly object: GtOtherLayoutObject }
  | { readonly kind: 'missing' }
  | { readonly kind: 'damaged'; readonly damaged: GtDamagedObject };

/**
 * Header, trailer and footer of one object. An object no larger than the suffix window comes
 * whole from the suffix read, header included; a larger one gets its 54-byte prefix read
 * beside it. One async step for the common case: recovery reads thousands of these.
 */
/** An object whose footer puts its body at byte 34, read whole and checked in that layout. */
async function readOtherLayout(
  io: ObjectIo,
  listed: ListedObject,
  tail: TailResult,
): Promise<GtOtherLayoutObject> {
  const bytes = tail.bytes.length === tail.size ? tail.bytes : (await io.get(listed.key)).bytes;
  return otherLayoutOf(listed, bytes);
}

/** A whole object in the writer-instance layout, checked in it. */
function otherLayoutOf(listed: ListedObject, bytes: Uint8Array): GtOtherLayoutObject {
  const decoded = decodeGtWriterInstanceObject(bytes, listed.key);
  return {
    key: listed.key,
    seq: decoded.header.seq,
    size: bytes.length,
    layout: GT_LAYOUT_NAMES['writer-instance-header'],
    writerInstance: decoded.header.writerInstance,
    segments: decoded.segments,
  };
}

async function readIndex(
  io: ObjectIo,
  prefix: string,
  listed: ListedObject,
): Promise<GtScanOutcome> {
  let head: Uint8Array;
  let tail: TailResult;
  const whole = await wholeWhenClose(io, listed);
  if (whole !== null) {
    head = whole.bytes;
    tail = whole;
  } else if (listed.size > GT_TAIL_WINDOW_BYTES) {
    const [header, suffix] = await Promise.all([
      io.get(listed.key, gtHeaderRange()),
      readTail(io, listed.key, GT_TAIL_WINDOW_BYTES, listed.size),
    ]);
    head = header.bytes;
    tail = suffix;
  } else {
    tail = await readTail(io, listed.key, GT_TAIL_WINDOW_BYTES, listed.size);
    head =
      tail.bytes.length === tail.size
        ? tail.bytes
        : (await io.get(listed.key, gtHeaderRange())).bytes;
  }
  if (hasMagic(head, 0, HEADER_MAGIC_BYTES))
    throw new MixedFormatError(prefix, listed.key, GT_FORMAT, 'cairn-v1');
  if (gtBodyStart(tail.bytes, tail.size) === GT_WRITER_HEADER_SIZE)
    return { kind: 'other-layout', object: await readOtherLayout(io, listed, tail) };
  // The listing parsed the key: its sequence is what the header must repeat.
  const header = decodeGtHeader(head, listed.key, listed.seq);
  const { trailer, segments } = decodeGtIndexFromTail(tail.bytes, tail.size, listed.key);
  // A footer past the suffix window is large (past 1,365 regions): decoded in slices.
  const index =
    segments ??
    (await decodeGtFooterInSlices(
      (await io.get(listed.key, gtFooterRange(trailer))).bytes,
      trailer,
      listed.key,
      new Slicer(),
    ));
  return { kind: 'read', object: scannedOf(header, listed.key, tail.size, index) };
}

function scannedOf(
  header: GtHeader,
  key: string,
  size: number,
  segments: readonly SegmentIndex[],
): GtScannedObject {
  const { seq, epoch, link, reclaimBoundary } = header;
  return { seq, epoch, link, reclaimBoundary, key, size, segments };
}

/**
 * What a scan would read of `listed`, taken from its whole `bytes` read for another reason (a
 * verify): undefined when they do not check out as the scan would judge them - the scan then
 * reads and judges the object itself.
 */
export function gtOutcomeOfWhole(
  listed: ListedObject,
  bytes: Uint8Array,
): GtScanOutcome | undefined {
  try {
    if (hasMagic(bytes, 0, HEADER_MAGIC_BYTES)) return undefined;
    if (gtBodyStart(bytes, bytes.length) === GT_WRITER_HEADER_SIZE)
      return { kind: 'other-layout', object: otherLayoutOf(listed, bytes) };
    const header = decodeGtHeader(bytes, listed.key, listed.seq);
    const { segments } = decodeGtIndexFromTail(bytes, bytes.length, listed.key);
    if (segments === null) return undefined;
    return { kind: 'read', object: scannedOf(header, listed.key, bytes.length, segments) };
  } catch (error) {
    if (error instanceof CorruptObjectError) return undefined;
    throw error;
  }
}

/**
 * An object a little larger than the suffix window, read whole in one request: the gap between
 * its header and its tail is small enough (`coveringReads`) that one read costs less than two.
 * Null when the gap is larger, the object fits the window (the suffix read has it whole), or
 * the object is not the size listed (read it the usual way).
 */
async function wholeWhenClose(io: ObjectIo, listed: ListedObject): Promise<TailResult | null> {
  const { size } = listed;
  if (size <= GT_TAIL_WINDOW_BYTES) return null;
  const reads = coveringReads([
    { start: 0, end: GT_HEADER_SIZE },
    { start: size - GT_TAIL_WINDOW_BYTES, end: size },
  ]);
  if (reads.length !== 1) return null;
  const got = await io.get(listed.key, { start: 0, end: size - 1 });
  return got.size === size && got.bytes.length === size ? { bytes: got.bytes, size } : null;
}

async function outcomeOf(
  io: ObjectIo,
  prefix: string,
  listed: ListedObject,
): Promise<GtScanOutcome> {
  try {
    // Too short for any object: judged from the listing, before a range read it cannot satisfy.
    if (listed.size < GT_SMALLEST_OBJECT)
      throw new CorruptObjectError(
        listed.key,
        'object-size',
        `${listed.size} bytes, the smallest object is ${GT_SMALLEST_OBJECT}`,
      );
    return await readIndex(io, prefix, listed);
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return { kind: 'missing' };
    if (error instanceof CorruptObjectError || error instanceof MixedFormatError)
      return {
        kind: 'damaged',
        damaged: { key: listed.key, seq: listed.seq, size: listed.size, error },
      };
    throw error;
  }
}

/** What a read model remembers of a GreptimeDB prefix's objects between scans. */
export type GtScanMemo = ScanMemo<GtScanOutcome>;

export function newGtScanMemo(options: ScanMemoOptions<GtScanOutcome> = {}): GtScanMemo {
  return new ScanMemo<GtScanOutcome>(
    (outcome) => outcome.kind !== 'missing',
    (outcome) =>
      outcome.kind === 'read' || outcome.kind === 'other-layout'
        ? 96 + outcome.object.segments.length * 96
        : 256,
    options,
  );
}

/**
 * Lists `prefix`'s objects and reads each one's header, trailer and footer as pages arrive,
 * the newest first, every request in a slot of the link (`options.slots`; a new one for `io`
 * when absent).
 */
export async function scanGtPrefix(
  io: ObjectIo,
  prefix: string,
  options: ScanOptions<GtScanOutcome> = {},
): Promise<GtScan> {
  const slots = options.slots ?? slotsOf(io);
  const linked = linkIo(io, slots);
  const memo = options.memo;
  const { items, results } = await fanOutWhilePaging(
    watchedPages(
      memo === undefined ? listObjectPagesInRanges(linked, prefix) : memo.pages(linked, prefix, 0n),
      options.watch,
    ),
    slots,
    scanStep(options, (object) => outcomeOf(linked, prefix, object)),
    newestFirst,
  );
  return gtScanOf(items, results);
}

/** Every listed object and its outcome, sorted into a scan (also a provisional one's). */
export function gtScanOf(
  items: readonly ListedObject[],
  results: readonly (GtScanOutcome | undefined)[],
): GtScan {
  const order = items.map((_, at) => at).sort((a, b) => compareSeq(items[a]!, items[b]!));
  const objects: GtScannedObject[] = [];
  const missing: ListedObject[] = [];
  const damaged: GtDamagedObject[] = [];
  const otherLayout: GtOtherLayoutObject[] = [];
  for (const at of order) {
    const outcome = results[at];
    if (outcome === undefined) continue;
    if (outcome.kind === 'read') objects.push(outcome.object);
    else if (outcome.kind === 'other-layout') otherLayout.push(outcome.object);
    else if (outcome.kind === 'damaged') damaged.push(outcome.damaged);
    else missing.push(items[at]!);
  }
  return { listed: order.map((at) => items[at]!), objects, missing, damaged, otherLayout };
}
