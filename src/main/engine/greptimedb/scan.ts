/**
 * What read-only recovery reads of each object of a GreptimeDB prefix, in either GTWALOBJ v1
 * layout: one suffix read covering the trailer and footer and one prefix read (the header) -
 * none when the suffix read returned the whole object, and one whole read instead of both when
 * the object is only a little larger than the window - plus one more read only when the footer
 * is larger than the suffix window; as many objects at a time as the link's width (`IoSlots`).
 * Each object's layout is told by where its footer places the body (54: chained, 34: merged),
 * or, when the footer cannot say, by whether the chained header's CRC matches. An object
 * listed and then gone is reported missing; a damaged one with its `CorruptObject` and the
 * layout it was judged in (an object in Cairn's format with a `MixedFormat`). Reads only.
 */
import { crc32 } from '@node-rs/crc32';
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
import {
  decodeGtFooterInSlices,
  decodeGtHeader,
  decodeGtIndexFromTail,
  hasMagic,
  viewOf,
} from './decode';
import {
  GT_FORMAT,
  GT_HEADER_AT,
  GT_HEADER_BODY_SIZE,
  GT_HEADER_SIZE,
  GT_MIN_OBJECT_SIZE,
  GT_TAIL_WINDOW_BYTES,
  gtFooterRange,
  gtHeaderRange,
  type GtHeader,
} from './layout';
import {
  decodeGtWriterInstanceHeader,
  GT_WRITER_HEADER_SIZE,
  gtBodyStart,
  type GtLayout,
} from './writer-instance';

/** The smallest object of either layout: the merged layout's, with no segment. */
const GT_SMALLEST_OBJECT = GT_MIN_OBJECT_SIZE - GT_HEADER_SIZE + GT_WRITER_HEADER_SIZE;

/**
 * One object's header and footer. In the merged layout (`writer-instance-header`) there is no
 * epoch, link or reclaim boundary: they read 0, none and 0, and `writerInstance` is set.
 */
export interface GtScannedObject extends GtHeader {
  readonly key: string;
  readonly size: number;
  readonly layout: GtLayout;
  /** The merged layout's 16-byte writer instance as hex; null in the chained layout. */
  readonly writerInstance: string | null;
  /** As listed; null when the store did not say. */
  readonly lastModifiedMs: number | null;
  readonly segments: readonly SegmentIndex[];
}

export interface GtDamagedObject {
  readonly key: string;
  readonly seq: Seq;
  readonly size: number;
  /** The layout it was judged in; null when too short for any or in Cairn's format. */
  readonly layout: GtLayout | null;
  /** A `MixedFormat` for an object in Cairn's format. */
  readonly error: CorruptObjectError | MixedFormatError;
}

export interface GtScan {
  readonly listed: readonly ListedObject[];
  /** Objects read whole-header and footer, ascending by sequence. */
  readonly objects: readonly GtScannedObject[];
  readonly missing: readonly ListedObject[];
  readonly damaged: readonly GtDamagedObject[];
}

export type GtScanOutcome =
  | { readonly kind: 'read'; readonly object: GtScannedObject }
  | { readonly kind: 'missing' }
  | { readonly kind: 'damaged'; readonly damaged: GtDamagedObject };

interface ObjectEnds {
  readonly head: Uint8Array;
  readonly tail: TailResult;
}

/**
 * The header bytes and a suffix of one object. An object no larger than the suffix window
 * comes whole from the suffix read, header included; a larger one gets its header read beside
 * it. One async step for the common case: recovery reads thousands of these.
 */
async function readEnds(io: ObjectIo, listed: ListedObject): Promise<ObjectEnds> {
  const whole = await wholeWhenClose(io, listed);
  if (whole !== null) return { head: whole.bytes, tail: whole };
  if (listed.size > GT_TAIL_WINDOW_BYTES) {
    const [header, tail] = await Promise.all([
      io.get(listed.key, gtHeaderRange()),
      readTail(io, listed.key, GT_TAIL_WINDOW_BYTES, listed.size),
    ]);
    return { head: header.bytes, tail };
  }
  const tail = await readTail(io, listed.key, GT_TAIL_WINDOW_BYTES, listed.size);
  const head =
    tail.bytes.length === tail.size
      ? tail.bytes
      : (await io.get(listed.key, gtHeaderRange())).bytes;
  return { head, tail };
}

/** The layout by the footer's body start, else by the chained header's own CRC. */
function layoutOfEnds({ head, tail }: ObjectEnds): GtLayout {
  const start = gtBodyStart(tail.bytes, tail.size);
  if (start === GT_WRITER_HEADER_SIZE) return 'writer-instance-header';
  if (start === GT_HEADER_SIZE) return 'chain-header';
  const crcMatches =
    head.length >= GT_HEADER_SIZE &&
    crc32(head.subarray(0, GT_HEADER_BODY_SIZE)) ===
      viewOf(head).getUint32(GT_HEADER_AT.crc, false);
  return crcMatches ? 'chain-header' : 'writer-instance-header';
}

