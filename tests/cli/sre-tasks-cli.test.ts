/**
 * The SRE's incident tasks of issue #42, the same in a script: health at a glance
 * (`wal fleet --json`), find the damaged object (`wal verify`), replay a region and find its
 * rows (`wal replay`, exit 3 where a damaged segment makes a hole), then obsolete and collect,
 * each with `--dry-run` first - the dry runs take nothing, and the real calls do what they said.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { runCairn } from '../support/cairn-cli';
import { writeDamagedPrefix, type DamagedSegment } from '../support/damaged-segment';

const dir = mkdtempSync(join(tmpdir(), 'cairn-sre-'));
const store = join(dir, 'store');
const DAMAGED = walPrefix('wal', 0n, 0);
const HEALTHY = walPrefix('wal', 1n, 0);
let damaged: DamagedSegment;

function cairn(...args: string[]) {
  return runCairn([...args, '--store', store], { CAIRN_DATA_DIR: join(dir, 'data') });
}

const json = <T>(text: string) => JSON.parse(text) as T;
const ndjson = <T>(text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);

beforeAll(async () => {
  damaged = await writeDamagedPrefix(new LocalObjectIo(store));
  const appended = cairn(
    'wal',
    'append',
    '--node',
    '1',
    '--regions',
    '4',
    '--count',
    '40',
    '--writers',
    '1',
    '--flush-ms',
    '10',
  );
  expect(appended.code, appended.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the incident tasks in a script', () => {
  it('health, damage, replay, obsolete and gc - dry runs first', () => {
    // 1. Health at a glance: every prefix, one JSON document. Footers alone see no problem (the
    // prefixes would read unverified, exit 6); --verify reads them whole and alerts on the
    // flipped byte.
    const fleet = cairn('wal', 'fleet', '--verify', '--json');
    expect(fleet.code, fleet.stderr).toBe(1);
    const rows = json<{ rows: Array<{ prefix: string; problems: string[] }> }>(fleet.stdout).rows;
    expect(rows.map((row) => row.prefix).sort()).toEqual([DAMAGED, HEALTHY]);
    expect(rows.find((row) => row.prefix === HEALTHY)?.problems).toEqual([]);
    expect(rows.find((row) => row.prefix === DAMAGED)?.problems).toEqual([
      expect.stringMatching(/^damaged: 1 object, region /),
    ]);

    // 2. Find the damaged object: verify reads every object, exit 1 naming it and its check.
    const verify = cairn('wal', 'verify', '--node', '0', '--json');
    expect(verify.code).toBe(1);
    const verdicts = json<{ objects: Array<{ key: string; ok: boolean; check?: string }> }>(
      verify.stdout,
    ).objects.filter((verdict) => !verdict.ok);
    expect(verdicts).toEqual([expect.objectContaining({ key: damaged.key, check: 'segment-crc' })]);

    // 3. Replay a region and find its rows; the damaged region's replay exits 3 (a hole).
    const replay = cairn('wal', 'replay', '--node', '1', '--region', '1:2');
    expect(replay.code, replay.stderr).toBe(0);
    const entries = ndjson<{ region: string; id: string }>(replay.stdout);
    expect(entries).toHaveLength(10);
    expect(entries.every((entry) => entry.region === '1:2')).toBe(true);
    const holed = cairn('wal', 'replay', '--node', '0', '--region', '1:1');
    expect(holed.code).toBe(3);

    // 4. Obsolete region 1:1 wholly: the dry run says what it hides and what GC then deletes...
    const latest = ndjson<{ id: string }>(
      cairn('wal', 'replay', '--node', '1', '--region', '1:1').stdout,
    ).at(-1)?.id;
    if (latest === undefined) throw new Error('region 1:1 has entries');
    const register = () =>
      json<{ register: unknown }>(cairn('wal', 'inspect', '--node', '1', '--json').stdout).register;
    const before = register();
    const obsolete = (...flags: string[]) =>
      cairn('wal', 'obsolete', '--node', '1', '--region', '1:1', '--to', latest, ...flags);
    const dry = obsolete('--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const preview = json<{
      dryRun: boolean;
      hiddenEntries: number;
      deletes: { objects: number; bytes: number } | null;
    }>(dry.stdout);
    expect(preview).toMatchObject({ dryRun: true, hiddenEntries: 10 });
    expect(preview.deletes?.objects).toBeGreaterThan(0);
    // ...and takes nothing: no epoch, no watermark.
    expect(register()).toEqual(before);
    const human = obsolete('--dry-run');
    expect(human.stdout).toMatch(
      /^dry run: raising the watermark of region 1:1 from none to .* hides 10 entries/,
    );

    // ...then the real one (fencing a writer that may be live) deletes exactly that.
    const applied = obsolete('--take-over', '--json');
    expect(applied.code, applied.stderr).toBe(0);
    expect(
      json<{ collected: { objects: number; bytes: number } }>(applied.stdout).collected,
    ).toEqual({ objects: preview.deletes?.objects, bytes: preview.deletes?.bytes });

    // 5. GC: the dry run first; nothing is left for a pass after the obsolete's collection.
    const gcDry = cairn('wal', 'gc', '--node', '1', '--dry-run', '--json');
    expect(gcDry.code, gcDry.stderr).toBe(0);
    const planned = json<{ dryRun: boolean; objects: unknown[] }>(gcDry.stdout);
    expect(planned).toMatchObject({ dryRun: true, objects: [] });
    const gc = cairn('wal', 'gc', '--node', '1', '--take-over', '--json');
    expect(gc.code, gc.stderr).toBe(0);
    expect(json<{ dryRun: boolean; objects: unknown[] }>(gc.stdout)).toMatchObject({
      dryRun: false,
      objects: [],
    });

    // Health again: the healthy prefix's floor moved up.
    const after = json<{ rows: Array<{ prefix: string; floor: string }> }>(
      cairn('wal', 'fleet', '--json').stdout,
    ).rows.find((row) => row.prefix === HEALTHY);
    expect(BigInt(after?.floor ?? '0')).toBeGreaterThan(0n);
  });
});
