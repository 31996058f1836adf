/**
 * Opening a WAL prefix for writing: control.md, Protocol point 1, steps (a)-(e), in exactly
 * this order -
 *   (a) take the epoch (CAS `writer_epoch + 1` with a new random writer id) BEFORE listing,
 *   (b) list the prefix and read the register; if a listed object carries an epoch at or above
 *       ours, CAS again above it,
 *   (c) recover and choose the tip,
 *   (d) CAS seal records for every earlier epoch without one (`taken-over`, `lastSeq` = its last
 *       object on the chosen chain, or none), so late objects of a live old writer are excluded
 *       for good,
 *   (e) create the start object, linked to the tip, at `max(listed seqs, watermark >> 20,
 *       boundary) + 64`, and index it.
 * A maintenance open does (a) only. Owns the order of the steps and the start object's create;
 * the register, recovery and the directory rules live in their modules. Never starts the actor.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectIo } from '../objectio/object-io';
import { isStorageError } from '../objectio/errors';
import { assertWritable } from '../objectio/probe';
import type { ObjectCatalog } from './catalog';
import {
  validateWalConfig,
  type ObjectStoreWalConfig,
  type ObjectStoreWalConfigInput,
} from './config';
import { ConflictingObjectError } from './errors';
import { encodeStartObject, type ObjectLink } from './format';
import type { Seq } from './ids';
import { objectKey, walPrefix } from './keys';
import type { WalMetrics } from './metrics';
import {
  recoverFromScan,
  scanPrefix,
  startSequenceFor,
  type Recovery,
  type TailScanMemo,
} from './recovery';
import { EpochRegister, newWriterId, registerStoreOf } from './register';
import { highestSealedEpoch, takeoverRecords } from './sealed-directory';
import type { ControlState, WriterSession } from './session';
import { withStoppedSeal } from './actor/control-changes';

export interface OpenOptions {
  /** Do step (a) only and return a `MaintenanceSession` (GC / obsolete on a prefix that does not open). */
  readonly maintenance?: boolean;
  /** The writer id recorded with the epoch; default: a new random id. */
  readonly writerId?: string;
  /** Receives the recovery seconds and objects. */
  readonly metrics?: WalMetrics;
  /** Run the create-if-absent probe first (default true): a store that overwrites gets no writer. */
  readonly probe?: boolean;
  /** The sealed directory's budget (`ManifestStore.maxDirectoryBytes`), 64 KiB by default. */
  readonly maxDirectoryBytes?: number;
  /**
   * A new memo for each recovery scan: it lists the prefix whole every time (a writer trusts no
   * earlier listing) but recalls what was read of an object still listed with the same size and
   * ETag - a CLI command that read the prefix before it took the epoch reads no object twice.
   */
  readonly scanMemo?: () => TailScanMemo;
}

/** A held epoch without recovery: for GC and obsolete on a prefix that does not open. */
export interface MaintenanceSession {
  readonly io: ObjectIo;
  readonly prefix: string;
  readonly config: ObjectStoreWalConfig;
  readonly register: EpochRegister;
  readonly epoch: bigint;
  readonly writerId: string;
  readonly control: ControlState;
}

/** Whole (b)-(e) rounds tried when the start sequence is taken by an older writer's object. */
export const START_OBJECT_ATTEMPTS = 3;
/** Creates of the start object tried when storage is transiently unavailable. */
const START_CREATE_TRIES = 3;
const RETRY_DELAY_MS = 50;

export function openWriter(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: OpenOptions & { readonly maintenance: true },
): Promise<MaintenanceSession>;
export function openWriter(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options?: OpenOptions & { readonly maintenance?: false },
): Promise<WriterSession>;
export async function openWriter(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: OpenOptions = {},
): Promise<WriterSession | MaintenanceSession> {
  const config = validateWalConfig(configInput);
  if (options.probe ?? true) await assertWritable(io, config.root);
  const prefix = walPrefix(config.root, config.nodeId, config.generation);
  const writerId = options.writerId ?? newWriterId();
  const store = registerStoreOf(io, prefix, {
    writerId,
    maxDirectoryBytes: options.maxDirectoryBytes,
  });
  const register = await EpochRegister.takeEpoch(store, prefix, writerId); // (a)
  if (options.maintenance === true) {
    const { control } = register.current();
    return { io, prefix, config, register, epoch: register.epoch, writerId, control };
  }
  return openAsHolder(io, config, prefix, register, options);
}

/**
 * A writer that re-opens itself (wal.md: its start gap is spent): step (a) from the register
 * version it holds, with a new writer id (`Fenced` if another writer took the prefix: a reopen
 * never takes over); then its earlier epoch is sealed where that writer knows it ended - its
 * last committed object, as a clean stop records it - and (b)-(e) run exactly as any open
 * ((d) finds that epoch sealed already). Everything acknowledged is at or below that object;
 * an object of the earlier epoch above it (a failed create that landed unknown to the writer,
 * or one landing late) is excluded for good, so a failed append of the earlier epoch never
 * reappears after the reopen. Returns the new session; the caller adopts it.
 */
export async function reopenWriter(
  session: WriterSession,
  metrics?: WalMetrics,
): Promise<WriterSession> {
  const register = session.register;
  if (!(register instanceof EpochRegister))
    throw new TypeError(`the writer of ${session.prefix} has no epoch register to re-open from`);
  const earlier = session.epoch;
  const committed = session.catalog.tip();
  await register.retakeEpoch(newWriterId()); // (a)
  await register.update((control) =>
    withStoppedSeal(control, earlier, committed?.seq ?? null, register.directoryBudget),
  );
  return openAsHolder(session.io, session.config, session.prefix, register, { metrics });
}

