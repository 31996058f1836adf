/**
 * The read-only views of a prefix nobody in this app writes: inspection, the object listing,
 * region rows, the register's history and single-object verification. Every function here
 * only reads (the engine's read-only open and inspect never write). A recovery failure is
 * reported, never thrown: views fall back to what `inspect` can still tell.
 */
import type { ManifestView, RegionsView, WalObjectRow } from '../../../shared/contract/wal';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import {
  decodeControlFields,
  emptyControlState,
  unknownControlFields,
} from '../../engine/wal/control-fields';
import { isWalError } from '../../engine/wal/errors';
import { inspectPrefix } from '../../engine/wal/inspect';
import { openReadOnly, type ReadOnlyLog } from '../../engine/wal/read-only-log';
import { registerStoreOf } from '../../engine/wal/register';
import { sealedDirectoryBytes } from '../../engine/wal/sealed-directory';
import type { RecoveredObject } from '../../engine/wal/session';
import { regionRowsOf, registerViewOf } from './wal-presenters';

/** Recovery failures that mean "this prefix does not open", which views report instead of failing. */
export function isRecoveryFailure(error: unknown): boolean {
  return (
    isWalError(error, 'CorruptObject') ||
    isWalError(error, 'ConflictingObject') ||
    isWalError(error, 'NoCompleteChain') ||
    isWalError(error, 'TailMissing')
  );
}

/** The read-only log of a prefix, or null when its recovery fails. */
export async function readOnlyOrNull(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
): Promise<ReadOnlyLog | null> {
  try {
    return await openReadOnly(io, config);
  } catch (error) {
    if (isRecoveryFailure(error)) return null;
    throw error;
  }
}

export async function readOnlyRegions(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
): Promise<RegionsView> {
  const log = await readOnlyOrNull(io, config);
  if (log !== null)
    return {
      source: 'read-only',
      readOnlyReason: null,
      regions: regionRowsOf(log.catalog, log.control),
    };
  const report = await inspectPrefix(io, config);
  const regions = report.regions.map((region) => ({
    ...region,
    firstId: 0n,
    durableId: region.latestId,
    handedOutId: null,
    holes: 0,
  }));
  return { source: 'inspect', readOnlyReason: null, regions };
}

export interface ObjectLists {
  readonly chain: readonly WalObjectRow[];
  readonly orphans: readonly WalObjectRow[];
  readonly excluded: readonly WalObjectRow[];
  /** GreptimeDB objects below the reclaim boundary (none for Cairn's format). */
  readonly belowBoundary: readonly WalObjectRow[];
}

/** The chain as a catalog holds it (with segment counts). */
export function chainRowsOf(catalog: ObjectCatalog): WalObjectRow[] {
  return [...catalog.objects()].map((object) => ({
    seq: object.seq,
    epoch: object.epoch,
    key: object.key,
    size: object.size,
    status: 'chain' as const,
    segments: object.segments.length,
    entries: object.segments.reduce((sum, segment) => sum + segment.entries, 0),
  }));
}

export function unreadRowsOf(
  objects: readonly RecoveredObject[],
  status: WalObjectRow['status'],
): WalObjectRow[] {
  return objects.map((object) => ({
    seq: object.seq,
    epoch: object.epoch,
    key: object.key,
    size: object.size,
    status,
    segments: null,
    entries: null,
  }));
}

export async function readOnlyObjects(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
): Promise<ObjectLists> {
  const log = await readOnlyOrNull(io, config);
  if (log !== null) {
    return {
      chain: chainRowsOf(log.catalog),
      orphans: unreadRowsOf(log.summary.orphans, 'orphan'),
      excluded: unreadRowsOf(log.summary.excluded, 'excluded'),
      belowBoundary: [],
    };
  }
  const report = await inspectPrefix(io, config);
  return {
    chain: unreadRowsOf(report.chain, 'chain'),
    orphans: unreadRowsOf(report.orphans, 'orphan'),
    excluded: unreadRowsOf(report.excluded, 'excluded'),
    belowBoundary: [],
  };
}

function fieldOrNull<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null;
  }
}

/** The register now, its stored versions (newest first) and the sealed directory's budget. */
export async function manifestOf(
  io: ObjectIo,
  prefix: string,
  limit: number,
): Promise<ManifestView> {
  const store = registerStoreOf(io, prefix);
  const current = await store.read();
  const control = current === null ? emptyControlState() : decodeControlFields(current.fields);
  const history = await store.history(limit);
  return {
    register: registerViewOf(
      current?.version ?? null,
      control,
      current === null ? {} : unknownControlFields(current.fields),
    ),
    history: history.map((entry) => {
      const decoded = fieldOrNull(() => decodeControlFields(entry.fields));
      return {
        version: entry.version,
        writerId: entry.writerId,
        writerEpoch: decoded?.writerEpoch ?? null,
        tail: decoded?.tail ? `seq ${decoded.tail.seq}, epoch ${decoded.tail.epoch}` : null,
        fieldNames: Object.keys(entry.fields).sort(),
      };
    }),
    sealedDirectoryBytes: sealedDirectoryBytes(control.segments),
    sealedDirectoryBudget: store.maxDirectoryBytes(),
  };
}
