/**
 * Deletes on a local directory (`LocalObjectIo.delete` and `deleteMany`): every key unlinked
 * side by side (libuv's pool runs them four at a time), then each folder that lost a name
 * synced once. A key that was absent counts as deleted; a key whose unlink failed is reported
 * with its typed error; the keys of a folder whose sync failed are reported too, since their
 * removal may not survive a crash.
 *
 * Never removes anything but the files the keys name inside the store: where the kernel names
 * descriptors (Linux), each key's folder is opened from the root without following a link
 * (`FolderHandles`) and the name unlinked relative to that open folder, so a folder swapped for
 * a link at any moment - before, during or after the check - cannot redirect the unlink out of
 * the store (docs/design/local-deletes.md). A key whose folder is a link is refused with
 * `KeyCrossesLink` and reported, never counted deleted. Elsewhere the folder is resolved just
 * before the unlink (`LocalConfinement.checkFolder`), which a swap in between could race.
 */
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { batchResult } from './batch-delete';
import type { StorageError } from './errors';
import { PROC_FD_DIR, parentOf } from './local-confinement';
import { KeyCrossesLinkError } from './local-errors';
import { FolderHandles } from './local-folder-handles';
import { ABSENT_ERRNOS, isErrno, syncDir } from './local-files';
import type { BatchDeleteResult } from './object-io';

export interface LocalDeleteTarget {
  readonly root: string;
  readonly endpoint: string;
  /** The file of a key, or throws the key's typed error (a key that cannot name a file). */
  readonly fileOf: (key: string) => string;
  readonly storageError: (error: unknown, key: string) => StorageError;
  /** Throws `KeyCrossesLink` when `folderKey` is reached through a link (the fallback's check). */
  readonly checkFolder: (key: string, folderKey: string) => Promise<void>;
}

/** Whether an unlink failure means there was no object to delete. */
export function isAbsentOnUnlink(error: unknown): boolean {
  return isErrno(error) && (ABSENT_ERRNOS.has(error.code) || error.code === 'EISDIR');
}

/** What unlinking one key did: removed a name in `folder`, found none, or failed. */
type KeyUnlink =
  | { readonly removedIn: string; readonly sync: () => Promise<void> }
  | { readonly absent: true }
  | { readonly error: unknown };

export async function unlinkAll(
  ascending: readonly string[],
  target: LocalDeleteTarget,
): Promise<BatchDeleteResult> {
  const handles = PROC_FD_DIR === null ? null : new FolderHandles(target.root, PROC_FD_DIR);
  try {
    const failures = new Map<string, StorageError>();
    const removedIn = new Map<string, { keys: string[]; sync: () => Promise<void> }>();
    const outcomes = await Promise.all(
      ascending.map((key) =>
        handles === null ? unlinkChecked(key, target) : unlinkInFolder(key, target, handles),
      ),
    );
    ascending.forEach((key, at) => {
      const outcome = outcomes[at]!;
      if ('error' in outcome) {
        if (!isAbsentOnUnlink(outcome.error))
          failures.set(key, target.storageError(outcome.error, key));
      } else if ('removedIn' in outcome) {
        const folder = removedIn.get(outcome.removedIn);
        if (folder === undefined)
          removedIn.set(outcome.removedIn, { keys: [key], sync: outcome.sync });
        else folder.keys.push(key);
      }
    });
    await Promise.all(
      [...removedIn.values()].map(async ({ keys, sync }) => {
        try {
          await sync();
        } catch (error) {
          for (const key of keys) failures.set(key, target.storageError(error, key));
        }
      }),
    );
    return batchResult(ascending, failures);
  } finally {
    await handles?.close();
  }
}

/** Unlinks `key`'s name inside its folder as opened without links (the race-free path). */
async function unlinkInFolder(
  key: string,
  target: LocalDeleteTarget,
  handles: FolderHandles,
): Promise<KeyUnlink> {
  try {
    target.fileOf(key); // Refuses a key that names no file, before any I/O.
    const folderKey = parentOf(key);
    const folder = await handles.folder(folderKey);
    if (folder.kind === 'link') return { error: new KeyCrossesLinkError(key, target.endpoint) };
    if (folder.kind === 'absent') return { absent: true };
    await unlink(handles.pathIn(folder.handle, path.posix.basename(key)));
    return { removedIn: folderKey, sync: () => folder.handle.sync() };
  } catch (error) {
    return { error };
  }
}

/** Where descriptors have no names: the folder resolved, then the path unlinked. */
async function unlinkChecked(key: string, target: LocalDeleteTarget): Promise<KeyUnlink> {
  try {
    const file = target.fileOf(key);
    await target.checkFolder(key, parentOf(key));
    await unlink(file);
    const dir = path.dirname(file);
    return { removedIn: dir, sync: () => syncDir(dir) };
  } catch (error) {
    return { error };
  }
}
