/**
 * The read side of a WAL prefix, one interface over two formats: inspect, verify and a
 * read-only open with region reads, for Cairn's `CAIRNWAL` v1 and GreptimeDB's `GTWALOBJ`
 * v1, chosen by the target's format. A Cairn recovery that trips over an object of the other
 * format reports `MixedFormat` instead of a corrupt object. Writes nothing, ever.
 */
import { openGtReadOnly } from '../greptimedb/read-only-log';
import { inspectGtPrefix, type GtInspectReport } from '../greptimedb/inspect';
import { gtOutcomeOfWhole, type GtScanOutcome } from '../greptimedb/scan';
import {
  tailOutcomeOfWhole,
  type ListedObject,
  type ScanMemo,
  type ScanOptions,
  type TailOutcome,
} from '../wal/recovery';
import { GT_FORMAT } from '../greptimedb/layout';
import { verifyGtPrefix } from '../greptimedb/verify';
import type { IoSlots } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import type { ObjectCatalog } from '../wal/catalog';
import type { WalEntry } from '../wal/entry';
import { isWalError, MixedFormatError } from '../wal/errors';
import type { EntryId } from '../wal/ids';
import { inspectPrefix, type InspectReport } from '../wal/inspect';
import type { Provider } from '../wal/provider';
import { openReadOnly } from '../wal/read-only-log';
import type { ReadOptions } from '../wal/reader';
import { verifyPrefix, type VerifyReport } from '../wal/verify';
import { CAIRN_FORMAT, explainCorruption, formatOfObject, type WalFormat } from './format';
import type { ReadTarget } from './target';

export type CairnInspectReport = InspectReport & { readonly format: typeof CAIRN_FORMAT };
export type AnyInspectReport = CairnInspectReport | GtInspectReport;

export interface AnyReadOnlyLog {
  readonly format: WalFormat;
  readonly prefix: string;
  readonly catalog: ObjectCatalog;
  read(provider: Provider, fromId: EntryId, options?: ReadOptions): AsyncIterable<WalEntry>;
  /** Whether the format's region table lists the region (Cairn's register; GreptimeDB has none). */
  listsRegion?(region: bigint): boolean;
}

/** How an inspection scans, per format: what it may recall (a local index), who watches it. */
export interface InspectScan {
  readonly cairn?: ScanOptions<TailOutcome>;
  readonly greptimedb?: ScanOptions<GtScanOutcome>;
}

export async function inspectTarget(
  io: ObjectIo,
  target: ReadTarget,
  scan: InspectScan = {},
): Promise<AnyInspectReport> {
  if (target.format === GT_FORMAT) return inspectGtPrefix(io, target.prefix, scan.greptimedb);
  const report = await inspectPrefix(io, target.config, scan.cairn);
  const key = report.failure?.key;
  if (key === undefined) return { ...report, format: CAIRN_FORMAT };
  const mixed = await formatOfObject(io, key);
  if (mixed !== GT_FORMAT) return { ...report, format: CAIRN_FORMAT };
  const failure = new MixedFormatError(target.prefix, key, CAIRN_FORMAT, mixed);
  return {
    ...report,
    format: CAIRN_FORMAT,
    failure: { code: failure.code, message: failure.message, key },
  };
}

/**
 * Verifies every object of the target, in the slots of `slots` (a new link for `io` when
 * absent). With `scan`'s memo of the target's format, each sound object's whole read also
 * gives what recovery reads of it, remembered there: a prefix verified is opened next with no
 * object read again (one read per object, in all).
 */
export async function verifyTarget(
  io: ObjectIo,
  target: ReadTarget,
  slots?: IoSlots,
  scan: InspectScan = {},
): Promise<VerifyReport> {
  if (target.format === GT_FORMAT) {
    const memo = scan.greptimedb?.memo;
    return verifyGtPrefix(io, target.prefix, slots, {
      sound:
        memo && ((listed, bytes) => rememberWhole(memo, listed, gtOutcomeOfWhole(listed, bytes))),
    });
  }
  const memo = scan.cairn?.memo;
  return verifyPrefix(io, target.config, slots, {
    sound:
      memo && ((listed, bytes) => rememberWhole(memo, listed, tailOutcomeOfWhole(listed, bytes))),
  });
}

function rememberWhole<T>(memo: ScanMemo<T>, listed: ListedObject, outcome: T | undefined): void {
  if (outcome !== undefined) memo.remember(listed, outcome);
}

/** The one face both formats' read-only logs show. */
function anyLog(format: WalFormat, log: Omit<AnyReadOnlyLog, 'format'>): AnyReadOnlyLog {
  return {
    format,
    prefix: log.prefix,
    catalog: log.catalog,
    read: (provider, from, options) => log.read(provider, from, options),
    listsRegion: (region) => log.listsRegion?.(region) ?? false,
  };
}

/** With `scan`'s memo of the target's format, objects read before are not read again. */
export async function openTargetReadOnly(
  io: ObjectIo,
  target: ReadTarget,
  scan: InspectScan = {},
): Promise<AnyReadOnlyLog> {
  if (target.format === GT_FORMAT)
    return anyLog(
      GT_FORMAT,
      await openGtReadOnly(io, target.prefix, { memo: scan.greptimedb?.memo }),
    );
  try {
    return anyLog(CAIRN_FORMAT, await openReadOnly(io, target.config, { memo: scan.cairn?.memo }));
  } catch (error) {
    throw isWalError(error, 'CorruptObject')
      ? await explainCorruption(io, target.prefix, CAIRN_FORMAT, error)
      : error;
  }
}
