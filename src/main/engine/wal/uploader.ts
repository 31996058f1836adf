/**
 * The uploader: the create of one sealed object and the reconciliation of its outcome, as
 * storage facts the actor then judges with the failure matrix. A create is one
 * `putIfAbsent`; a clash or an unknown outcome is read back exactly once. It never retries,
 * never decides what a clash means for the store and never touches the catalog.
 */
import { isStorageError, type StorageError } from '../objectio/errors';
import type { ObjectIo } from '../objectio/object-io';
import { decodeTrailer } from './format';

/** What storage says about one create, after at most one read-back. */
export type CreateOutcome =
  /** Created, or the key already holds exactly these bytes (a lost response). */
  | { readonly kind: 'created'; readonly viaReadback: boolean }
  /** Not created, and the key holds no object we could read: may be retried. */
  | { readonly kind: 'transient'; readonly error: StorageError }
  /** Another object holds the key; `epoch` is null when its trailer is not readable. */
  | { readonly kind: 'conflict'; readonly epoch: bigint | null; readonly size: number }
  /** A terminal refusal (access denied, no such bucket, bad request) or a fault below us. */
  | { readonly kind: 'terminal'; readonly error: Error };

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function epochOfTrailer(bytes: Uint8Array, key: string): bigint | null {
  try {
    return decodeTrailer(bytes, bytes.length, key).epoch;
  } catch {
    return null;
  }
}

/** Reads the key back once and compares: identical -> created; different -> conflict; absent or unreadable -> transient. */
export async function reconcileCreate(
  io: ObjectIo,
  key: string,
  bytes: Uint8Array,
  cause: StorageError,
): Promise<CreateOutcome> {
  try {
    const found = await io.get(key);
    if (sameBytes(found.bytes, bytes)) return { kind: 'created', viaReadback: true };
    return { kind: 'conflict', epoch: epochOfTrailer(found.bytes, key), size: found.size };
  } catch (error) {
    if (isStorageError(error, 'Backend')) return { kind: 'terminal', error };
    if (isStorageError(error))
      return { kind: 'transient', error: isStorageError(error, 'NotFound') ? cause : error };
    return { kind: 'terminal', error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** One create of `bytes` at `key`, reconciled. Never throws. */
export async function createObject(
  io: ObjectIo,
  key: string,
  bytes: Uint8Array,
): Promise<CreateOutcome> {
  try {
    await io.putIfAbsent(key, bytes);
    return { kind: 'created', viaReadback: false };
  } catch (error) {
    if (!isStorageError(error)) {
      return { kind: 'terminal', error: error instanceof Error ? error : new Error(String(error)) };
    }
    switch (error.code) {
      case 'AlreadyExists':
      case 'OutcomeUnknown':
        return reconcileCreate(io, key, bytes, error);
      case 'Unavailable':
      case 'NotFound':
        return { kind: 'transient', error };
      case 'Backend':
        return { kind: 'terminal', error };
    }
  }
}
