/**
 * A merged-layout prefix through the `cairn` command as a user meets it: `wal ls` parses node
 * and generation from `.../datanodes/<node>/epochs/<gen>`; inspect prints the open verdict
 * first and the writer runs; verify names the object CRC and what GreptimeDB loses (one
 * region); replay skips the damaged segment with exit 3 (`--on-damage fail` fails); `wal
 * fleet` puts a refusal first and names two writers, exit 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { metricsPayloads } from '../../../src/main/services/demo/metrics-entries';
import { runCairn } from '../../support/cairn-cli';
import { instanceHex, instanceId, MergedPrefixBuilder } from './merged-encoder';

const R1 = (1n << 32n) | 1n;
const R2 = (1n << 32n) | 2n;
const SOUND = 'wal/datanodes/0/epochs/0';
const REFUSED = 'wal/datanodes/1/epochs/3';
const TWO = 'wal/datanodes/2/epochs/0';

/** `count` metrics `WalEntry`s (replay decodes each payload as one). */
function rows(count: number, sample: number): Uint8Array[] {
  return metricsPayloads(1, sample, count, BigInt(sample)).payloads;
}

describe('a merged-layout prefix from the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-merged-cli-'));
  const store = join(dir, 'store');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const io = new LocalObjectIo(store);
    const sound = new MergedPrefixBuilder(SOUND);
    sound.append([
      [R1, rows(1, 0)],
      [R2, rows(1, 10)],
    ]);
    sound.restart().skip(2n);
    sound.append([
      [R1, rows(1, 1)],
      [R2, rows(2, 11)],
    ]);
    sound.damageSegment(3n, R2);
    await sound.writeTo(io);
    const refused = new MergedPrefixBuilder(REFUSED);
    refused.append([[R1, ['a', 'b']]]);
    refused.put({
      seq: 1n,
      writerInstance: instanceId(1),
      segments: [{ regionId: R1, entries: [{ id: 1n, payload: Buffer.from('again') }] }],
    });
    await refused.writeTo(io);
    const two = new MergedPrefixBuilder(TWO);
    two.writeAs(1).append([[R1, ['x']]]);
    two.writeAs(2).append([[R1, ['y']]]);
    two.writeAs(1).append([[R1, ['z']]]);
    await two.writeTo(io);
  });

  const flags = (prefix: string) => ['--dir', store, '--prefix', prefix];

  it('wal ls names node and generation of each datanode prefix', () => {
    const listed = runCairn(['wal', 'ls', '--dir', store, '--json']);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.prefix, r.format, r.nodeId, r.generation])).toEqual([
      [SOUND, 'greptimedb-v1', '0', 0],
      [REFUSED, 'greptimedb-v1', '1', 3],
      [TWO, 'greptimedb-v1', '2', 0],
    ]);
  });

  it('inspect prints the verdict first, then the writer runs', () => {
    const opened = runCairn(['wal', 'inspect', ...flags(SOUND)]);
    expect(opened.code).toBe(0);
    const lines = opened.stdout.split('\n');
    expect(lines[0]).toBe('GREPTIMEDB OPENS  yes: 2 objects, next sequence 4');
    expect(opened.stdout).toContain(instanceHex(1));
    expect(opened.stdout).toContain(instanceHex(2));
    const refused = runCairn(['wal', 'inspect', ...flags(REFUSED)]);
    expect(refused.code).toBe(1);
    expect(refused.stdout.split('\n')[0]).toBe(
      `GREPTIMEDB WOULD REFUSE TO OPEN  ranges at ${REFUSED}/objects/00000000000000000001.wal: region 1:1 starts at 0:1, but ${REFUSED}/objects/00000000000000000000.wal ends at 0:2`,
    );
  });

  it('verify names the object CRC and the one region GreptimeDB loses', () => {
    const verified = runCairn(['wal', 'verify', ...flags(SOUND)]);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain('DAMAGED (object-crc)');
    expect(verified.stdout).toContain(
      `GREPTIMEDB LOSES  ${SOUND}/objects/00000000000000000003.wal: region 1:2 ids 3:1-3:2`,
    );
  });

  it('replay skips the damaged segment (exit 3) and replays the other region whole', () => {
    const r2 = runCairn(['wal', 'replay', ...flags(SOUND), '--region', '1:2']);
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain('00000000000000000003.wal');
    const r1 = runCairn(['wal', 'replay', ...flags(SOUND), '--region', '1:1']);
    expect(r1.stderr).toBe('');
    expect(r1.code).toBe(0);
    const failed = runCairn([
      'wal',
      'replay',
      ...flags(SOUND),
      '--region',
      '1:2',
      '--on-damage',
      'fail',
    ]);
    expect(failed.code).not.toBe(0);
    expect(failed.code).not.toBe(3);
    expect(failed.stderr).toContain('CorruptSegment');
  });

  it('wal fleet: the refusal first, two writers named, exit 1', () => {
    const fleet = runCairn(['wal', 'fleet', '--dir', store, '--json']);
    expect(fleet.code).toBe(1);
    const rows = JSON.parse(fleet.stdout).rows as Array<{ prefix: string; problems: string[] }>;
    const problems = new Map(rows.map((r) => [r.prefix, r.problems]));
    expect(problems.get(REFUSED)?.[0]).toBe(
      `GreptimeDB would refuse to open: ranges at ${REFUSED}/objects/00000000000000000001.wal`,
    );
    expect(problems.get(TWO)).toEqual([
      `two writers: ${instanceHex(1).slice(0, 8)} at 0, 2 (between, ${instanceHex(2).slice(0, 8)} at 1)`,
    ]);
    expect(problems.get(SOUND)).toEqual([]);
  });
});
