/**
 * The CLI speaks one language with the console: `wal ls` lists every prefix of both formats
 * under the root a saved connection has (the bucket root by default; `/` and '' say the same),
 * a store is `--store` (`--dir`, its old spelling, still works, hidden), and the app data
 * directory is `--data-dir` everywhere, whose embedded store the storage commands use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { embeddedStoreDir } from '../../src/main/services/app-paths';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { runCairn } from '../support/cairn-cli';
import { seed } from '../wal-api/support';

const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-language-'));
const store = join(dir, 'store');
const dataDir = join(dir, 'data');
const CAIRN = 'wal/nodes/0/generations/0';
const GREPTIME = 'datanodes/1/epochs/2';

/** Isolated from the user's own app data directory. */
const run = (...args: string[]) => runCairn(args, { CAIRN_DATA_DIR: join(dir, 'unused') });

function listed(...args: string[]): unknown {
  const result = run('wal', 'ls', '--json', ...args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  await seed(new LocalObjectIo(store), 4, 1);
  const greptime = new GtPrefixBuilder(GREPTIME);
  greptime.openInstance();
  greptime.append([[makeRegionId(1, 1), ['one']]]);
  await greptime.writeTo(new LocalObjectIo(store));
  await seed(new LocalObjectIo(embeddedStoreDir(dataDir)), 2, 1);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wal ls', () => {
  it('lists both formats from the bucket root by default, and for --root / or an empty root', () => {
    const both = [
      // GreptimeDB's datanode layout names node and generation too.
      { prefix: GREPTIME, format: 'greptimedb-v1', nodeId: '1', generation: 2 },
      { prefix: CAIRN, format: 'cairn-v1', nodeId: '0', generation: 0 },
    ];
    expect(listed('--store', store)).toEqual(both);
    expect(listed('--store', store, '--root', '/')).toEqual(both);
    expect(listed('--store', store, '--root', '')).toEqual(both);
  });

  it('says so when a root holds no prefix, and refuses a root that is no key prefix', () => {
    const none = run('wal', 'ls', '--store', store, '--root', 'elsewhere');
    expect(none).toMatchObject({ code: 0, stdout: 'no WAL prefix under elsewhere\n' });
    for (const root of ['a//b', 'a/../b']) {
      const refused = run('wal', 'ls', '--store', store, '--root', root);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--root must be a key prefix/);
    }
  });
});

describe('store and data directory flags', () => {
  it('reads the same store through --store and its old spelling --dir', () => {
    expect(listed('--dir', store)).toEqual(listed('--store', store));
    const both = run('wal', 'ls', '--store', store, '--dir', dataDir);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--dir is the old spelling of --store/);
    expect(run('wal', 'ls', '--help').stdout).not.toMatch(/--dir/);
  });

  it("uses --data-dir's embedded store, the one connections and serve name", () => {
    expect(listed('--data-dir', dataDir)).toEqual([
      { prefix: CAIRN, format: 'cairn-v1', nodeId: '0', generation: 0 },
    ]);
    const connections = run('connections', 'ls', '--data-dir', dataDir, '--json');
    expect(JSON.parse(connections.stdout)).toContainEqual(
      expect.objectContaining({ id: 'embedded', path: embeddedStoreDir(dataDir) }),
    );
    const serveHelp = run('serve', '--help').stdout;
    expect(serveHelp).toMatch(/--data-dir <path>/);
    expect(serveHelp).not.toMatch(/--dir/);
  });
});
