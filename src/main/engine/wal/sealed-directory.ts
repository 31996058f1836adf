/**
 * The sealed directory `cairn.segments` (control.md): one record per ended epoch saying where
 * its objects on the chosen chain end, so recovery excludes an object of a sealed epoch above
 * its `lastSeq` for good. Owns the directory's rules as pure functions:
 * - records are kept sorted by epoch; records older than the newest 256 merge into one range
 *   record (its `lastSeq` the highest of the range, which only ever loosens exclusion);
 * - records wholly below the collection boundary are dropped - except the newest, which keeps
 *   telling a later open which epochs were already sealed;
 * - the encoded directory must fit the backend's budget: before a record is added, room for a
 *   worst-case record must remain, else `SegmentDirectoryFull(bytes, budget)`.
 * Restarts alone never fill it (at most 257 records). Never touches storage.
 */
import { encodeSealedDirectory } from './control-fields';
import { SegmentDirectoryFullError } from './errors';
import { MAX_SEQ, type Seq } from './ids';
import type { SealRecord } from './session';

/** Records kept one per epoch; older ones merge into one range record. */
export const SEALED_RECORDS_KEPT = 256;

const MAX_U64 = (1n << 64n) - 1n;
const utf8 = new TextEncoder();

/** Encoded byte length of a directory. */
export function sealedDirectoryBytes(records: readonly SealRecord[]): number {
  return utf8.encode(encodeSealedDirectory(records)).length;
}

/** The most one record can add to the encoded directory (its JSON plus a separating comma). */
export const WORST_CASE_RECORD_BYTES =
  sealedDirectoryBytes([
    { firstEpoch: MAX_U64, lastEpoch: MAX_U64, lastSeq: MAX_SEQ, reason: 'taken-over' },
  ]) -
  sealedDirectoryBytes([]) +
  1;

function maxSeq(a: Seq | null, b: Seq | null): Seq | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/** One record covering all of `records` (non-empty): the merge rule of the directory. */
function mergeRecords(records: readonly SealRecord[]): SealRecord {
  const [first, ...rest] = records;
  if (first === undefined) throw new Error('mergeRecords needs at least one record');
  if (rest.length === 0) return first;
  let merged: SealRecord = { ...first, reason: 'merged' };
  for (const record of rest) {
    merged = {
      firstEpoch: record.firstEpoch < merged.firstEpoch ? record.firstEpoch : merged.firstEpoch,
      lastEpoch: record.lastEpoch > merged.lastEpoch ? record.lastEpoch : merged.lastEpoch,
      lastSeq: maxSeq(merged.lastSeq, record.lastSeq),
      reason: 'merged',
    };
  }
  return merged;
}

function byEpoch(a: SealRecord, b: SealRecord): number {
  if (a.lastEpoch !== b.lastEpoch) return a.lastEpoch < b.lastEpoch ? -1 : 1;
  return a.firstEpoch < b.firstEpoch ? -1 : a.firstEpoch > b.firstEpoch ? 1 : 0;
}

/**
 * Records whose epoch ranges overlap become one (the larger `lastSeq` wins: excluding a chain
 * object would lose acknowledged data, keeping a late one only leaves an orphan).
 */
function mergeOverlapping(sorted: readonly SealRecord[]): SealRecord[] {
  const out: SealRecord[] = [];
  for (const record of sorted) {
    const previous = out[out.length - 1];
    if (previous !== undefined && record.firstEpoch <= previous.lastEpoch) {
      out[out.length - 1] = mergeRecords([previous, record]);
    } else {
      out.push(record);
    }
  }
  return out;
}

function isWhollyBelow(record: SealRecord, boundary: Seq): boolean {
  return record.lastSeq !== null && record.lastSeq < boundary;
}

/** The directory in its normal form: sorted, overlaps merged, the boundary and merge rules applied. */
export function normalizeSealedDirectory(
  records: readonly SealRecord[],
  boundary: Seq,
): SealRecord[] {
  const sorted = mergeOverlapping([...records].sort(byEpoch));
  const newest = sorted[sorted.length - 1];
  const kept = sorted.filter((record) => record === newest || !isWhollyBelow(record, boundary));
  if (kept.length <= SEALED_RECORDS_KEPT) return kept;
  const older = kept.slice(0, kept.length - SEALED_RECORDS_KEPT);
  return [mergeRecords(older), ...kept.slice(kept.length - SEALED_RECORDS_KEPT)];
}

