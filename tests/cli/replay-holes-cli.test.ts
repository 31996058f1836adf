/**
 * `cairn wal replay` over a damaged segment, as a user runs it, on the local store and on
 * radosgw: one stderr line per skipped segment and exit 3 (never a quiet exit 0), the hole as
 * a record in the NDJSON stream with `--holes` (where it was met, among decoded lines too; on
 * stderr beside CSV, which stays one table), a stop at the first damage with
 * `--on-damage fail`, and `RegionNotFound` (exit 1) for a region the prefix does not have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { formatEntryId } from '../../src/shared/id-notation';
import { runCairn } from '../support/cairn-cli';
import { writeDamagedPrefix, type DamagedSegment } from '../support/damaged-segment';
import { s3Lane } from '../support/s3';

const dir = mkdtempSync(join(tmpdir(), 'cairn-replay-holes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Lane {
  readonly io: ObjectIo;
  readonly flags: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

type Line = {
  hole?: boolean;
  idU64?: string;
  firstId?: string;
  firstIdU64?: string;
  lastIdU64?: string;
  key?: string;
};

function replayCases(lane: () => Promise<Lane>): void {
  let damaged: DamagedSegment;
  let at: Lane;
  const replay = (...args: string[]) =>
    runCairn(['wal', 'replay', ...args, ...at.flags], { ...at.env, CAIRN_DATA_DIR: dir });
  const lines = (stdout: string): Line[] =>
    stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);

  it('writes one stderr line per skipped segment and exits 3', async () => {
    at = await lane();
    damaged = await writeDamagedPrefix(at.io);
    const run = replay('--region', '1:1');
    expect(run.code).toBe(3);
    const ids = `${formatEntryId(damaged.firstId)}-${formatEntryId(damaged.lastId)}`;
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^cairn: hole: region 1:1 ids ${ids} skipped, ${damaged.key}: segment-\\w+`),
      ),
    ]);
    const entries = lines(run.stdout);
    expect(entries).toHaveLength(damaged.regionEntries - damaged.lostEntries);
    expect(
      entries.some(
        (e) => BigInt(e.idU64 ?? 0) >= damaged.firstId && BigInt(e.idU64 ?? 0) <= damaged.lastId,
      ),
    ).toBe(false);
    // The other region reads whole: exit 0, nothing on stderr.
    const other = replay('--region', '1:2');
    expect([other.code, other.stderr]).toEqual([0, '']);
  }, 60_000);

  it('puts the hole in the stream where it was met with --holes', () => {
    const run = replay('--region', '1:1', '--holes');
    expect(run.code).toBe(3);
    const all = lines(run.stdout);
    const at = all.findIndex((line) => line.hole === true);
    expect(all[at]).toMatchObject({
      hole: true,
      key: damaged.key,
      firstId: formatEntryId(damaged.firstId),
      firstIdU64: String(damaged.firstId),
      lastIdU64: String(damaged.lastId),
    });
    expect(BigInt(all[at - 1]?.idU64 ?? 0)).toBeLessThan(damaged.firstId);
    expect(BigInt(all[at + 1]?.idU64 ?? 0)).toBeGreaterThan(damaged.lastId);
  });

  it('keeps the hole where it was met in decoded lines written 64 KiB at a time', () => {
    const all = lines(replay('--region', '1:1', '--decode', '--holes').stdout);
    const at = all.findIndex((line) => line.hole === true);
    expect(all[at]).toMatchObject({ hole: true, key: damaged.key });
    expect(BigInt(all[at - 1]?.idU64 ?? 0)).toBeLessThan(damaged.firstId);
    expect(BigInt(all[at + 1]?.idU64 ?? 0)).toBeGreaterThan(damaged.lastId);
  });

  it('keeps CSV one table with --holes: the hole record goes to stderr', () => {
    const run = replay('--region', '1:1', '--rows', '--format', 'csv', '--holes');
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('region,regionU64,id,idU64,op,sequence\n');
    const [line, record, notRows] = run.stderr.trim().split('\n');
    expect(line).toMatch(/^cairn: hole: region 1:1 /);
    expect(JSON.parse(record ?? '')).toMatchObject({ hole: true, key: damaged.key });
    expect(notRows).toMatch(/entries are not WalEntry payloads/);
  });

  it('stops at the first damage with --on-damage fail, and refuses an unknown region', () => {
    const failed = replay('--region', '1:1', '--on-damage', 'fail');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^CorruptSegment: /);
    expect(lines(failed.stdout).every((e) => BigInt(e.idU64 ?? 0) < damaged.firstId)).toBe(true);
    const missing = replay('--region', '9999:0');
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toMatch(/^RegionNotFound: region 9999:0 does not exist/);
  });
}

describe('cairn wal replay over a damaged segment, local store', () => {
  replayCases(async () => {
    const store = join(dir, 'store');
    return { io: new LocalObjectIo(store), flags: ['--dir', store], env: {} };
  });
});

const lane = s3Lane();
describe.skipIf(!lane)('cairn wal replay over a damaged segment, radosgw', () => {
  afterAll(() => lane?.dispose());
  replayCases(async () => {
    const io = await lane!.makeIo('replay-holes');
    const settings = lane!.settings;
    return {
      io,
      flags: ['--bucket', io.bucket, '--s3-endpoint', settings.endpoint ?? '', '--path-style'],
      env: {
        AWS_ACCESS_KEY_ID: settings.credentials?.accessKeyId ?? '',
        AWS_SECRET_ACCESS_KEY: settings.credentials?.secretAccessKey ?? '',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    };
  });
});
