/**
 * Batch deletes as every caller makes them (`deleteKeys`): the backend's own `deleteMany`
 * when it has one, else `delete` key by key; the checks every backend applies to a batch
 * before it deletes anything (`checkedDeleteBatch`); and a per-key failure as the typed error
 * the batch reports. Decides nothing about what may be deleted.
 */
import { BackendError, isStorageError, UnavailableError, type StorageError } from './errors';
import { MAX_DELETE_BATCH, type BatchDeleteResult, type ObjectIo } from './object-io';
import { compareKeys } from './sorted-listing';

/**
 * `io.deleteMany(keys)`, else `delete` key by key in ascending order; either way each key's
 * failure is reported, and a batch over `MAX_DELETE_BATCH` is refused before anything goes.
 */
export async function deleteKeys(
  io: ObjectIo,
  keys: readonly string[],
): Promise<BatchDeleteResult> {
  const ascending = checkedDeleteBatch(io.endpoint, keys);
  if (io.deleteMany !== undefined) return io.deleteMany(ascending);
  return deleteOneByOne(ascending, io.endpoint, (key) => io.delete(key));
}

/** `delete` of each key in turn, its failure reported rather than thrown. */
export async function deleteOneByOne(
  ascending: readonly string[],
  endpoint: string,
  remove: (key: string) => Promise<void>,
): Promise<BatchDeleteResult> {
  const failures = new Map<string, StorageError>();
  for (const key of ascending) {
    try {
      await remove(key);
    } catch (error) {
      failures.set(key, asStorageError(error, key, endpoint));
    }
  }
  return batchResult(ascending, failures);
}

/** `keys` in ascending (binary) order without repeats; a `Backend` error when too many. */
export function checkedDeleteBatch(endpoint: string, keys: readonly string[]): string[] {
  const ascending = [...new Set(keys)].sort(compareKeys);
  if (ascending.length > MAX_DELETE_BATCH)
    throw new BackendError(
      ascending[0] ?? '',
      endpoint,
      `a batch delete takes at most ${MAX_DELETE_BATCH} keys, got ${ascending.length}`,
    );
  return ascending;
}

/** A batch's result: every key of `ascending` deleted but those `failures` names. */
export function batchResult(
  ascending: readonly string[],
  failures: ReadonlyMap<string, StorageError>,
): BatchDeleteResult {
  return {
    deleted: ascending.filter((key) => !failures.has(key)),
    failed: ascending.flatMap((key) => {
      const error = failures.get(key);
      return error === undefined ? [] : [{ key, error }];
    }),
  };
}

/** A per-key failure as a typed storage error (an untyped one is taken as transient). */
export function asStorageError(error: unknown, key: string, endpoint: string): StorageError {
  if (isStorageError(error)) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new UnavailableError(key, endpoint, why, { cause: error });
}
