/**
 * The local store's one rule for where it may read and write: the file of key `a/b/c` is
 * `<root>/a/b/c` itself, with no symbolic link anywhere on the way below the root. A key whose
 * path crosses a link - a folder `etcl -> /etc`, or a link in place of the object - is refused
 * with `KeyCrossesLinkError` by every read (get, head, tail and located reads, listings) and
 * every write and delete, so a store whose folder holds a link never shows or touches what the
 * link points at. Links above the root (a data directory under a linked home) are the user's
 * configuration and stay followed: the root is resolved once, as configured.
 *
 * Where the kernel tells which file a descriptor holds (`/proc/self/fd` on Linux), an opened
 * object is checked after the open, so no link swapped in between a check and the open can
 * slip through; a folder is checked by resolving its path. Owns no I/O of objects itself.
 */
import { existsSync } from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { KeyCrossesLinkError } from './local-errors';
import { ABSENT_ERRNOS, isErrno } from './local-files';

/** Where the kernel names each open descriptor's file, or null on a system without it. */
export const PROC_FD_DIR: string | null =
  process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

/** What /proc shows for a descriptor whose file was unlinked after the open (GC racing a read). */
export const UNLINKED_SUFFIX = ' (deleted)';

/** True when the file /proc names for a descriptor is `expected` (or was, before an unlink). */
export function isOpenedAt(named: string, expected: string): boolean {
  return named === expected || named === expected + UNLINKED_SUFFIX;
}

export class LocalConfinement {
  private realRoot: string | null = null;

  constructor(
    private readonly root: string,
    private readonly endpoint: string,
  ) {}

  /**
   * The real path `key`'s file must have, once the root was resolved (null before: a caller
   * that needs it synchronously, the read thread, reads on the pool meanwhile).
   */
  expectedPath(key: string): string | null {
    return this.realRoot === null ? null : path.join(this.realRoot, key);
  }

  /**
   * After `key`'s file was opened as descriptor `fd` (never through a last-component link:
   * O_NOFOLLOW): throws `KeyCrossesLink` when what was opened is not `<root>/<key>`. Where the
   * kernel does not name descriptors, the key's folder is resolved instead.
   */
  async checkOpened(key: string, fd: number): Promise<void> {
    if (PROC_FD_DIR === null) return this.checkFolder(key, parentOf(key));
    const expected = path.join(await this.resolvedRoot(), key);
    const named = await readlink(path.join(PROC_FD_DIR, String(fd)));
    if (!isOpenedAt(named, expected)) throw new KeyCrossesLinkError(key, this.endpoint);
  }

  /**
   * Throws `KeyCrossesLink` (naming `key`) when the folder `folderKey` ('' is the root) - or,
   * while it does not exist, its nearest existing parent - is reached through a link. A folder
   * that is not there crosses nothing.
   */
  async checkFolder(key: string, folderKey: string): Promise<void> {
    const realRoot = await this.resolvedRootOrNull();
    if (realRoot === null) return; // No root yet: nothing under it to reach.
    for (let at = folderKey; at !== ''; at = parentOf(at)) {
      const resolved = await realpath(path.join(this.root, at)).catch((error: unknown) => {
        if (isErrno(error) && ABSENT_ERRNOS.has(error.code)) return null;
        throw error;
      });
      if (resolved === null) continue;
      if (resolved !== path.join(realRoot, at)) throw new KeyCrossesLinkError(key, this.endpoint);
      return;
    }
  }

  private async resolvedRoot(): Promise<string> {
    this.realRoot ??= await realpath(this.root);
    return this.realRoot;
  }

  private async resolvedRootOrNull(): Promise<string | null> {
    try {
      return await this.resolvedRoot();
    } catch (error) {
      if (isErrno(error) && ABSENT_ERRNOS.has(error.code)) return null;
      throw error;
    }
  }
}

/** The folder key holding `key` ('' for a top-level key). */
export function parentOf(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}
