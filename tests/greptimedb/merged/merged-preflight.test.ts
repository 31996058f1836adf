/**
 * Preflight names what GreptimeDB's open would do per region: opens; opens with holes (which,
 * and where `fail` would stop); fails at the first entry mito cannot decode, named
 * `seq:position` of its object with the decoder's reason; every region fails when the prefix
 * is refused. The CLI prints one line per region with the exit code of the worst.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { metricsPayloads } from '../../../src/main/services/demo/metrics-entries';
import { preflightPrefix } from '../../../src/main/services/wal/preflight/preflight';
import { runCairn } from '../../support/cairn-cli';
import { instanceId, MergedPrefixBuilder } from './merged-encoder';

const R1 = (1n << 32n) | 1n;
const R2 = (1n << 32n) | 2n;
const R3 = (1n << 32n) | 3n;
const PREFIX = 'wal/datanodes/0/epochs/0';
const REFUSED = 'wal/datanodes/1/epochs/0';
const rows = (count: number, sample: number) =>
  metricsPayloads(1, sample, count, BigInt(sample)).payloads;

describe('preflight of a merged-layout prefix', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-preflight-'));
  const store = join(dir, 'store');
  const io = new LocalObjectIo(store);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const b = new MergedPrefixBuilder(PREFIX);
    b.append([
      [R1, rows(2, 0)],
      [R2, rows(2, 10)],
      [R3, rows(1, 20)],
    ]);
    b.restart();
    b.append([
      [R1, rows(1, 2)],
      [R2, rows(1, 12)],
      [R3, [rows(1, 21)[0]!, Buffer.from('not a WalEntry'), rows(1, 22)[0]!]],
    ]);
    b.damageSegment(0n, R2);
    await b.writeTo(io);
    const refused = new MergedPrefixBuilder(REFUSED);
    refused.append([[R1, rows(1, 0)]]);
    refused.put({
      seq: 1n,
      writerInstance: instanceId(1),
      segments: [{ regionId: R1, entries: [{ id: 1n, payload: rows(1, 1)[0]! }] }],
    });
    await refused.writeTo(io);
  });

  it('says per region: opens, opens with holes, fails at the entry mito cannot decode', async () => {
    const progress: number[] = [];
    const report = await preflightPrefix(io, PREFIX, (p) => progress.push(p.regionsDone));
    expect(report.failure).toBeNull();
    expect(report.allOpen).toBe(false);
    expect(progress).toEqual([1, 2, 3]);
    const [r1, r2, r3] = report.regions;
    expect(r1).toMatchObject({ regionId: R1, entries: 3, open: { kind: 'opens' }, holes: [] });
    expect(r2).toMatchObject({
      regionId: R2,
      entries: 1,
      open: { kind: 'opens-with-holes' },
      holes: [{ key: `${PREFIX}/objects/00000000000000000000.wal`, firstId: 1n, lastId: 2n }],
      failsOnDamageAt: { key: `${PREFIX}/objects/00000000000000000000.wal` },
    });
    expect(r3).toMatchObject({
      regionId: R3,
      entries: 2,
      open: {
        kind: 'fails-at-entry',
        entryId: (1n << 20n) | 2n,
        key: `${PREFIX}/objects/00000000000000000001.wal`,
      },
    });
  });

  it('fails every region of a prefix GreptimeDB would refuse', async () => {
    const report = await preflightPrefix(io, REFUSED);
    expect(report.failure?.code).toBe('OpenRefused');
    expect(report.regions.map((r) => [r.regionId, r.open.kind])).toEqual([[R1, 'fails']]);
  });

  it('prints one line per region from the CLI, exit 1 when a region fails', () => {
    const run = runCairn(['wal', 'preflight', '--dir', store, '--prefix', PREFIX]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('region 1:1  opens (3 entries)');
    expect(lines[1]).toMatch(
      /^region 1:2 {2}opens with holes: ids 0:1-0:2 of \S+00000000000000000000\.wal \(segment-crc\); with on_corrupted_segment = fail it fails at /,
    );
    expect(lines[2]).toMatch(
      /^region 1:3 {2}FAILS at entry 1:2 of \S+00000000000000000001\.wal: \S+ at byte \d+/,
    );
  });
});