/** A maintenance open: step (a) only. */
export function openMaintenance(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: Omit<OpenOptions, 'maintenance'> = {},
): Promise<MaintenanceSession> {
  return openWriter(io, configInput, { ...options, maintenance: true });
}

async function openAsHolder(
  io: ObjectIo,
  config: ObjectStoreWalConfig,
  prefix: string,
  register: EpochRegister,
  { metrics, scanMemo }: Pick<OpenOptions, 'metrics' | 'scanMemo'>,
): Promise<WriterSession> {
  for (let attempt = 1; ; attempt++) {
    const recovery = await recoverAsHolder(io, prefix, register, scanMemo?.()); // (b), (c)
    metrics?.recoverySeconds.set(recovery.summary.durationMs / 1000);
    metrics?.recoveryObjects.set(recovery.summary.listed);
    await sealEarlierEpochs(register, recovery); // (d)
    const start = await createStartObject(io, prefix, register, recovery); // (e)
    if (start !== null) {
      return {
        io,
        prefix,
        config,
        epoch: register.epoch,
        writerId: register.writerId,
        register,
        catalog: recovery.catalog,
        startObject: start,
        nextSeq: start.seq + 1n,
        recovery: recovery.summary,
      };
    }
    // An older writer's object took the start sequence after our listing: our seal record
    // already excludes it, so list again and place the start object above it.
    if (attempt >= START_OBJECT_ATTEMPTS) {
      const seq = startSequenceOf(recovery);
      throw new ConflictingObjectError(
        objectKey(prefix, seq),
        `the start sequence was taken by another object ${attempt} times in a row`,
      );
    }
  }
}

/** Steps (b) and (c): list from the boundary, read the register, raise the epoch if needed, judge. */
async function recoverAsHolder(
  io: ObjectIo,
  prefix: string,
  register: EpochRegister,
  memo: TailScanMemo | undefined,
): Promise<Recovery> {
  const startedAt = performance.now();
  const scan = await scanPrefix(io, prefix, register.current().control.boundary, { memo });
  let control = await register.refresh();
  const highestEpoch = scan.objects.reduce((high, o) => (o.epoch > high ? o.epoch : high), -1n);
  if (highestEpoch >= register.epoch) control = await register.raiseEpochAbove(highestEpoch);
  return recoverFromScan({
    prefix,
    control,
    scan,
    reread: () => register.refresh(),
    startedAt,
  });
}

/** Step (d): seal every earlier epoch that has no record yet, from the chosen chain. */
async function sealEarlierEpochs(register: EpochRegister, recovery: Recovery): Promise<void> {
  const { control } = register.current();
  const records = takeoverRecords(
    highestSealedEpoch(control.segments) + 1n,
    register.epoch - 1n,
    recovery.selection.chain,
  );
  if (records.length > 0) await register.seal(records);
}

function startSequenceOf(recovery: Recovery): Seq {
  return startSequenceFor({
    highestListedSeq: recovery.summary.highestListedSeq,
    watermarks: recovery.control.watermarks,
    boundary: recovery.control.boundary,
  });
}

type StartObject = WriterSession['startObject'];

/**
 * Step (e). Returns null when another object holds the start sequence and we still hold the
 * epoch (the caller runs (b)-(e) again); `Fenced` when another writer took the register.
 */
async function createStartObject(
  io: ObjectIo,
  prefix: string,
  register: EpochRegister,
  recovery: Recovery,
): Promise<StartObject | null> {
  const seq = startSequenceOf(recovery);
  const tip = recovery.catalog.tip();
  const link: ObjectLink | null = tip === null ? null : { seq: tip.seq, epoch: tip.epoch };
  const key = objectKey(prefix, seq);
  const { bytes } = encodeStartObject({ seq, epoch: register.epoch, link });
  const outcome = await createOnce(io, key, bytes);
  if (outcome === 'taken') {
    await register.refresh(); // Fenced if a newer opener wrote it.
    return null;
  }
  indexStartObject(recovery.catalog, { seq, epoch: register.epoch, link, size: bytes.length });
  return { seq, epoch: register.epoch, key };
}

function indexStartObject(
  catalog: ObjectCatalog,
  object: { seq: Seq; epoch: bigint; link: ObjectLink | null; size: number },
): void {
  catalog.index({ ...object, segments: [] });
}

/**
 * One logical create: 'created' (also when a lost response had applied it: identical bytes
 * read back) or 'taken' (different bytes there). A transient failure is retried as-is a few
 * times (create-if-absent makes that safe), then thrown.
 */
async function createOnce(
  io: ObjectIo,
  key: string,
  bytes: Uint8Array,
): Promise<'created' | 'taken'> {
  for (let tries = 1; ; tries++) {
    try {
      await io.putIfAbsent(key, bytes);
      return 'created';
    } catch (error) {
      if (!isCreateClash(error)) throw error;
      const stored = await readBack(io, key);
      if (stored !== null) return sameBytes(stored, bytes) ? 'created' : 'taken';
      if (tries >= START_CREATE_TRIES) throw error;
      await sleep(RETRY_DELAY_MS * tries);
    }
  }
}

/** A create that may have met another object, may have applied, or failed transiently. */
function isCreateClash(error: unknown): boolean {
  return (
    isStorageError(error, 'AlreadyExists') ||
    isStorageError(error, 'OutcomeUnknown') ||
    isStorageError(error, 'Unavailable')
  );
}

/** The bytes at `key`, or null when absent or unreadable (a transient outcome). */
async function readBack(io: ObjectIo, key: string): Promise<Uint8Array | null> {
  try {
    return (await io.get(key)).bytes;
  } catch (error) {
    if (isStorageError(error, 'NotFound') || isStorageError(error, 'Unavailable')) return null;
    throw error;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
