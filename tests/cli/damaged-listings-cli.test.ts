/**
 * Bad input at the command line: `cairn ns ls` / `ns shards` and `cairn segments ls` print
 * everything readable, name each damaged shard or partition with its key and reason on
 * stderr, and exit 1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardLabel, shardOfName } from '../../src/main/engine/namespaces/shard-hash';
import { runCairn } from '../support/cairn-cli';
import { damageCell } from '../support/damage-cell';

const TOPIC_ID = '6f1c2d3e-0000-4000-8000-000000000001';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-damaged-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const cairn = (...args: string[]) =>
  runCairn([...args, '--store', join(dir, 'store')], { CAIRN_DATA_DIR: join(dir, 'data') });

describe('damaged listings', () => {
  it('ns ls and ns shards list the healthy shards and name the damaged one', async () => {
    const names = ['orders', 'billing', 'inventory', 'audit', 'search', 'users'];
    for (const name of names) expect(cairn('ns', 'register', name).code).toBe(0);
    const shards = JSON.parse(cairn('ns', 'shards', '--json').stdout) as unknown[];
    const broken = shardOfName('orders', shards.length, 'fnv1a64');
    const key = `namespaces/shards/${shardLabel(broken)}/`;
    await damageCell(join(dir, 'store', key));

    const ls = cairn('ns', 'ls', '--json');
    expect(ls.code).toBe(1);
    const listed = (JSON.parse(ls.stdout) as { name: string }[]).map((record) => record.name);
    const healthy = names.filter((name) => shardOfName(name, shards.length, 'fnv1a64') !== broken);
    expect(listed.sort()).toEqual(healthy.sort());
    expect(ls.stderr).toContain(`Damaged: shard ${shardLabel(broken)} at ${key}: `);

    const human = cairn('ns', 'shards');
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('damaged');
    expect(human.stderr).toContain(`at ${key}`);
  });

  it('segments ls lists every partition and names the damaged cell', async () => {
    for (const partition of ['0', '1']) {
      const added = cairn(
        'segments',
        'add',
        '--topic-id',
        TOPIC_ID,
        '--partition',
        partition,
        '--topic',
        'orders',
        '--start',
        '0',
        '--end',
        '9',
      );
      expect([added.code, added.stderr]).toEqual([0, '']);
    }
    const key = `tiering/${TOPIC_ID}-1/`;
    await damageCell(join(dir, 'store', key));

    const ls = cairn('segments', 'ls');
    expect(ls.code).toBe(1);
    expect(ls.stdout).toMatch(new RegExp(`${TOPIC_ID}\\s+0\\s+orders`));
    expect(ls.stdout).toMatch(new RegExp(`${TOPIC_ID}\\s+1\\s+damaged`));
    expect(ls.stderr).toContain(`Damaged: partition ${TOPIC_ID}-1 at ${key}: `);
  });
});