/** The header's fields, as the layout has them (the merged layout's have no epoch or link). */
function headerOf(
  head: Uint8Array,
  listed: ListedObject,
  layout: GtLayout,
): GtHeader & { readonly writerInstance: string | null } {
  // The listing parsed the key: its sequence is what the header must repeat.
  if (layout === 'chain-header') {
    const header = decodeGtHeader(head, listed.key, listed.seq);
    return {
      seq: header.seq,
      epoch: header.epoch,
      link: header.link,
      reclaimBoundary: header.reclaimBoundary,
      writerInstance: null,
    };
  }
  const header = decodeGtWriterInstanceHeader(head, listed.key, listed.seq);
  return {
    seq: header.seq,
    epoch: 0n,
    link: null,
    reclaimBoundary: 0n,
    writerInstance: header.writerInstance,
  };
}

async function indexOf(
  io: ObjectIo,
  listed: ListedObject,
  ends: ObjectEnds,
  layout: GtLayout,
): Promise<GtScannedObject> {
  const header = headerOf(ends.head, listed, layout);
  const headerSize = layout === 'chain-header' ? GT_HEADER_SIZE : GT_WRITER_HEADER_SIZE;
  const { tail } = ends;
  const { trailer, segments } = decodeGtIndexFromTail(
    tail.bytes,
    tail.size,
    listed.key,
    headerSize,
  );
  // A footer past the suffix window is large (past 1,365 regions): decoded in slices.
  const index =
    segments ??
    (await decodeGtFooterInSlices(
      (await io.get(listed.key, gtFooterRange(trailer))).bytes,
      trailer,
      listed.key,
      new Slicer(),
      headerSize,
    ));
  return scannedOf(header, listed, tail.size, layout, index);
}

/**
 * One scanned object, its fields written out (no spread): a cold open makes one per object,
 * 100,000 on a big prefix, and every later pass reads them.
 */
function scannedOf(
  header: ReturnType<typeof headerOf>,
  listed: ListedObject,
  size: number,
  layout: GtLayout,
  segments: readonly SegmentIndex[],
): GtScannedObject {
  return {
    seq: header.seq,
    epoch: header.epoch,
    link: header.link,
    reclaimBoundary: header.reclaimBoundary,
    writerInstance: header.writerInstance,
    key: listed.key,
    size,
    layout,
    lastModifiedMs: listed.lastModifiedMs ?? null,
    segments,
  };
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
    const ends = { head: bytes, tail: { bytes, size: bytes.length } };
    const layout = layoutOfEnds(ends);
    const header = headerOf(bytes, listed, layout);
    const headerSize = layout === 'chain-header' ? GT_HEADER_SIZE : GT_WRITER_HEADER_SIZE;
    const { segments } = decodeGtIndexFromTail(bytes, bytes.length, listed.key, headerSize);
    if (segments === null) return undefined;
    return { kind: 'read', object: scannedOf(header, listed, bytes.length, layout, segments) };
  } catch (error) {
    if (error instanceof CorruptObjectError) return undefined;
    throw error;
  }
}

async function readIndex(
  io: ObjectIo,
  prefix: string,
  listed: ListedObject,
): Promise<GtScanOutcome> {
  const ends = await readEnds(io, listed);
  if (hasMagic(ends.head, 0, HEADER_MAGIC_BYTES))
    throw new MixedFormatError(prefix, listed.key, GT_FORMAT, 'cairn-v1');
  const layout = layoutOfEnds(ends);
  try {
    return { kind: 'read', object: await indexOf(io, listed, ends, layout) };
  } catch (error) {
    if (!(error instanceof CorruptObjectError)) throw error;
    const { key, seq, size } = listed;
    return { kind: 'damaged', damaged: { key, seq, size, layout, error } };
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
        damaged: { key: listed.key, seq: listed.seq, size: listed.size, layout: null, error },
      };
    throw error;
  }
}

/** What a read model remembers of a GreptimeDB prefix's objects between scans. */
export type GtScanMemo = ScanMemo<GtScanOutcome>;

export function newGtScanMemo(options: ScanMemoOptions<GtScanOutcome> = {}): GtScanMemo {
  return new ScanMemo<GtScanOutcome>(
    (outcome) => outcome.kind !== 'missing',
    (outcome) => (outcome.kind === 'read' ? 96 + outcome.object.segments.length * 96 : 256),
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
  for (const at of order) {
    const outcome = results[at];
    if (outcome === undefined) continue;
    if (outcome.kind === 'read') objects.push(outcome.object);
    else if (outcome.kind === 'damaged') damaged.push(outcome.damaged);
    else missing.push(items[at]!);
  }
  return { listed: order.map((at) => items[at]!), objects, missing, damaged };
}