/** Throws `SegmentDirectoryFull` unless the encoded directory fits `budget`. */
export function checkSealedDirectoryBudget(records: readonly SealRecord[], budget: number): void {
  const bytes = sealedDirectoryBytes(records);
  if (bytes > budget) throw new SegmentDirectoryFullError(bytes, budget);
}

export interface DirectoryLimits {
  /** The collection boundary in force. */
  readonly boundary: Seq;
  /** `ManifestStore.maxDirectoryBytes()`. */
  readonly budget: number;
}

/**
 * The directory with `record` added. Worst-case room is reserved first: the directory as it
 * is plus one worst-case record must fit the budget, else `SegmentDirectoryFull(bytes, budget)`
 * and nothing changes.
 */
export function addSealRecord(
  records: readonly SealRecord[],
  record: SealRecord,
  limits: DirectoryLimits,
): SealRecord[] {
  const base = normalizeSealedDirectory(records, limits.boundary);
  const needed = sealedDirectoryBytes(base) + WORST_CASE_RECORD_BYTES;
  if (needed > limits.budget) throw new SegmentDirectoryFullError(needed, limits.budget);
  return normalizeSealedDirectory([...base, record], limits.boundary);
}

/** `addSealRecord` for each record in turn. */
export function addSealRecords(
  records: readonly SealRecord[],
  added: readonly SealRecord[],
  limits: DirectoryLimits,
): SealRecord[] {
  return added.reduce<SealRecord[]>(
    (directory, record) => addSealRecord(directory, record, limits),
    normalizeSealedDirectory(records, limits.boundary),
  );
}

/** The record covering `epoch`, if any. */
export function sealRecordOf(
  records: readonly SealRecord[],
  epoch: bigint,
): SealRecord | undefined {
  return records.find((record) => record.firstEpoch <= epoch && epoch <= record.lastEpoch);
}

/** Whether recovery must exclude an object of `epoch` at `seq`: its epoch was sealed below it. */
export function isExcludedBySeal(records: readonly SealRecord[], seq: Seq, epoch: bigint): boolean {
  const record = sealRecordOf(records, epoch);
  return record !== undefined && (record.lastSeq === null || seq > record.lastSeq);
}

/** The highest epoch any record covers (0 when none): every epoch up to it was sealed. */
export function highestSealedEpoch(records: readonly SealRecord[]): bigint {
  return records.reduce((high, record) => (record.lastEpoch > high ? record.lastEpoch : high), 0n);
}

/**
 * The records an open writes at step (d) for epochs `fromEpoch..toEpoch` (none had a record):
 * an epoch with objects on the chosen chain gets its own `taken-over` record ending at its
 * last one; each run of epochs with none gets one `taken-over` range record with no `lastSeq`
 * (every object of theirs is excluded). Ascending by epoch.
 */
export function takeoverRecords(
  fromEpoch: bigint,
  toEpoch: bigint,
  chain: readonly { readonly seq: Seq; readonly epoch: bigint }[],
): SealRecord[] {
  const lastSeqOf = new Map<bigint, Seq>();
  for (const object of chain) {
    if (object.epoch < fromEpoch || object.epoch > toEpoch) continue;
    const known = lastSeqOf.get(object.epoch);
    if (known === undefined || object.seq > known) lastSeqOf.set(object.epoch, object.seq);
  }
  const records: SealRecord[] = [];
  let gapFrom = fromEpoch;
  for (const epoch of [...lastSeqOf.keys()].sort((a, b) => (a < b ? -1 : 1))) {
    if (epoch > gapFrom)
      records.push({
        firstEpoch: gapFrom,
        lastEpoch: epoch - 1n,
        lastSeq: null,
        reason: 'taken-over',
      });
    records.push({
      firstEpoch: epoch,
      lastEpoch: epoch,
      lastSeq: lastSeqOf.get(epoch) ?? null,
      reason: 'taken-over',
    });
    gapFrom = epoch + 1n;
  }
  if (gapFrom <= toEpoch)
    records.push({ firstEpoch: gapFrom, lastEpoch: toEpoch, lastSeq: null, reason: 'taken-over' });
  return records;
}
