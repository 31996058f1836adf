/**
 * The CLI's health answers for a cron job, each with the exit code of its cause (docs/cli.md):
 * a flipped segment byte - which recovery's footer reads cannot see - makes `wal fleet` say
 * `unverified` (exit 6) until `wal fleet --verify` reads it whole, alerts with exit 1 and a line
 * naming the object, and leaves the finding in the data directory's ledger for the next run and
 * the console; a verify the console ran is what the CLI reads too; a typo'd prefix exits 5, an
 * unreachable store 4, and `--json` carries the cause.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ScrubJobView } from '../../src/shared/contract/wal-scrub';
import { runCairn } from '../support/cairn-cli';
import { writeDamagedPrefix } from '../support/damaged-segment';
import { PREFIX, scrubEnded, seed, walApp } from '../wal-api/support';

const dir = mkdtempSync(join(tmpdir(), 'cairn-health-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface FleetJson {
  exitCode: number;
  cause: string;
  unhealthy: number;
  unverified: number;
  verified: Array<{ prefix: string; checked: number; damaged: number }>;
  rows: Array<{
    prefix: string;
    health: { state: string; text: string };
    coverage: { state: string; objects: number; footerOnly: number };
    damage: Array<{ key: string; check: string }>;
  }>;
}

/** A store and a data directory of its own (the ledger lives in the data directory). */
function place(name: string) {
  const store = join(dir, name, 'store');
  const data = join(dir, name, 'data');
  const cairn = (...args: string[]) =>
    runCairn(['wal', ...args, '--store', store], { CAIRN_DATA_DIR: data });
  return { store, data, cairn };
}

describe('cairn wal fleet for a cron job', () => {
  it('alerts on a flipped segment byte with exit 1 and a line naming it, once verified', async () => {
    const { store, cairn } = place('flipped');
    const damaged = await writeDamagedPrefix(new LocalObjectIo(store));

    // Footers only: nothing wrong seen, and nothing read whole - unverified, never healthy.
    const before = cairn('fleet');
    expect(before.code).toBe(6);
    expect(before.stdout).toMatch(
      /never +unverified: never verified: \d+ objects known only by footer$/m,
    );
    expect(before.stdout).not.toMatch(/ healthy$/m);

    const cron = cairn('fleet', '--verify');
    expect(cron.code).toBe(1);
    expect(cron.stdout).toContain(`DAMAGED  ${damaged.key}: segment-crc check failed`);
    expect(cron.stderr).toMatch(
      /cairn: verified wal\/nodes\/0\/generations\/0: \d+ objects read whole, 1 damaged/,
    );

    // The next run, without --verify, remembers it (the data directory's ledger).
    const json = cairn('fleet', '--json');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as FleetJson;
    expect(report).toMatchObject({ exitCode: 1, cause: 'unhealthy', unhealthy: 1 });
    expect(report.rows[0]?.damage.map((d) => [d.key, d.check])).toEqual([
      [damaged.key, 'segment-crc'],
    ]);
    expect(report.rows[0]?.coverage).toMatchObject({ state: 'verified', footerOnly: 0 });

    // inspect reads the same ledger: the State, what it covers, the object named.
    const inspect = cairn('inspect');
    expect(inspect.code).toBe(1);
    expect(inspect.stdout).toMatch(/^state +damaged: 1 object, on the chain \(segment-crc\)$/m);
    expect(inspect.stdout).toMatch(
      /^verified +verified .* \d+ objects read whole and CRC-checked$/m,
    );
    expect(inspect.stdout).toContain(`DAMAGED  ${damaged.key}: segment-crc check failed`);
  });

  it('exits 0 on a sound store once verified, and verifies again only past --max-age', async () => {
    const { store, cairn } = place('sound');
    await seed(new LocalObjectIo(store), 20, 2);
    const first = cairn('fleet', '--verify', '--json');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as FleetJson;
    expect(report).toMatchObject({ exitCode: 0, cause: 'healthy', unverified: 0 });
    expect(report.verified).toHaveLength(1);
    expect(report.rows[0]?.health).toEqual({ state: 'healthy', reasons: [], text: 'healthy' });
    // Within the age nothing is read again; a shorter age than the pass's makes it stale.
    const again = JSON.parse(cairn('fleet', '--verify', '--json').stdout) as FleetJson;
    expect(again.verified).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const stale = cairn('fleet', '--max-age', '10ms');
    expect(stale.code).toBe(6);
    expect(stale.stdout).toMatch(/\(stale\) +unverified: last verified/);
    expect(cairn('fleet', '--max-age', 'soon').code).toBe(2);
  });

  it("reads the console's ledger: a verify the console ran counts for the CLI", async () => {
    const app = await walApp();
    try {
      const damaged = await writeDamagedPrefix(app.io);
      const job = (await app.call('wal.scrub.start', { prefix: PREFIX })) as ScrubJobView;
      await scrubEnded(app, job.jobId);
      await app.services.wal.closeAll();
      // The embedded store of the console's data directory: its connection `embedded`.
      const run = runCairn(['wal', 'fleet', '--data-dir', app.dataDir]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`DAMAGED  ${damaged.key}: segment-crc check failed`);
      expect(run.stdout).toMatch(/for the console's connection embedded: 1 damaged object;/);
    } finally {
      await app.dispose();
    }
  });
});

describe('exit codes that tell causes apart', () => {
  it('exits 5 for a prefix with no WAL object (a typo), 0 with --allow-empty', async () => {
    const { store, cairn } = place('typo');
    await seed(new LocalObjectIo(store), 4, 1);
    for (const command of ['inspect', 'verify']) {
      const typo = cairn(command, '--prefix', 'datanodes/1/epochs/2');
      expect(typo.code).toBe(5);
      expect(typo.stderr).toMatch(
        /^PrefixNotFound: no WAL object under datanodes\/1\/epochs\/2\/objects\//,
      );
    }
    const json = cairn('verify', '--prefix', 'datanodes/1/epochs/2', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'PrefixNotFound', prefix: 'datanodes/1/epochs/2' },
      exitCode: 5,
      cause: 'notFound',
    });
    expect(cairn('verify', '--prefix', 'datanodes/1/epochs/2', '--allow-empty').code).toBe(0);
    expect(place('nothing').cairn('fleet').code).toBe(5);
  });

  it('exits 4 when the store cannot be reached, with the cause in --json', () => {
    const env = { AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y' };
    const args = ['--bucket', 'b', '--s3-endpoint', 'http://127.0.0.1:1', '--path-style'];
    const fleet = runCairn(['wal', 'fleet', ...args, '--json'], env);
    expect(fleet.code).toBe(4);
    expect(JSON.parse(fleet.stdout)).toMatchObject({
      error: { code: 'Unavailable' },
      exitCode: 4,
      cause: 'unreachable',
    });
    expect(runCairn(['wal', 'inspect', ...args], env).code).toBe(4);
  });
});
