/**
 * Recovery of one WAL prefix (wal.md, "Catalog and recovery"): scan the objects from the
 * boundary (list, and one tail read each as the pages arrive), judge the chain, and index the tip's chain into a
 * new catalog with the persisted watermarks applied. On a missing object or a broken link the
 * boundary and watermarks are re-read ONCE and the chain judged again (GC may have run). Fails
 * with `NoCompleteChain` when objects are present but none is complete, and `TailMissing` when
 * the recorded tail is at or above the boundary and not on the chain. It writes nothing: the
 * writer open and `inspect` share it.
 */
import type { ObjectIo } from '../../objectio/object-io';
import { linkIo, slotsOf } from '../../objectio/link';
import { Slicer } from '../../slices';
import { ObjectCatalog } from '../catalog';
import { NoCompleteChainError, TailMissingError } from '../errors';
import type { Seq } from '../ids';
import { objectKey } from '../keys';
import type { ControlState, RecoveredObject, RecoverySummary } from '../session';
import { selectChain, type ChainSelection } from './chain-selection';
import type { ListedObject } from './listing';
import { listObjectPagesInRanges } from './parallel-listing';
import { readIndexesWhileListing, type ScannedObject, type TailOutcome } from './tail-read';
import type { ScanOptions } from './scan-watch';

/** What one listing and its tail reads found. */
export interface PrefixScan {
  /** The boundary the listing started from. */
  readonly from: Seq;
  /** Every object listed, ascending by sequence. */
  readonly listed: readonly ListedObject[];
  readonly objects: readonly ScannedObject[];
  /** Listed, then gone when read. */
  readonly missing: readonly ListedObject[];
}

/**
 * Lists from `from` and reads each object's index, reads starting while the listing pages,
 * every request in a slot of `slots` (a connection's link; a new one for `io` when absent);
 * with a read model's `memo`, only what it has not seen is listed and read.
 */
export async function scanPrefix(
  io: ObjectIo,
  prefix: string,
  from: Seq,
  options: ScanOptions<TailOutcome> = {},
): Promise<PrefixScan> {
  const slots = options.slots ?? slotsOf(io);
  const linked = linkIo(io, slots);
  const memo = options.memo;
  const { listed, scan } = await readIndexesWhileListing(
    linked,
    memo === undefined
      ? listObjectPagesInRanges(linked, prefix, from)
      : memo.pages(linked, prefix, from),
    { ...options, slots },
  );
  return { from, listed, objects: scan.objects, missing: scan.missing };
}

export interface RecoveryInput {
  readonly prefix: string;
  /** The control state the scan started from. */
  readonly control: ControlState;
  readonly scan: PrefixScan;
  /** Re-reads the register (boundary and watermarks) after a missing object or broken link. */
  readonly reread: () => Promise<ControlState>;
  /** `performance.now()` when the recovery began, for the summary's duration. */
  readonly startedAt: number;
}

export interface Recovery {
  readonly catalog: ObjectCatalog;
  readonly summary: RecoverySummary;
  /** The control state the chain was judged against (after a re-read, if one happened). */
  readonly control: ControlState;
  readonly selection: ChainSelection;
  /** Keys listed, then gone when read. */
  readonly missing: readonly string[];
}

export function recoveredOf(object: ScannedObject): RecoveredObject {
  return { seq: object.seq, epoch: object.epoch, key: object.key, size: object.size };
}

/** The largest listed sequence, null when nothing was listed. */
export function highestListedSeq(scan: PrefixScan): Seq | null {
  return scan.listed.length === 0 ? null : (scan.listed[scan.listed.length - 1]?.seq ?? null);
}

/**
 * Throws unless the selection is acceptable: some complete object among those no seal record
 * excludes, and the tail on its chain. Excluded objects alone are no chain to miss: they are
 * late objects of a taken-over epoch, never acknowledged (a fenced opener's start object, say).
 */
function checkSelection(prefix: string, selection: ChainSelection, control: ControlState): void {
  if (selection.tip === null && selection.present.length > selection.excluded.length)
    throw new NoCompleteChainError(prefix);
  const tail = control.tail;
  if (tail === null || tail.seq < control.boundary) return;
  const onChain = selection.chain.some((o) => o.seq === tail.seq && o.epoch === tail.epoch);
  if (!onChain) throw new TailMissingError(objectKey(prefix, tail.seq));
}

async function catalogOf(
  prefix: string,
  chain: readonly ScannedObject[],
  control: ControlState,
): Promise<ObjectCatalog> {
  const catalog = new ObjectCatalog(prefix);
  const slicer = new Slicer();
  // A rejection here (ConflictingObject) fails the open: two writers' objects disagree.
  for (const object of chain) await catalog.indexInSlices(object, slicer);
  for (const [region, id] of control.watermarks) catalog.raiseWatermark(region, id);
  return catalog;
}

export async function recoverFromScan(input: RecoveryInput): Promise<Recovery> {
  let control = input.control;
  let selection = selectChain(input.scan.objects, control);
  if (input.scan.missing.length > 0 || selection.brokenLinks > 0) {
    control = await input.reread();
    selection = selectChain(input.scan.objects, control);
  }
  checkSelection(input.prefix, selection, control);
  return recoveryOf(input, selection, control);
}

/**
 * What a scan still in progress has read so far, judged provisionally: links to objects not
 * read yet (`pending`) are taken on trust, nothing is re-read or refused. The chain is the
 * newest part of the one a finished recovery will find, if those links hold. For a progressive
 * open's views only; never for a writer.
 */
export async function provisionalRecovery(
  input: Omit<RecoveryInput, 'reread'>,
  pending: (seq: Seq) => boolean,
): Promise<Recovery> {
  const selection = selectChain(input.scan.objects, { ...input.control, pending });
  return recoveryOf(input, selection, input.control);
}

async function recoveryOf(
  input: Omit<RecoveryInput, 'reread'>,
  selection: ChainSelection,
  control: ControlState,
): Promise<Recovery> {
  const catalog = await catalogOf(input.prefix, selection.chain, control);
  const summary: RecoverySummary = {
    listed: input.scan.listed.filter((o) => o.seq >= control.boundary).length,
    chain: selection.chain.map(recoveredOf),
    orphans: selection.orphans.map(recoveredOf),
    excluded: selection.excluded.map(recoveredOf),
    tip: selection.tip === null ? null : recoveredOf(selection.tip),
    highestListedSeq: highestListedSeq(input.scan),
    durationMs: performance.now() - input.startedAt,
  };
  return {
    catalog,
    summary,
    control,
    selection,
    missing: input.scan.missing.map((o) => o.key),
  };
}
