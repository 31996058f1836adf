/**
 * The folders of a local store opened the way a delete needs them: each one reached from the
 * root one name at a time, every name opened `O_DIRECTORY | O_NOFOLLOW` relative to its
 * parent's open descriptor (through `/proc/self/fd/<fd>/<name>`, Linux's stand-in for
 * `openat`, which Node lacks). A descriptor so opened holds the very folder that was under the
 * root when it was opened, whatever is renamed or linked in its place later; a name removed
 * through it (`/proc/self/fd/<fd>/<file>`, the stand-in for `unlinkat`) is removed in that
 * folder and nowhere else. A folder that is a link is never opened: it reads `link`.
 *
 * Owns the descriptors it opened until `close`. Decides nothing about which names go.
 */
import { constants as fsConstants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { parentOf } from './local-confinement';
import { isErrno } from './local-files';

const FOLDER_FLAGS = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY;
const FOLDER_NO_LINK_FLAGS = FOLDER_FLAGS | fsConstants.O_NOFOLLOW;

/** A folder as a delete finds it: open, not there (nothing in it to delete), or a link. */
export type OpenedFolder =
  | { readonly kind: 'open'; readonly handle: FileHandle }
  | { readonly kind: 'absent' }
  | { readonly kind: 'link' };

const ABSENT: OpenedFolder = { kind: 'absent' };
const LINK: OpenedFolder = { kind: 'link' };

export class FolderHandles {
  private readonly opened = new Map<string, Promise<OpenedFolder>>();

  /** `procFdDir`: where the kernel names descriptors (`/proc/self/fd`). */
  constructor(
    private readonly root: string,
    private readonly procFdDir: string,
  ) {}

  /** The folder `folderKey` ('' is the root), opened once per instance however often asked. */
  folder(folderKey: string): Promise<OpenedFolder> {
    let opening = this.opened.get(folderKey);
    if (opening === undefined) {
      opening = folderKey === '' ? this.openRoot() : this.openBelow(folderKey);
      this.opened.set(folderKey, opening);
    }
    return opening;
  }

  /** The path that names `name` inside an open folder, resolved by the kernel through its descriptor. */
  pathIn(handle: FileHandle, name: string): string {
    return path.join(this.procFdDir, String(handle.fd), name);
  }

  async close(): Promise<void> {
    const folders = await Promise.allSettled(this.opened.values());
    this.opened.clear();
    const handles = folders.flatMap((settled) =>
      settled.status === 'fulfilled' && settled.value.kind === 'open' ? [settled.value.handle] : [],
    );
    await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
  }

  /** The root as configured: links above it are the user's choice and stay followed. */
  private async openRoot(): Promise<OpenedFolder> {
    try {
      return { kind: 'open', handle: await open(this.root, FOLDER_FLAGS) };
    } catch (error) {
      if (isErrno(error) && error.code === 'ENOENT') return ABSENT;
      throw error;
    }
  }

  private async openBelow(folderKey: string): Promise<OpenedFolder> {
    const parent = await this.folder(parentOf(folderKey));
    if (parent.kind !== 'open') return parent;
    const at = this.pathIn(parent.handle, path.posix.basename(folderKey));
    try {
      return { kind: 'open', handle: await open(at, FOLDER_NO_LINK_FLAGS) };
    } catch (error) {
      if (!isErrno(error)) throw error;
      if (error.code === 'ENOENT') return ABSENT;
      if (error.code === 'ELOOP') return LINK;
      // Linux answers ENOTDIR for a link opened O_DIRECTORY | O_NOFOLLOW as for a file: tell them
      // apart without following (a file there means no key below it exists).
      if (error.code === 'ENOTDIR') return (await isLinkAt(at)) ? LINK : ABSENT;
      throw error;
    }
  }
}

async function isLinkAt(at: string): Promise<boolean> {
  try {
    return (await lstat(at)).isSymbolicLink();
  } catch (error) {
    if (isErrno(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return false;
    throw error;
  }
}
