/**
 * `cairn wal …` as a user runs it: append, inspect, replay, obsolete refusals, verify; every
 * id printed as the console shows it with its decimal u64 beside it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatEntryId } from '../../src/shared/id-notation';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-wal-cli-'));
const store = join(dir, 'store');
const objects = join(store, 'wal', 'nodes', '0', 'generations', '0', 'objects');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  // A data directory of its own: the deletions an obsolete's collection makes are audited there.
  return runCairn(['wal', ...args, '--store', store], { CAIRN_DATA_DIR: join(dir, 'data') });
}

interface IdLine {
  readonly region: string;
  readonly regionU64: string;
  readonly id: string;
  readonly idU64: string;
  readonly sha256: string;
}

function lines(text: string): IdLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as IdLine);
}

describe('cairn wal', () => {
  const acksFile = join(dir, 'acks.ndjson');

  it('appends, writing one acknowledgement line per entry, and replays them', () => {
    expect(
      run('append', '--count', '60', '--writers', '3', '--regions', '2', '--acks-out', acksFile)
        .code,
    ).toBe(0);
    const acks = lines(readFileSync(acksFile, 'utf8'));
    expect(acks).toHaveLength(60);
    const replayed = lines(run('replay', '--region', '1:1').stdout);
    const acked = acks.filter((ack) => ack.region === '1:1');
    expect(acked).toHaveLength(30);
    expect(replayed.map((entry) => `${entry.id}:${entry.sha256}`).sort()).toEqual(
      acked.map((ack) => `${ack.id}:${ack.sha256}`).sort(),
    );
    // The notation and the decimal beside it name the same id, in both files.
    for (const line of [...acks, ...replayed]) {
      expect(line.regionU64).toBe(String((1n << 32n) | BigInt(line.region.split(':')[1]!)));
      expect(formatEntryId(BigInt(line.idU64))).toBe(line.id);
    }
    // --from takes the id as printed (seq:position) or as the decimal u64.
    const third = replayed[2]!;
    for (const from of [third.id, third.idU64]) {
      const tail = run('replay', '--region', '1:1', '--from', from).stdout.trim().split('\n');
      expect(tail).toHaveLength(replayed.length - 2);
    }
    expect(run('replay', '--region', '1:1', '--from', '1:1048576').code).toBe(2);
  });

  it('inspects read-only, writing nothing: a summary, and the whole chain with --chain', () => {
    const before = readdirSync(objects).length;
    const report = JSON.parse(run('inspect', '--json').stdout) as {
      register: { writerEpoch: string };
      regions: Array<{ regionId: string; latestId: string; latestIdU64: string }>;
      failure: unknown;
      objects: { chain: number };
    };
    expect(report).toMatchObject({ register: { writerEpoch: '1' }, failure: null });
    expect(report).not.toHaveProperty('chain');
    expect(report.regions.map((r) => r.regionId)).toEqual(['1:1', '1:2']);
    for (const region of report.regions)
      expect(formatEntryId(BigInt(region.latestIdU64))).toBe(region.latestId);
    const whole = JSON.parse(run('inspect', '--json', '--chain').stdout) as { chain: unknown[] };
    expect(whole.chain).toHaveLength(report.objects.chain);
    const text = run('inspect').stdout;
    expect(text).toMatch(/^1:1 +\d+:\d+ +0:0 +30 /m);
    expect(text).not.toMatch(/^SEQ +EPOCH/m);
    expect(run('inspect', '--chain').stdout).toMatch(/^SEQ +EPOCH +SIZE +KEY$/m);
    expect(readdirSync(objects).length).toBe(before);
  });

  it('refuses an obsolete above the latest id, and writes nothing', () => {
    const before = readdirSync(objects).length;
    const above = run('obsolete', '--region', '1:1', '--to', '99999999999', '--take-over');
    expect(above.code).toBe(1);
    // 99999999999 is 95367:452607 as seq:position: the message and the fields say it so.
    const [message, fields] = above.stderr.split('\n');
    expect(message).toMatch(/^ObsoleteAboveLatest: .* up to 95367:452607: .* is \d+:\d+$/);
    expect(JSON.parse(fields!)).toMatchObject({ id: '95367:452607', idU64: '99999999999' });
    expect(readdirSync(objects).length).toBe(before);
  });

  it('refuses an obsolete without --take-over on a prefix written seconds ago', () => {
    // A prefix of its own, written just before: the live-writer window (30 s) never depends on
    // how long the tests above took on a slow machine.
    const fresh = join(dir, 'fresh-store');
    const inFresh = (...args: string[]) =>
      runCairn(['wal', ...args, '--store', fresh], { CAIRN_DATA_DIR: join(dir, 'fresh-data') });
    expect(inFresh('append', '--count', '2', '--regions', '1').code).toBe(0);
    const freshObjects = join(fresh, 'wal', 'nodes', '0', 'generations', '0', 'objects');
    const before = readdirSync(freshObjects).length;
    const live = inFresh('obsolete', '--region', '1:1', '--to', '1');
    expect(live.code).toBe(1);
    expect(live.stderr).toMatch(/^LiveWriter: /);
    expect(readdirSync(freshObjects).length).toBe(before);
  });

  it('obsoletes with --take-over, after which replay hides the range', () => {
    const first = lines(run('replay', '--region', '1:1').stdout)[0]!;
    const obsoleted = run('obsolete', '--region', '1:1', '--to', first.id, '--take-over', '--json');
    expect(obsoleted.code).toBe(0);
    expect(JSON.parse(obsoleted.stdout)).toMatchObject({
      region: '1:1',
      regionU64: String((1n << 32n) | 1n),
      watermark: first.id,
      watermarkU64: first.idU64,
    });
    const ids = lines(run('replay', '--region', '1:1').stdout).map((line) => line.id);
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
