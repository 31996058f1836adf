/**
 * A local folder's entry names in S3's key order, kept between listings. Reading and sorting
 * a folder of 100,000 objects takes 0.25-0.45 s here (the console figure's
 * `listingFirstPageMs`). A bucket browser lists such a folder a page at a time, and a read
 * model's refresh lists single keys of one: without this, every page paid for the whole folder.
 *
 * A held folder is answered only while a `stat` shows the same directory (device, inode) with
 * the same mtime and ctime: POSIX moves both on every name created, linked, renamed or removed
 * in it. File-system clocks are coarse (a jiffy on Linux, a second on some volumes), so a name
 * added in the same tick as the last change would leave the mtime as it was; a folder is held
 * only when its last change (the later of mtime and ctime, which `utimes` cannot set back) was
 * at least `SETTLE_MS` before the read began (git's "racily clean" rule). Any change after the
 * read then carries a later mtime. That compares the file system's stamps with this process's
 * clock, so it holds where the two are one clock: a local file system, which this store needs
 * anyway (atomic `link()`). A folder changing now (the WAL's own, while written) is read
 * afresh every time, as before.
 */
import type { BigIntStats, Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { compareKeys } from './sorted-listing';

/** How long before a read a folder's last change must be for the read to be held. */
export const SETTLE_MS = 2_000;
/**
 * Names held across all folders (~30 bytes each), a folder counting one more for itself (a
 * bucket of empty folders is bounded too): a few large folders, never the whole bucket.
 */
export const MAX_HELD_NAMES = 500_000;

interface HeldDir {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly names: readonly string[];
}

export class SortedDirs {
  /** Map order is use order: the first folder is the least recently listed. */
  private readonly held = new Map<string, HeldDir>();
  /**
   * Reads in flight, by folder and the stamps the read began with: listings made at once of a
   * folder still changing (a prefix listed in key ranges, a writer's own) share one read.
   */
  private readonly reading = new Map<string, Promise<readonly string[]>>();
  private heldNames = 0;
  private readsCount = 0;

  constructor(
    private readonly maxNames = MAX_HELD_NAMES,
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** Directory reads made (tests: a held folder is not read again). */
  get reads(): number {
    return this.readsCount;
  }

  /**
   * The regular files and folders in `dir`, by name in key order, a folder's name ending in '/'.
   * Throws the file system's error (ENOENT for a missing folder), as `readdir` would.
   */
  async names(dir: string): Promise<readonly string[]> {
    let stats: BigIntStats;
    try {
      stats = await stat(dir, { bigint: true });
    } catch (error) {
      this.drop(dir);
      throw error;
    }
    const held = this.held.get(dir);
    if (held !== undefined && sameDir(held, stats)) {
      this.held.delete(dir);
      this.held.set(dir, held);
      return held.names;
    }
    this.drop(dir);
    const stamp = `${dir}\n${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
    const shared = this.reading.get(stamp);
    if (shared !== undefined) return shared;
    const read = this.read(dir, stats).finally(() => this.reading.delete(stamp));
    this.reading.set(stamp, read);
    return read;
  }

  private async read(dir: string, stats: BigIntStats): Promise<readonly string[]> {
    const readAt = Date.now();
    this.readsCount += 1;
    const names = sortedNames(await readdir(dir, { withFileTypes: true }));
    const lastChange = stats.ctimeMs > stats.mtimeMs ? stats.ctimeMs : stats.mtimeMs;
    if (lastChange < BigInt(readAt - this.settleMs)) this.hold(dir, stats, names);
    return names;
  }

  private hold(dir: string, stats: BigIntStats, names: readonly string[]): void {
    if (weightOf(names) > this.maxNames) return;
    const { dev, ino, mtimeNs, ctimeNs } = stats;
    this.held.set(dir, { dev, ino, mtimeNs, ctimeNs, names });
    this.heldNames += weightOf(names);
    for (const [oldest] of this.held) {
      if (this.heldNames <= this.maxNames) break;
      this.drop(oldest);
    }
  }

  private drop(dir: string): void {
    const held = this.held.get(dir);
    if (held === undefined) return;
    this.held.delete(dir);
    this.heldNames -= weightOf(held.names);
  }
}

function weightOf(names: readonly string[]): number {
  return names.length + 1;
}

function sameDir(held: HeldDir, stats: BigIntStats): boolean {
  return (
    held.dev === stats.dev &&
    held.ino === stats.ino &&
    held.mtimeNs === stats.mtimeNs &&
    held.ctimeNs === stats.ctimeNs
  );
}

/** Files and folders only (never a symlink or a device), sorted as S3 sorts their keys. */
function sortedNames(entries: readonly Dirent[]): string[] {
  const names: string[] = [];
  let needsByteOrder = false;
  for (const entry of entries) {
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    names.push(isDir ? `${entry.name}/` : entry.name);
    if (!needsByteOrder && hasHighCodeUnit(entry.name)) needsByteOrder = true;
  }
  // A folder's keys all start with its name and '/', so sorting names with that '/' gives key
  // order. Code-unit order (the default sort, several times faster) is byte order unless a
  // name holds a surrogate or a character from U+E000, where only compareKeys is right.
  return needsByteOrder ? names.sort(compareKeys) : names.sort();
}

const FIRST_SURROGATE = 0xd800;

function hasHighCodeUnit(name: string): boolean {
  for (let at = 0; at < name.length; at++) if (name.charCodeAt(at) >= FIRST_SURROGATE) return true;
  return false;
}

/**
 * Where a listing starts in a folder's sorted `names`: at the first name starting with
 * `namePrefix`, and past every key at or before `relativeAfter` (the listing's start key with
 * the folder's own part cut off) - keeping the folder that holds that key, whose later keys
 * are still to come.
 */
export function startOfListing(
  names: readonly string[],
  namePrefix: string,
  relativeAfter: string | undefined,
): number {
  const start = bound(names, namePrefix, false);
  if (relativeAfter === undefined) return start;
  let past = bound(names, relativeAfter, true);
  const before = names[past - 1];
  if (before !== undefined && before.endsWith('/') && relativeAfter.startsWith(before)) past -= 1;
  return Math.max(start, past);
}

/** The first index whose name sorts after `target` (`strictly`) or at or after it. */
function bound(names: readonly string[], target: string, strictly: boolean): number {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareKeys(names[middle]!, target);
    if (order < 0 || (strictly && order === 0)) low = middle + 1;
    else high = middle;
  }
  return low;
}
