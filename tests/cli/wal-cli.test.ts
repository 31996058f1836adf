/** `cairn wal …` as a user runs it: append, inspect, replay, obsolete refusals, verify. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-wal-cli-'));
const store = join(dir, 'store');
const objects = join(store, 'wal', 'nodes', '0', 'generations', '0', 'objects');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  // A data directory of its own: the deletions an obsolete's collection makes are audited there.
  return runCairn(['wal', ...args, '--dir', store], { CAIRN_DATA_DIR: join(dir, 'data') });
}

describe('cairn wal', () => {
  const acksFile = join(dir, 'acks.ndjson');

  it('appends, writing one acknowledgement line per entry, and replays them', () => {
    expect(
      run('append', '--count', '60', '--writers', '3', '--regions', '2', '--acks-out', acksFile)
        .code,
    ).toBe(0);
    const acks = readFileSync(acksFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { region: string; id: string; sha256: string });
    expect(acks).toHaveLength(60);
    const replayed = run('replay', '--region', '1:1')
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; sha256: string });
    const region1 = String((1n << 32n) | 1n); // 1:1 as the acks file writes it (decimal u64)
    const acked = acks.filter((ack) => ack.region === region1);
    expect(acked).toHaveLength(30);
    expect(replayed.map((entry) => `${entry.id}:${entry.sha256}`).sort()).toEqual(
      acked.map((ack) => `${ack.id}:${ack.sha256}`).sort(),
    );
    // --from takes the id as the console shows it (seq:position) or as the decimal u64.
    const third = BigInt(replayed[2]!.id);
    const shown = `${third >> 20n}:${third & ((1n << 20n) - 1n)}`;
    for (const from of [shown, String(third)]) {
      const tail = run('replay', '--region', '1:1', '--from', from).stdout.trim().split('\n');
      expect(tail).toHaveLength(replayed.length - 2);
    }
    expect(run('replay', '--region', '1:1', '--from', '1:1048576').code).toBe(2);
  });

  it('inspects read-only, writing nothing', () => {
    const before = readdirSync(objects).length;
    const report = JSON.parse(run('inspect', '--json').stdout) as {
      register: { writerEpoch: string };
      regions: unknown[];
      failure: unknown;
    };
    expect(report).toMatchObject({ register: { writerEpoch: '1' }, failure: null });
    expect(report.regions).toHaveLength(2);
    expect(readdirSync(objects).length).toBe(before);
  });

  it('refuses an obsolete above the latest id, or on a freshly written prefix, and writes nothing', () => {
    const before = readdirSync(objects).length;
    const above = run('obsolete', '--region', '1:1', '--to', '99999999999', '--take-over');
    expect(above.code).toBe(1);
    expect(above.stderr).toMatch(/^ObsoleteAboveLatest: /);
    const live = run('obsolete', '--region', '1:1', '--to', '1');
    expect(live.code).toBe(1);
    expect(live.stderr).toMatch(/^LiveWriter: /);
    expect(readdirSync(objects).length).toBe(before);
  });

  it('obsoletes with --take-over, after which replay hides the range', () => {
    const first = JSON.parse(run('replay', '--region', '1:1').stdout.split('\n')[0]!) as {
      id: string;
    };
    expect(run('obsolete', '--region', '1:1', '--to', first.id, '--take-over').code).toBe(0);
    const ids = run('replay', '--region', '1:1')
      .stdout.trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).not.toContain(first.id);
    expect(ids).toHaveLength(29);
  });

  it('verifies every object and exits 2 on bad usage', () => {
    const verified = JSON.parse(run('verify', '--json').stdout) as {
      damaged: number;
      checked: number;
    };
    expect(verified.damaged).toBe(0);
    expect(verified.checked).toBeGreaterThan(0);
    expect(run('replay', '--region', 'nonsense').code).toBe(2);
    expect(run('append', '--ack', 'sometimes').code).toBe(2);
  });
});
