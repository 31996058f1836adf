/**
 * `cairn wal fleet`: the Overview's table for a cron job - every prefix of both formats with
 * its state in the Overview's words, its lag with units; unverified (exit 6) until its objects
 * were read whole, exit 0 once verified and healthy, 1 once one is not, the problem named per
 * row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { objectKey } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { runCairn } from '../support/cairn-cli';
import { seed } from '../wal-api/support';

const dir = mkdtempSync(join(tmpdir(), 'cairn-fleet-cli-'));
const store = join(dir, 'store');
const CAIRN = 'wal/nodes/0/generations/0';
const GREPTIME = 'datanodes/1/epochs/2';

interface FleetJson {
  truncated: boolean;
  unhealthy: number;
  unverified: number;
  rows: Array<{ prefix: string; format: string; objects: number; problems: string[] }>;
}

function fleet(...args: string[]) {
  return runCairn(['wal', 'fleet', '--store', store, ...args]);
}

beforeAll(async () => {
  await seed(new LocalObjectIo(store), 4, 1);
  const greptime = new GtPrefixBuilder(GREPTIME);
  greptime.openInstance();
  greptime.append([[makeRegionId(1, 1), ['one', 'two']]]);
  await greptime.writeTo(new LocalObjectIo(store));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cairn wal fleet', () => {
  it('prints every prefix unverified until verified, then healthy, and exits 0', () => {
    // Footers only: no problem seen, but no object read whole yet.
    const unverified = fleet('--json');
    expect(unverified.code).toBe(6);
    expect(JSON.parse(unverified.stdout)).toMatchObject({ unhealthy: 0, unverified: 2 });
    const result = fleet('--verify', '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as FleetJson;
    expect(report).toMatchObject({ truncated: false, unhealthy: 0, unverified: 0 });
    expect(report.rows.map((row) => [row.prefix, row.format, row.problems])).toEqual([
      [GREPTIME, 'greptimedb-v1', []],
      [CAIRN, 'cairn-v1', []],
    ]);
    const text = fleet().stdout.split('\n');
    expect(text[0]).toMatch(/^PREFIX +FORMAT +OBJECTS +BYTES +TIP .* VERIFIED +STATE$/);
    expect(text.filter((line) => line.endsWith('healthy'))).toHaveLength(2);
    // The lag as the Overview shows it: objects above the floor and the age of the oldest.
    expect(text.find((line) => line.startsWith(CAIRN))).toMatch(
      / \d+ objects? · \d+(\.\d)? (ms|s|min|h) /,
    );
  });

  it('exits 1 and names the problem once a prefix is damaged', async () => {
    await new LocalObjectIo(store).putIfAbsent(objectKey(CAIRN, 99_999n), new Uint8Array(0));
    const result = fleet('--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as FleetJson;
    expect(report.unhealthy).toBe(1);
    expect(report.rows.find((row) => row.prefix === CAIRN)?.problems).toEqual([
      'open fails: CorruptObject',
      'damaged: 1 object, off the chain (CorruptObject)',
    ]);
    const text = fleet();
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /wal\/nodes\/0\/generations\/0 .*open fails: CorruptObject; damaged: 1 object, off the chain \(CorruptObject\)$/m,
    );
  });
});
