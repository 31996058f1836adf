/**
 * Read-only pieces of a prefix's views: object rows from a catalog or a recovery's lists, and
 * the register's history. Every function here only reads.
 */
import type { ManifestView, WalObjectRow } from '../../../shared/contract/wal';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import {
  decodeControlFields,
  emptyControlState,
  unknownControlFields,
} from '../../engine/wal/control-fields';
import { registerStoreOf } from '../../engine/wal/register';
import { sealedDirectoryBytes } from '../../engine/wal/sealed-directory';
import type { RecoveredObject } from '../../engine/wal/session';
import { registerChanges } from './register-diff';
import { registerViewOf } from './wal-presenters';

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
  // One version more than shown: the oldest shown is told as a change from the one before it.
  const history = await store.history(limit + 1);
  return {
    register: registerViewOf(
      current?.version ?? null,
      control,
      current === null ? {} : unknownControlFields(current.fields),
    ),
    history: history.slice(0, limit).map((entry, at) => {
      const decoded = fieldOrNull(() => decodeControlFields(entry.fields));
      const before = history[at + 1];
      return {
        version: entry.version,
        writerId: entry.writerId,
        writerEpoch: decoded?.writerEpoch ?? null,
        tail: decoded?.tail ? `seq ${decoded.tail.seq}, epoch ${decoded.tail.epoch}` : null,
        // Pruning goes oldest first, so the next one in the list is the version before it.
        changes: registerChanges(before?.fields ?? null, entry.fields),
        first: before === undefined,
      };
    }),
    sealedDirectoryBytes: sealedDirectoryBytes(control.segments),
    sealedDirectoryBudget: store.maxDirectoryBytes(),
  };
}
