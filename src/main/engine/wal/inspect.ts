/**
 * The read-only open (wal.md, "Read-only open"): the same recovery as a writer's open with no
 * epoch CAS and NO write of any kind - it never creates, updates, prunes or deletes - so it can
 * inspect any prefix, a live writer's included, and one whose register does not exist yet.
 * Reports the register's fields, the chain, orphans, excluded objects, where a writer would
 * start and a per-region summary; a recovery that would fail an open is reported as the
 * report's `failure` rather than thrown (storage errors still throw). Also lists the prefixes
 * under a root. Never holds state between calls.
 */
import { linkedIo, slotsOf } from '../objectio/link';
import type { ManifestVersion } from '../manifest/manifest-store';
import type { ObjectIo } from '../objectio/object-io';
import { Slicer } from '../slices';
import type { ObjectStoreWalConfigInput } from './config';
import { decodeControlFields, emptyControlState, unknownControlFields } from './control-fields';
import { CorruptObjectError, WalError, type WalErrorCode } from './errors';
import { NO_ENTRY, type EntryId, type Seq } from './ids';
import { walPrefix } from './keys';
import {
  highestListedSeq,
  provisionalRecovery,
  recoverFromScan,
  scanPrefix,
  startSequenceFor,
  type PrefixScan,
  type Recovery,
  type ListedObject,
  type ScanOptions,
  type ScanWatch,
  type TailOutcome,
} from './recovery';
import { readOnlyTarget, type ReadOnlyTarget } from './read-only-log';
import type { RegionId } from './region-id';
import type { ControlState, RecoveredObject, SealRecord, TailHint } from './session';

export interface InspectedRegister {
  /** False for a prefix no writer ever opened (all fields then show "none"). */
  readonly exists: boolean;
  readonly version: ManifestVersion | null;
  readonly writerEpoch: bigint;
  readonly writerId: string;
  readonly tail: TailHint | null;
  readonly boundary: Seq;
  readonly sealed: readonly SealRecord[];
  readonly watermarks: ReadonlyArray<{ readonly regionId: RegionId; readonly watermark: EntryId }>;
  readonly regions: ReadonlyArray<{ readonly regionId: RegionId; readonly createdAtMs: number }>;
  /** Fields of the register this version does not know (carried over by writers). */
  readonly otherFields: Readonly<Record<string, string>>;
}

export interface InspectedRegion {
  readonly regionId: RegionId;
  readonly latestId: EntryId;
  readonly watermark: EntryId;
  readonly entries: number;
  readonly objects: number;
  readonly bytes: number;
  /** In the register's region table (`createNamespace`). */
  readonly listedInTable: boolean;
}

/** Why a writer open of this prefix would fail at recovery. */
export interface InspectFailure {
  readonly code: WalErrorCode;
  readonly message: string;
  /** The object named, for a `CorruptObject`. */
  readonly key?: string;
}

export interface InspectReport {
  readonly prefix: string;
  readonly register: InspectedRegister;
  /** Objects listed at or above the boundary. */
  readonly listed: number;
  readonly tip: RecoveredObject | null;
  /** Where a writer opening now would put its start object; null when sequences are exhausted. */
  readonly nextSeq: Seq | null;
  readonly chain: readonly RecoveredObject[];
  readonly orphans: readonly RecoveredObject[];
  readonly excluded: readonly RecoveredObject[];
  /** Listed, then gone when read (collected meanwhile). */
  readonly missing: readonly string[];
  readonly regions: readonly InspectedRegion[];
  readonly failure: InspectFailure | null;
  readonly durationMs: number;
}

/** The failures an open's recovery can meet on the data itself; anything else is thrown. */
const REPORTED_FAILURES: ReadonlySet<WalErrorCode> = new Set([
  'CorruptObject',
  'ConflictingObject',
  'NoCompleteChain',
  'TailMissing',
]);

function reportedFailure(error: unknown): InspectFailure {
  if (error instanceof CorruptObjectError)
    return { code: error.code, message: error.message, key: error.key };
  if (error instanceof WalError && REPORTED_FAILURES.has(error.code))
    return { code: error.code, message: error.message };
  throw error;
}

