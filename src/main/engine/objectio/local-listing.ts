/**
 * The local store's listing walk: the keys one ListObjectsV2 page needs, found by walking only
 * the folders that can hold keys under the prefix, in key order, and stopping once the page is
 * full. Never shows the temp folder, never follows a symlink (a folder's names are regular
 * files and folders only, `SortedDirs`), and refuses a prefix whose folder is reached through
 * one (`LocalConfinement`).
 */
import path from 'node:path';
import { ABSENT_ERRNOS, isErrno } from './local-files';
import { folderIsBehind, isValidDirKey, LOCAL_TEMP_DIR } from './local-keys';
import { startOfListing, type SortedDirs } from './local-sorted-dirs';
import { compareKeys } from './sorted-listing';
import type { LocalConfinement } from './local-confinement';

const TEMP_DIR_NAME = `${LOCAL_TEMP_DIR}/`;

interface Walk {
  readonly after: string | undefined;
  readonly keys: string[];
  readonly limit: number;
  readonly foldersCollapse: boolean;
}

export class LocalListing {
  constructor(
    private readonly root: string,
    private readonly sortedDirs: SortedDirs,
    /** Maps a file-system error met reading `dirKey` to the store's typed error. */
    private readonly storageError: (error: unknown, dirKey: string) => Error,
    private readonly confinement: LocalConfinement,
  ) {}

  /**
   * The keys `listSortedPage` needs to build one page: every key under `prefix` after `after`,
   * in key order, cut off once `pageSize + 1` entries are known (the extra one tells whether a
   * next page exists). With the '/' delimiter each sub-folder contributes one key (it becomes one
   * common prefix); any other delimiter gets the whole range, since folders do not map to dirs.
   */
  async keysForPage(
    prefix: string,
    after: string | undefined,
    delimiter: string | undefined,
    pageSize: number,
  ): Promise<string[]> {
    const cut = prefix.lastIndexOf('/') + 1;
    const walk: Walk = {
      after,
      keys: [],
      limit:
        delimiter === undefined || delimiter === '' || delimiter === '/' ? pageSize + 1 : Infinity,
      foldersCollapse: delimiter === '/',
    };
    const dirKey = prefix.slice(0, cut);
    if (dirKey !== '' && !isValidDirKey(dirKey)) return [];
    await this.confinement
      .checkFolder(prefix, dirKey.slice(0, -1))
      .catch((error: unknown) => Promise.reject(this.storageError(error, prefix)));
    await this.walkDir(walk, dirKey, prefix.slice(cut), 0);
    return walk.keys;
  }

  /**
   * Depth-first walk in key order: a folder's names sorted with a folder's own '/' give its
   * keys in S3's byte order, because every key under folder `d` starts with `d/`. `depth` 0 is
   * the folder the prefix points into; `namePrefix` filters it.
   */
  private async walkDir(
    walk: Walk,
    dirKey: string,
    namePrefix: string,
    depth: number,
  ): Promise<void> {
    const after = walk.after;
    // Every key here starts with dirKey: if `after` does not, it is before or past them all.
    const insideAfter = after !== undefined && after.startsWith(dirKey);
    if (after !== undefined && !insideAfter && compareKeys(dirKey, after) < 0) return;
    const names = await this.sortedNames(dirKey);
    const relativeAfter = insideAfter ? after.slice(dirKey.length) : undefined;
    for (let at = startOfListing(names, namePrefix, relativeAfter); at < names.length; at++) {
      const name = names[at]!;
      if (!name.startsWith(namePrefix) || walk.keys.length >= walk.limit) return;
      const key = dirKey + name;
      if (!name.endsWith('/')) {
        if (after === undefined || compareKeys(key, after) > 0) walk.keys.push(key);
        continue;
      }
      if (folderIsBehind(key, after) || (dirKey === '' && name === TEMP_DIR_NAME)) continue;
      if (depth === 0 && walk.foldersCollapse) {
        // One key is enough to make the folder a common prefix; proves it is not an empty dir.
        await this.walkDir(
          { ...walk, keys: walk.keys, limit: walk.keys.length + 1 },
          key,
          '',
          depth + 1,
        );
      } else {
        await this.walkDir(walk, key, '', depth + 1);
      }
    }
  }

  /** The folder's names in key order (a folder's ending in '/'); none if it is not there. */
  private async sortedNames(dirKey: string): Promise<readonly string[]> {
    try {
      return await this.sortedDirs.names(path.join(this.root, dirKey));
    } catch (error) {
      if (isErrno(error) && ABSENT_ERRNOS.has(error.code)) return [];
      throw this.storageError(error, dirKey);
    }
  }
}
