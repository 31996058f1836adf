/**
 * The local store's sorted folders: a folder unchanged since it settled is read once, any
 * change to it is seen on the next listing, a folder still changing is never held (listings
 * made at once of it share one read), and the
 * binary search a listing starts from agrees with a scan of every name.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SortedDirs, startOfListing } from '../../src/main/engine/objectio/local-sorted-dirs';
import { compareKeys } from '../../src/main/engine/objectio/sorted-listing';

/** Settling time the tests use: they wait longer than this before a read that must be held. */
const SETTLE_MS = 20;
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS * 3));

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cairn-sorted-dirs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function fill(dir: string, names: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  for (const name of names) writeFileSync(path.join(dir, name), 'x');
}

describe('SortedDirs', () => {
  it('lists files and folders in key order, a folder with its slash, never a symlink', async () => {
    fill(root, ['a.b', 'a-c', '\u{1f600}', '\ue000', 'b']);
    mkdirSync(path.join(root, 'a'));
    symlinkSync(path.join(root, 'b'), path.join(root, 'link'));
    const names = await new SortedDirs().names(root);
    expect(names).toEqual(['a-c', 'a.b', 'a/', 'b', '\ue000', '\u{1f600}']);
  });

  it('shares one read among listings made at once of a folder still changing', async () => {
    const dir = path.join(root, 'busy');
    fill(dir, ['1', '2']);
    const dirs = new SortedDirs(100, 60_000);
    const listed = await Promise.all([dirs.names(dir), dirs.names(dir), dirs.names(dir)]);
    expect(listed).toEqual([
      ['1', '2'],
      ['1', '2'],
      ['1', '2'],
    ]);
    expect(dirs.reads).toBe(1);
    // Not held (it changed within the settling time): a later listing reads again.
    expect(await dirs.names(dir)).toEqual(['1', '2']);
    expect(dirs.reads).toBe(2);
  });

  it('reads a settled, unchanged folder once, and again after a name is added or removed', async () => {
    const dir = path.join(root, 'big');
    fill(dir, ['1', '2', '3']);
    await settle();
    const dirs = new SortedDirs(100, SETTLE_MS);
    expect(await dirs.names(dir)).toEqual(['1', '2', '3']);
    expect(await dirs.names(dir)).toEqual(['1', '2', '3']);
    expect(dirs.reads).toBe(1);
    writeFileSync(path.join(dir, '4'), 'x');
    expect(await dirs.names(dir)).toEqual(['1', '2', '3', '4']);
    unlinkSync(path.join(dir, '1'));
    expect(await dirs.names(dir)).toEqual(['2', '3', '4']);
    expect(dirs.reads).toBe(3);
  });

  it('never holds a folder changed within the settling time: a change in the same clock tick is seen', async () => {
    const dir = path.join(root, 'busy');
    fill(dir, ['1']);
    const dirs = new SortedDirs(100, 60_000);
    expect(await dirs.names(dir)).toEqual(['1']);
    expect(await dirs.names(dir)).toEqual(['1']);
    expect(dirs.reads).toBe(2);
  });

  it('sees a folder replaced by another of the same name', async () => {
    const dir = path.join(root, 'swap');
    fill(dir, ['old']);
    await settle();
    const dirs = new SortedDirs(100, SETTLE_MS);
    expect(await dirs.names(dir)).toEqual(['old']);
    rmSync(dir, { recursive: true });
    fill(dir, ['new']);
    expect(await dirs.names(dir)).toEqual(['new']);
  });

  it('throws ENOENT for a missing folder and forgets what it held of it', async () => {
    const dir = path.join(root, 'gone');
    fill(dir, ['1']);
    await settle();
    const dirs = new SortedDirs(100, SETTLE_MS);
    await dirs.names(dir);
    rmSync(dir, { recursive: true });
    await expect(dirs.names(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('holds at most its limit of names, letting the least recently listed folder go', async () => {
    for (const name of ['a', 'b', 'c']) fill(path.join(root, name), ['1', '2', '3', '4']);
    await settle();
    // Each folder weighs its 4 names and itself: two fit in 10.
    const dirs = new SortedDirs(10, SETTLE_MS);
    for (const name of ['a', 'b', 'a', 'c']) await dirs.names(path.join(root, name));
    expect(dirs.reads).toBe(3);
    await dirs.names(path.join(root, 'a'));
    expect(dirs.reads).toBe(3);
    await dirs.names(path.join(root, 'b'));
    expect(dirs.reads).toBe(4);
  });

  it('counts an empty folder toward its limit, so a bucket of empty folders is bounded too', async () => {
    for (const name of ['a', 'b', 'c']) mkdirSync(path.join(root, name));
    await settle();
    const dirs = new SortedDirs(2, SETTLE_MS);
    for (const name of ['a', 'b', 'c', 'b', 'c', 'a']) await dirs.names(path.join(root, name));
    expect(dirs.reads).toBe(4);
  });
});

describe('startOfListing', () => {
  /** What a listing from the start index may not skip: a scan of every name. */
  function firstByScan(names: readonly string[], namePrefix: string, after?: string): number {
    const at = names.findIndex(
      (name) =>
        (name.startsWith(namePrefix) || compareKeys(name, namePrefix) > 0) &&
        (after === undefined ||
          compareKeys(name, after) > 0 ||
          (name.endsWith('/') && after.startsWith(name))),
    );
    return at < 0 ? names.length : at;
  }

  it('starts at the first name a scan would list, for any names, prefix and start key', () => {
    const name = fc.stringMatching(/^[a-c\u00e9\ue000\u{1f600}./-]{0,4}$/u);
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.tuple(
            name.filter((n) => n !== '' && !n.includes('/')),
            fc.boolean(),
          ),
        ),
        fc.stringMatching(/^[a-c./]{0,2}$/),
        fc.option(name, { nil: undefined }),
        (entries, namePrefix, after) => {
          const names = [...new Set(entries.map(([n, isDir]) => (isDir ? `${n}/` : n)))].sort(
            compareKeys,
          );
          const prefix = namePrefix.replace(/\/.*$/, '');
          expect(startOfListing(names, prefix, after)).toBe(firstByScan(names, prefix, after));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
