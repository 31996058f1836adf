/**
 * Reads what recovery needs of each listed object - its trailer and segment index - with ONE
 * suffix-range read of the last 64 KiB (the whole object when shorter), plus one more range
 * read only when the footer starts before that window; as many objects at a time as the link's
 * width (`IoSlots`: its controller sizes it from the latency and rate it measures), starting
 * while the listing still pages (`readIndexesWhileListing`). Verifies
 * trailer magic and CRC, footer CRC, the trailer's sequence against the key and that the
 * segments tile the body (format/decode). The header is never read here (a reader checks it).
 * An object listed and then not found is reported missing (GC may have collected it); the
 * lowest corrupt object fails the scan with its `CorruptObject(key, check)`.
 */
import { readTail, type ObjectIo } from '../../objectio/object-io';
import { isStorageError } from '../../objectio/errors';
import { fanOut, fanOutWhilePaging, linkIo, slotsOf, type IoSlots } from '../../objectio/link';
import { CorruptObjectError } from '../errors';
import { Slicer } from '../../slices';
import {
  decodeFooterInSlices,
  decodeIndexFromTail,
  footerRange,
  TAIL_WINDOW_BYTES,
  type ObjectLink,
  type SegmentIndex,
} from '../format';
import type { Seq } from '../ids';
import { compareSeq, type ListedObject } from './listing';
import { ScanMemo, type ScanMemoOptions } from './scan-memo';
import { newestFirst, scanStep, watchedPages, type ScanOptions } from './scan-watch';

/** What a read model remembers of Cairn's objects between scans. */
export type TailScanMemo = ScanMemo<TailOutcome>;

export function newTailScanMemo(options: ScanMemoOptions<TailOutcome> = {}): TailScanMemo {
  return new ScanMemo<TailOutcome>(
    (outcome) => outcome.kind !== 'missing',
    (outcome) => (outcome.kind === 'read' ? 64 + outcome.object.segments.length * 96 : 256),
    options,
  );
}

/** A listed object with its verified trailer identity and segment index. */
export interface ScannedObject {
  readonly key: string;
  readonly seq: Seq;
  readonly size: number;
  readonly epoch: bigint;
  readonly link: ObjectLink | null;
  readonly segments: readonly SegmentIndex[];
}

export type TailOutcome =
  | { readonly kind: 'read'; readonly object: ScannedObject }
  | { readonly kind: 'missing'; readonly listed: ListedObject }
  | { readonly kind: 'corrupt'; readonly error: CorruptObjectError };

/**
 * Trailer and index of one object, or what stopped them: gone (`missing`) or damaged
 * (`corrupt`); a storage failure throws. One async step per object: recovery makes thousands.
 */
async function outcomeOf(io: ObjectIo, listed: ListedObject): Promise<TailOutcome> {
  try {
    // An empty object has no byte a suffix read could start at (S3 answers 416, a `Backend`
    // error): judge it by its listed size, as the damage it is. The listing parsed the key
    // already: its sequence is what the trailer must repeat.
    if (listed.size === 0) decodeIndexFromTail(new Uint8Array(0), 0, listed.key, listed.seq);
    const tail = await readTail(io, listed.key, TAIL_WINDOW_BYTES, listed.size);
    const { trailer, segments } = decodeIndexFromTail(
      tail.bytes,
      tail.size,
      listed.key,
      listed.seq,
    );
    // A footer past the tail window is large (past 1,365 regions): decoded in slices.
    const index =
      segments ??
      (await decodeFooterInSlices(
        (await io.get(listed.key, footerRange(trailer))).bytes,
        trailer,
        listed.key,
        new Slicer(),
      ));
    return { kind: 'read', object: scannedOf(listed, tail.size, trailer, index) };
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return { kind: 'missing', listed };
    if (error instanceof CorruptObjectError) return { kind: 'corrupt', error };
    throw error;
  }
}

function scannedOf(
  listed: ListedObject,
  size: number,
  trailer: { readonly epoch: bigint; readonly link: ObjectLink | null },
  segments: readonly SegmentIndex[],
): ScannedObject {
  return {
    key: listed.key,
    seq: listed.seq,
    size,
    epoch: trailer.epoch,
    link: trailer.link,
    segments,
  };
}

/**
 * What a scan would read of `listed`, taken from its whole `bytes` read for another reason (a
 * verify): undefined when they do not check out as the scan would judge them - the scan then
 * reads and judges the object itself.
 */
export function tailOutcomeOfWhole(
  listed: ListedObject,
  bytes: Uint8Array,
): TailOutcome | undefined {
  try {
    const { trailer, segments } = decodeIndexFromTail(bytes, bytes.length, listed.key, listed.seq);
    if (segments === null) return undefined;
    return { kind: 'read', object: scannedOf(listed, bytes.length, trailer, segments) };
  } catch (error) {
    if (error instanceof CorruptObjectError) return undefined;
    throw error;
  }
}

/** Trailer and index of one object; null when it is gone. Corruption throws `CorruptObject`. */
export async function readObjectIndex(
  io: ObjectIo,
  listed: ListedObject,
): Promise<ScannedObject | null> {
  const outcome = await outcomeOf(io, listed);
  if (outcome.kind === 'corrupt') throw outcome.error;
  return outcome.kind === 'read' ? outcome.object : null;
}

export interface TailScan {
  /** Objects read, ascending by sequence. */
  readonly objects: ScannedObject[];
  /** Listed, then not found when read. */
  readonly missing: ListedObject[];
}

/**
 * Reads every listed object's index (`listed` ascending by sequence). Storage errors propagate;
 * a corrupt object fails the whole scan - the lowest one, so the failure does not depend on
 * which read finished first.
 */
export async function readObjectIndexes(
  io: ObjectIo,
  listed: readonly ListedObject[],
  slots: IoSlots = slotsOf(io),
): Promise<TailScan> {
  const linked = linkIo(io, slots);
  return judgeOutcomes(await fanOut(listed, slots, (object) => outcomeOf(linked, object)));
}

/** Outcomes in sequence order: the lowest corrupt object fails the scan. */
function judgeOutcomes(outcomes: readonly TailOutcome[]): TailScan {
  const objects: ScannedObject[] = [];
  const missing: ListedObject[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === 'corrupt') throw outcome.error;
    if (outcome.kind === 'missing') missing.push(outcome.listed);
    else objects.push(outcome.object);
  }
  return { objects, missing };
}

/**
 * `readObjectIndexes` over a listing still in progress: tails are read as pages arrive, the
 * newest objects first, so the open costs about the longer of the listing and the reads, not
 * their sum, and a progressive open sees the top of the chain first. Returns every listed
 * object ascending by sequence with the scan. A listing failure stops new reads, waits for
 * those in flight and is thrown; so is a storage failure of a read.
 */
export async function readIndexesWhileListing(
  io: ObjectIo,
  pages: AsyncIterable<readonly ListedObject[]>,
  options: ScanOptions<TailOutcome> = {},
): Promise<{ listed: ListedObject[]; scan: TailScan }> {
  const slots = options.slots ?? slotsOf(io);
  const linked = linkIo(io, slots);
  const { items: listed, results: outcomes } = await fanOutWhilePaging(
    watchedPages(pages, options.watch),
    slots,
    scanStep(options, (object) => outcomeOf(linked, object)),
    newestFirst,
  );
  const order = listed.map((_, at) => at).sort((a, b) => compareSeq(listed[a]!, listed[b]!));
  return {
    listed: order.map((at) => listed[at]!),
    scan: judgeOutcomes(order.map((at) => outcomes[at]!)),
  };
}