function byRegion(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function registerView(
  version: ManifestVersion | null,
  control: ControlState,
  otherFields: Record<string, string>,
): InspectedRegister {
  return {
    exists: version !== null,
    version,
    writerEpoch: control.writerEpoch,
    writerId: control.writerId,
    tail: control.tail,
    boundary: control.boundary,
    sealed: control.segments,
    watermarks: [...control.watermarks]
      .sort(([a], [b]) => byRegion(a, b))
      .map(([regionId, watermark]) => ({ regionId, watermark })),
    regions: [...control.regions]
      .sort(([a], [b]) => byRegion(a, b))
      .map(([regionId, record]) => ({ regionId, createdAtMs: record.createdAtMs })),
    otherFields,
  };
}

async function regionsOf(
  recovery: Recovery | null,
  control: ControlState,
): Promise<InspectedRegion[]> {
  const regions = new Map<RegionId, InspectedRegion>();
  // A region GC collected whole still reports its watermark as its latest id (wal.md).
  const empty = (regionId: RegionId): InspectedRegion => ({
    regionId,
    latestId: control.watermarks.get(regionId) ?? NO_ENTRY,
    watermark: control.watermarks.get(regionId) ?? NO_ENTRY,
    entries: 0,
    objects: 0,
    bytes: 0,
    listedInTable: control.regions.has(regionId),
  });
  for (const regionId of [...control.regions.keys(), ...control.watermarks.keys()])
    regions.set(regionId, empty(regionId));
  for (const summary of (await recovery?.catalog.regionsInSlices(new Slicer())) ?? []) {
    regions.set(summary.regionId, {
      ...empty(summary.regionId),
      latestId: summary.latestId,
      watermark: summary.watermark,
      entries: summary.entries,
      objects: summary.objects,
      bytes: summary.bytes,
    });
  }
  return [...regions.values()].sort((a, b) => byRegion(a.regionId, b.regionId));
}

function nextSeqOf(scan: PrefixScan | null, control: ControlState): Seq | null {
  try {
    return startSequenceFor({
      highestListedSeq: scan === null ? null : highestListedSeq(scan),
      watermarks: control.watermarks,
      boundary: control.boundary,
    });
  } catch (error) {
    if (error instanceof WalError && error.code === 'SequenceExhausted') return null;
    throw error;
  }
}

/** What one read-only recovery found: the report, and the recovery itself when it succeeded. */
export interface InspectedPrefix {
  readonly report: InspectReport;
  readonly recovery: Recovery | null;
  readonly target: ReadOnlyTarget;
}

/** Recovers `configInput`'s prefix read-only and reports what a writer open would find. */
export async function inspectPrefix(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: ScanOptions<TailOutcome> = {},
): Promise<InspectReport> {
  return (await inspectWithRecovery(io, configInput, options)).report;
}

/** What a read-only inspection read of the register before its scan. */
export interface InspectionStart {
  readonly target: ReadOnlyTarget;
  readonly manifest: Awaited<ReturnType<ReadOnlyTarget['store']['read']>>;
  readonly control: ControlState;
}

export interface InspectOptions extends ScanOptions<TailOutcome> {
  /** Told what the register said, before the scan starts (a progressive open judges with it). */
  readonly started?: (start: InspectionStart) => void;
}

/**
 * `inspectPrefix`, keeping the recovery so a read model can serve region reads from the same
 * scan; with its `memo`, only objects it has not seen are listed and read.
 */
export async function inspectWithRecovery(
  storage: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: InspectOptions = {},
): Promise<InspectedPrefix> {
  // One link for the register read, the scan and whatever reads the recovery later serves.
  const io = linkedIo(storage);
  const target = readOnlyTarget(io, configInput);
  const { prefix, store, startedAt, reread } = target;
  // The register first: whatever it names (the tail) was durable before the listing starts.
  const manifest = await store.read();
  const control = manifest === null ? emptyControlState() : decodeControlFields(manifest.fields);
  const start: InspectionStart = { target, manifest, control };
  options.started?.(start);

  let scan: PrefixScan | null = null;
  let recovery: Recovery | null = null;
  let failure: InspectFailure | null = null;
  // What the listing found, told even when a damaged object then fails the scan: the report
  // says what was listed, not `0 listed` beside objects it could not judge.
  const listed = new Map<string, ListedObject>();
  const watch: ScanWatch<TailOutcome> = {
    listed: (objects) => {
      for (const object of objects) listed.set(object.key, object);
      options.watch?.listed(objects);
    },
    listingDone: () => options.watch?.listingDone(),
    read: (object, outcome, recalled) => options.watch?.read(object, outcome, recalled),
  };
  try {
    scan = await scanPrefix(io, prefix, control.boundary, {
      ...options,
      watch,
      slots: slotsOf(io),
    });
    recovery = await recoverFromScan({ prefix, control, scan, reread, startedAt });
  } catch (error) {
    failure = reportedFailure(error);
  }
  const inspected = await inspectedOf(start, scan, recovery, failure);
  if (scan !== null) return inspected;
  const boundary = control.boundary;
  const count = [...listed.values()].filter((object) => object.seq >= boundary).length;
  return { ...inspected, report: { ...inspected.report, listed: count } };
}

/**
 * The inspection of what a scan still in progress has read (`scan`: the objects listed and
 * read so far), judged provisionally (`provisionalRecovery`): for a progressive open's views.
 */
export async function provisionalInspection(
  start: InspectionStart,
  scan: PrefixScan,
  pending: (seq: Seq) => boolean,
): Promise<InspectedPrefix> {
  const { prefix, startedAt } = start.target;
  const recovery = await provisionalRecovery(
    { prefix, control: start.control, scan, startedAt },
    pending,
  );
  return inspectedOf(start, scan, recovery, null);
}

async function inspectedOf(
  start: InspectionStart,
  scan: PrefixScan | null,
  recovery: Recovery | null,
  failure: InspectFailure | null,
): Promise<InspectedPrefix> {
  const { target, manifest, control } = start;
  const judged = recovery?.control ?? control;
  const report: InspectReport = {
    prefix: target.prefix,
    register: registerView(
      manifest?.version ?? null,
      control,
      manifest === null ? {} : unknownControlFields(manifest.fields),
    ),
    listed: scan?.listed.filter((o) => o.seq >= judged.boundary).length ?? 0,
    tip: recovery?.summary.tip ?? null,
    nextSeq: nextSeqOf(scan, judged),
    chain: recovery?.summary.chain ?? [],
    orphans: recovery?.summary.orphans ?? [],
    excluded: recovery?.summary.excluded ?? [],
    missing: recovery?.missing ?? scan?.missing.map((o) => o.key) ?? [],
    regions: await regionsOf(recovery, judged),
    failure,
    durationMs: performance.now() - target.startedAt,
  };
  return { report, recovery, target };
}

export interface ListedPrefix {
  readonly nodeId: bigint;
  readonly generation: number;
  readonly prefix: string;
}

const NODE_ID = /^(0|[1-9]\d{0,19})$/;
const GENERATION = /^(0|[1-9]\d{0,9})$/;

/** The folder names one level under `folder` (listed with a delimiter, paged). */
async function childNames(io: ObjectIo, folder: string): Promise<string[]> {
  const names: string[] = [];
  for await (const page of io.list(folder, { delimiter: '/' })) {
    for (const common of page.commonPrefixes) {
      if (common.startsWith(folder) && common.endsWith('/'))
        names.push(common.slice(folder.length, -1));
    }
  }
  return names;
}

/** Every `<root>/nodes/<nodeId>/generations/<generation>` that holds anything, sorted. */
export async function listPrefixes(io: ObjectIo, root: string): Promise<ListedPrefix[]> {
  const nodesFolder = `${root}/nodes/`;
  const found: ListedPrefix[] = [];
  for (const node of await childNames(io, nodesFolder)) {
    if (!NODE_ID.test(node) || BigInt(node) >= 1n << 64n) continue;
    const nodeId = BigInt(node);
    for (const generation of await childNames(io, `${nodesFolder}${node}/generations/`)) {
      if (!GENERATION.test(generation) || Number(generation) > 0xffff_ffff) continue;
      found.push({
        nodeId,
        generation: Number(generation),
        prefix: walPrefix(root, nodeId, Number(generation)),
      });
    }
  }
  return found.sort((a, b) =>
    a.nodeId !== b.nodeId ? byRegion(a.nodeId, b.nodeId) : a.generation - b.generation,
  );
}
