/**
 * `cairn wal search` as a user runs it: its NDJSON is the row lines `wal replay --rows` prints
 * for each region with the same `--where`, CSV and `--count` agree with it, and its exit code
 * says what it found: 0 hits, 1 none, 3 damaged segments skipped (each named on stderr as
 * replay names them), 2 for flags that do not read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { formatRegionId } from '../../src/shared/id-notation';
import { DAMAGE_PREFIX, writeDamagedPrefix } from '../support/damaged-segment';
import { runCairn } from '../support/cairn-cli';
import { searchRequestOf } from '../../src/main/cli/commands/wal-search';
import { rowFilterOf } from '../../src/main/cli/commands/replay-rows';
import { UsageError } from '../../src/main/cli/usage-error';
import { WHOLE_PREFIX } from '../../src/main/engine/search/plan';
import { openTargetReadOnly } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import {
  bruteForceRows,
  byRegionThenId,
  GT_PREFIX,
  REGIONS,
  writeGtSearchPrefix,
} from '../search/search-prefix';

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-cli-'));
const sound = join(dir, 'sound');
const damaged = join(dir, 'damaged');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  await writeGtSearchPrefix(new LocalObjectIo(sound), 8, false);
  await writeGtSearchPrefix(new LocalObjectIo(damaged), 8, true);
  await writeDamagedPrefix(new LocalObjectIo(damaged));
});

function search(store: string, ...args: string[]) {
  return runCairn(['wal', 'search', '--dir', store, '--prefix', GT_PREFIX, ...args]);
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('cairn wal search', () => {
  it('prints the rows a replay of every region finds, and exits 0', async () => {
    const found = search(sound, '--where', 'host~^web-[37]$', '--where', 'cpu>20');
    expect(found.code).toBe(0);
    const io = new LocalObjectIo(sound);
    const log = await openTargetReadOnly(io, await resolveReadTarget(io, GT_PREFIX));
    const filter = rowFilterOf({ format: 'ndjson', where: ['host~^web-[37]$', 'cpu>20'] });
    const replayed = await bruteForceRows(log, WHOLE_PREFIX, filter);
    expect(replayed.length).toBeGreaterThan(3);
    expect(byRegionThenId(lines(found.stdout))).toEqual(byRegionThenId(replayed));
  });

  it('counts per region and writes CSV of the same hits', () => {
    const ndjson = lines(search(sound, '--where', 'host=web-5').stdout);
    const counted = search(sound, '--where', 'host=web-5', '--count');
    expect(counted.code).toBe(0);
    const counts = lines(counted.stdout).map(
      (line) => JSON.parse(line) as { regionU64: string; hits: number },
    );
    expect(counts.map((c) => c.regionU64)).toEqual(REGIONS.map(String));
    for (const count of counts)
      expect(count.hits).toBe(
        ndjson.filter((l) => l.includes(`"regionU64":"${count.regionU64}"`)).length,
      );
    const csv = lines(search(sound, '--where', 'host=web-5', '--format', 'csv').stdout);
    expect(csv[0]).toBe('region,regionU64,id,idU64,op,sequence,host,ts,cpu');
    expect(csv).toHaveLength(ndjson.length + 1);
  });

  it('stops at --limit and keeps to --regions and --ids', () => {
    expect(lines(search(sound, '--limit', '4').stdout)).toHaveLength(4);
    const one = lines(
      search(sound, '--regions', formatRegionId(REGIONS[2]!), '--ids', '3:1..4:9').stdout,
    );
    expect(one.length).toBeGreaterThan(0);
    for (const line of one) {
      const row = JSON.parse(line) as { regionU64: string; id: string };
      expect(row.regionU64).toBe(String(REGIONS[2]));
      expect(['3', '4']).toContain(row.id.split(':')[0]);
    }
  });

  it('exits 1 when nothing matches', () => {
    const found = search(sound, '--where', 'host=nowhere');
    expect(found.code).toBe(1);
    expect(found.stdout).toBe('');
  });

  it('exits 3 with a hole line per damaged segment skipped', () => {
    const found = search(damaged, '--where', 'host=web-5');
    expect(found.code).toBe(3);
    expect(found.stderr).toMatch(
      /^cairn: hole: region 42:2 ids \d+:\d+-\d+:\d+ skipped, .*segment-crc check failed/m,
    );
    const cairn = runCairn([
      'wal',
      'search',
      '--dir',
      damaged,
      '--prefix',
      DAMAGE_PREFIX,
      '--text',
      '-o1-',
    ]);
    expect(cairn.code).toBe(3);
    expect(lines(cairn.stdout).length).toBeGreaterThan(0);
  });

  it('refuses flags that do not read, or do not fit the prefix, with exit 2', () => {
    const base = {
      where: [],
      regions: 'all',
      ids: '',
      format: 'ndjson',
      order: 'ids',
      onDamage: 'skip',
    };
    for (const flags of [
      { where: ['cpu>many'] },
      { where: ['host~('] },
      { ids: '9..3' },
      { regions: 'x' },
      { format: 'xml' },
      { limit: '0' },
      { order: 'oldest' },
      { holes: true, format: 'csv' },
    ])
      expect(() => searchRequestOf({ ...base, ...flags })).toThrow(UsageError);
    expect(search(sound, '--text', 'web').code).toBe(2);
    const region = search(sound, '--regions', '9:9');
    expect(region.code).toBe(1);
    expect(region.stderr).toContain('RegionNotFound');
  });
});
