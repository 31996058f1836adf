/**
 * Issue #47 item 5: `cairn cache ls | clear` take `--data-dir`, `clear` removes the temporary
 * files a dead save left, a folder by an index file's name is skipped, and an index that cannot
 * be read fails typed (`IndexCacheUnreadable`), never an untyped `EISDIR`.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-cache-dd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// CAIRN_DATA_DIR points elsewhere: only --data-dir names the directory used.
const cache = (...args: string[]) =>
  runCairn(['cache', ...args], { CAIRN_DATA_DIR: join(dir, 'other') });

describe('cairn cache --data-dir', () => {
  it('lists and clears the named directory, temporary files included', () => {
    const data = join(dir, 'data');
    const folder = join(data, 'object-index');
    mkdirSync(join(folder, 'a-folder.idx'), { recursive: true });
    writeFileSync(join(folder, 'damaged.idx'), 'not an index');
    writeFileSync(join(folder, 'damaged.idx.0a1b2c.tmp'), 'half a save');
    const listed = cache('ls', '--json', '--data-dir', data);
    expect(listed.code).toBe(0);
    const files = (JSON.parse(listed.stdout) as { files: Array<{ file: string; format: null }> })
      .files;
    expect(files.map((file) => file.file)).toEqual([join(folder, 'damaged.idx')]);
    const cleared = cache('clear', '--data-dir', data);
    expect(cleared.code).toBe(0);
    expect(readdirSync(folder)).toEqual(['a-folder.idx']);
  });

  it('fails typed on an index it cannot read', () => {
    const data = join(dir, 'broken');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'object-index'), 'a file where the folder should be');
    for (const command of ['ls', 'clear']) {
      const failed = cache(command, '--data-dir', data);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /^IndexCacheUnreadable: the local index .*object-index cannot be read: ENOTDIR/,
      );
    }
  });
});
