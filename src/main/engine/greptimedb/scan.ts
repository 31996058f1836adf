/**
 * What read-only recovery reads of each object of a GreptimeDB prefix: one suffix read
 * covering the trailer and footer and one 54-byte prefix read (the header) - none when the
 * suffix read returned the whole object - plus one more read only when the footer is larger
 * than the suffix window; a bounded number of objects at a time. An object listed and then gone is reported missing; a damaged one is reported with
 * its `CorruptObject` (an object in Cairn's format with a `MixedFormat`) and left out of the
 * chain. Reads only.
 */
import { isStorageError } from '../objectio/errors';
import { Slicer } from '../slices';
import { readTail, type ObjectIo, type TailResult } from '../objectio/object-io';
import { CorruptObjectError, MixedFormatError } from '../wal/errors';
import { HEADER_MAGIC_BYTES, type SegmentIndex } from '../wal/format';
import type { Seq } from '../wal/ids';
import {
  compareSeq,
  listObjectPagesInRanges,
  mapBoundedWhilePaging,
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
  GT_MIN_OBJECT_SIZE,
  GT_TAIL_WINDOW_BYTES,
  gtFooterRange,
  gtHeaderRange,
  type GtHeader,
} from './layout';

/** Objects whose header and tail are read at once. */
export const GT_SCAN_CONCURRENCY = 16;

export interface GtScannedObject extends GtHeader {
  readonly key: string;
  readonly size: number;
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
}

export type GtScanOutcome =
  | { readonly kind: 'read'; readonly object: GtScannedObject }
  | { readonly kind: 'missing' }
  | { readonly kind: 'damaged'; readonly damaged: GtDamagedObject };

/**
 * Header, trailer and footer of one object. An object no larger than the suffix window comes
 * whole from the suffix read, header included; a larger one gets its 54-byte prefix read
 * beside it. One async step for the common case: recovery reads thousands of these.
 */
async function readIndex(
  io: ObjectIo,
  prefix: string,
  listed: ListedObject,
): Promise<GtScannedObject> {
  let head: Uint8Array;
  let tail: TailResult;
  if (listed.size > GT_TAIL_WINDOW_BYTES) {
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
  return {
    seq: header.seq,
    epoch: header.epoch,
    link: header.link,
    reclaimBoundary: header.reclaimBoundary,
    key: listed.key,
    size: tail.size,
    segments: index,
  };
}

async function outcomeOf(
  io: ObjectIo,
  prefix: string,
  listed: ListedObject,
): Promise<GtScanOutcome> {
  try {
    // Too short for any object: judged from the listing, before a range read it cannot satisfy.
    if (listed.size < GT_MIN_OBJECT_SIZE)
      throw new CorruptObjectError(
        listed.key,
        'object-size',
        `${listed.size} bytes, the smallest object is ${GT_MIN_OBJECT_SIZE}`,
      );
    return { kind: 'read', object: await readIndex(io, prefix, listed) };
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
    (outcome) => (outcome.kind === 'read' ? 96 + outcome.object.segments.length * 96 : 256),
    options,
  );
}

/**
 * Lists `prefix`'s objects and reads each one's header, trailer and footer as pages arrive,
 * the newest first.
 */
export async function scanGtPrefix(
  io: ObjectIo,
  prefix: string,
  options: ScanOptions<GtScanOutcome> = {},
): Promise<GtScan> {
  const memo = options.memo;
  const { items, results } = await mapBoundedWhilePaging(
    watchedPages(
      memo === undefined ? listObjectPagesInRanges(io, prefix) : memo.pages(io, prefix, 0n),
      options.watch,
    ),
    options.concurrency ?? GT_SCAN_CONCURRENCY,
    scanStep(options, (object) => outcomeOf(io, prefix, object)),
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
