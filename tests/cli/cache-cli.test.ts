/**
 * `cairn cache ls | clear` and `cairn wal inspect --no-cache`, as a user runs them: an
 * inspection keeps what it read in the local index of the data directory (listed with its
 * store, prefix, format and objects), `--no-cache` keeps nothing, a second inspection in a new
 * process prints the same report from the index, and `clear` removes it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-cache-cli-'));
const store = join(dir, 'store');
const PREFIX = 'datanodes/3/epochs/1';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const builder = new GtPrefixBuilder(PREFIX);
  builder.openInstance();
  for (let at = 0; at < 4; at++) builder.append([[makeRegionId(1, 1), [`e${at}`]]]);
  await builder.writeTo(new LocalObjectIo(store));
});

function cairn(data: string, ...args: string[]) {
  return runCairn(args, { CAIRN_DATA_DIR: join(dir, data) });
}

const inspect = (data: string, ...flags: string[]) =>
  cairn(data, 'wal', 'inspect', '--prefix', PREFIX, '--dir', store, '--json', ...flags);

describe('cairn cache', () => {
  it('lists what an inspection kept, reuses it in a new process, and clears it', () => {
    const first = inspect('data');
    expect(first.code).toBe(0);
    const listed = cairn('data', 'cache', 'ls', '--json');
    expect(listed.code).toBe(0);
    const files = (JSON.parse(listed.stdout) as { files: Array<Record<string, unknown>> }).files;
    expect(files).toEqual([
      expect.objectContaining({ store, prefix: PREFIX, format: 'greptimedb-v1', objects: 5 }),
    ]);
    const report = (text: string) => {
      const { durationMs: _d, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(report(inspect('data').stdout)).toEqual(report(first.stdout));

    const cleared = cairn('data', 'cache', 'clear');
    expect(cleared.stdout).toMatch(/removed 1 index files/);
    expect(readdirSync(join(dir, 'data', 'object-index'))).toEqual([]);
  });

  it('keeps nothing with --no-cache', () => {
    expect(inspect('cold', '--no-cache').code).toBe(0);
    expect(existsSync(join(dir, 'cold', 'object-index'))).toBe(false);
  });
});
