/**
 * A batch delete on a local directory (`LocalObjectIo.deleteMany`): every key unlinked side by
 * side (libuv's pool runs them four at a time), then each directory that lost a name synced
 * once - where `delete` syncs the directory of each key it removes. A key that was absent
 * counts as deleted; a key whose unlink failed is reported with its typed error; the keys of a
 * directory whose sync failed are reported too, since their removal may not survive a crash.
 * Never removes anything but the files the keys name.
 */
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { batchResult } from './batch-delete';
import type { StorageError } from './errors';
import { ABSENT_ERRNOS, isErrno, syncDir } from './local-files';
import type { BatchDeleteResult } from './object-io';

export interface LocalDeleteTarget {
  /** The file of a key, or throws the key's typed error (a key that cannot name a file). */
  readonly fileOf: (key: string) => string;
  readonly storageError: (error: unknown, key: string) => StorageError;
}

/** Whether an unlink failure means there was no object to delete. */
export function isAbsentOnUnlink(error: unknown): boolean {
  return isErrno(error) && (ABSENT_ERRNOS.has(error.code) || error.code === 'EISDIR');
}

export async function unlinkAll(
  ascending: readonly string[],
  target: LocalDeleteTarget,
): Promise<BatchDeleteResult> {
  const failures = new Map<string, StorageError>();
  const unlinkedIn = new Map<string, string[]>();
  await Promise.all(
    ascending.map(async (key) => {
      try {
        const file = target.fileOf(key);
        await unlink(file);
        const dir = path.dirname(file);
        unlinkedIn.set(dir, [...(unlinkedIn.get(dir) ?? []), key]);
      } catch (error) {
        if (!isAbsentOnUnlink(error)) failures.set(key, target.storageError(error, key));
      }
    }),
  );
  await Promise.all(
    [...unlinkedIn].map(async ([dir, keys]) => {
      try {
        await syncDir(dir);
      } catch (error) {
        for (const key of keys) failures.set(key, target.storageError(error, key));
      }
    }),
  );
  return batchResult(ascending, failures);
}
