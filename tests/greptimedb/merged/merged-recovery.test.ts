/**
 * GreptimeDB's merged layout (34-byte header) recovered by GreptimeDB's own open rules, on the
 * local store and on radosgw: the log is every listed object (gaps tolerated), the next
 * sequence and each region's latest id as GreptimeDB derives them, writer runs and two
 * writers named; a prefix GreptimeDB would refuse to open is a typed verdict naming object and
 * rule (each row of the table below); a damaged segment is a hole of that region only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectGtPrefix } from '../../../src/main/engine/greptimedb/inspect';
import { openGtReadOnly } from '../../../src/main/engine/greptimedb/read-only-log';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import type { WalEntry } from '../../../src/main/engine/wal/entry';
import { CorruptSegmentError } from '../../../src/main/engine/wal/errors';
import {
  GtOpenRefusedError,
  MixedLayoutsError,
} from '../../../src/main/engine/greptimedb/open-errors';
import { s3Lane } from '../../support/s3';
import { encodeGtObject, gtObjectKey } from '../gt-encoder';
import { instanceHex, instanceId, MergedPrefixBuilder } from './merged-encoder';

const R1 = (1n << 32n) | 1n;
const R2 = (1n << 32n) | 2n;
const R3 = (2n << 32n) | 0n;
const provider = (prefix: string, regionId: bigint) => ({ prefix, regionId });

async function entriesOf(
  iterable: AsyncIterable<WalEntry>,
): Promise<Array<{ id: bigint; text: string }>> {
  const out: Array<{ id: bigint; text: string }> = [];
  for await (const e of iterable) out.push({ id: e.id, text: Buffer.from(e.data).toString() });
  return out;
}

/** 3 regions, one restart, a gap of 2, the damaged segment of R2 in object 4. */
function soundPrefix(prefix: string): MergedPrefixBuilder {
  const b = new MergedPrefixBuilder(prefix);
  b.append([
    [R1, ['a0', 'a1']],
    [R2, ['b0']],
  ]); // 0
  b.append([
    [R1, ['a2']],
    [R3, ['c0']],
  ]); // 1
  b.restart();
  b.append([[R2, ['b1', 'b2']]]); // 2
  b.skip(1n);
  b.append([
    [R1, ['a3']],
    [R2, ['b3']],
    [R3, ['c1']],
  ]); // 4
  b.append([[R3, ['c2']]]); // 5
  b.damageSegment(4n, R2);
  return b;
}

function lanes(): Array<[string, () => Promise<ObjectIo>]> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-merged-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const out: Array<[string, () => Promise<ObjectIo>]> = [
    ['local', async () => new LocalObjectIo(join(dir, String(Math.random())))],
  ];
  const lane = s3Lane();
  if (lane !== null) {
    afterAll(() => lane.dispose());
    out.push(['radosgw', () => lane.makeIo('gt-merged')]);
  }
  return out;
}

describe.each(lanes())('a merged-layout prefix on %s', (_lane, makeIo) => {
  const prefix = 'wal/datanodes/0/epochs/0';

  it('recovers every object as the log: runs, next sequence, latest ids', async () => {
    const io = await makeIo();
    await soundPrefix(prefix).writeTo(io);
    const report = await inspectGtPrefix(io, prefix);
    expect(report.layout).toBe('merged');
    expect(report.failure).toBeNull();
    expect(report.chain.map((o) => o.seq)).toEqual([0n, 1n, 2n, 4n, 5n]);
    expect(report.orphans).toEqual([]);
    expect(report.merged?.nextSeq).toBe(6n);
    expect(report.merged?.refusals).toEqual([]);
    expect(report.merged?.twoWriters).toBeNull();
    expect(
      report.merged?.runs.map((r) => [r.writerInstance, r.firstSeq, r.lastSeq, r.objects]),
    ).toEqual([
      [instanceHex(1), 0n, 1n, 2],
      [instanceHex(2), 2n, 5n, 3],
    ]);
    expect(report.merged?.runs[0]?.firstAtMs).toEqual(expect.any(Number));
    expect(report.regions.map((r) => [r.regionId, r.latestId])).toEqual([
      [R1, (4n << 20n) | 1n],
      [R2, (4n << 20n) | 1n],
      [R3, (5n << 20n) | 1n],
    ]);
  });

  it('replays a damaged segment as a hole of that region only; fail fails', async () => {
    const io = await makeIo();
    await soundPrefix(prefix).writeTo(io);
    const log = await openGtReadOnly(io, prefix);
    const skipped: Array<{ key: string; regionId: bigint; firstId: bigint; lastId: bigint }> = [];
    const r2 = await entriesOf(
      log.read(provider(prefix, R2), 0n, {
        onSkipped: (s) =>
          skipped.push({ key: s.key, regionId: s.regionId, firstId: s.firstId, lastId: s.lastId }),
      }),
    );
    expect(r2.map((e) => e.text)).toEqual(['b0', 'b1', 'b2']);
    expect(skipped).toEqual([
      {
        key: `${prefix}/objects/00000000000000000004.wal`,
        regionId: R2,
        firstId: (4n << 20n) | 1n,
        lastId: (4n << 20n) | 1n,
      },
    ]);
    // The object's other regions replay whole.
    expect((await entriesOf(log.read(provider(prefix, R1), 0n))).map((e) => e.text)).toEqual([
      'a0',
      'a1',
      'a2',
      'a3',
    ]);
    expect((await entriesOf(log.read(provider(prefix, R3), 0n))).map((e) => e.text)).toEqual([
      'c0',
      'c1',
      'c2',
    ]);
    await expect(
      entriesOf(log.read(provider(prefix, R2), 0n, { onCorruptedSegment: 'fail' })),
    ).rejects.toBeInstanceOf(CorruptSegmentError);
  });

  it('names two writers when an instance comes back (A, B, A)', async () => {
    const io = await makeIo();
    const b = new MergedPrefixBuilder(prefix);
    b.writeAs(1).append([[R1, ['x']]]);
    b.writeAs(2).append([[R1, ['y']]]);
    b.writeAs(1).append([[R1, ['z']]]);
    await b.writeTo(io);
    const report = await inspectGtPrefix(io, prefix);
    expect(report.failure).toBeNull();
    expect(report.merged?.runs.map((r) => [r.firstSeq, r.lastSeq])).toEqual([
      [0n, 0n],
      [1n, 1n],
      [2n, 2n],
    ]);
    expect(report.merged?.twoWriters).toBe(
      `two writers: ${instanceHex(1).slice(0, 8)} at 0, 2 (between, ${instanceHex(2).slice(0, 8)} at 1)`,
    );
  });
});

/** Each row: how the prefix is broken, the rule GreptimeDB's open stops at, the object named. */
const REFUSALS: ReadonlyArray<{
  name: string;
  build: (b: MergedPrefixBuilder) => void;
  rule: string;
  seq: bigint;
}> = [
  {
    name: 'a header sequence that is not its key',
    build: (b) => {
      b.append([[R1, ['a']]]);
      const bytes = b.objects.get(0n)!;
      b.objects.delete(0n);
      b.objects.set(1n, bytes);
    },
    rule: 'header-seq',
    seq: 1n,
  },
  {
    name: 'a region named twice in a footer',
    build: (b) =>
      b.put({
        seq: 0n,
        writerInstance: instanceId(1),
        segments: [
          { regionId: R1, entries: [{ id: 1n, payload: Buffer.from('a') }] },
          { regionId: R1, entries: [{ id: 2n, payload: Buffer.from('b') }] },
        ],
      }),
    rule: 'region-twice',
    seq: 0n,
  },
  {
    name: "a region's ranges overlapping across objects (the later object named)",
    build: (b) => {
      b.append([[R1, ['a', 'b', 'c']]]);
      b.append([[R2, ['x']]]);
      b.put({
        seq: 2n,
        writerInstance: instanceId(1),
        segments: [{ regionId: R1, entries: [{ id: 2n, payload: Buffer.from('again') }] }],
      });
    },
    rule: 'ranges',
    seq: 2n,
  },
  {
    name: 'structural damage (the trailer magic)',
    build: (b) => {
      b.append([[R1, ['a']]]);
      b.append([[R1, ['b']]]);
      const bytes = b.objects.get(1n)!;
      bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0x01;
    },
    rule: 'structure',
    seq: 1n,
  },
  {
    name: 'sequence exhaustion (a region id past the last sequence)',
    build: (b) =>
      b.put({
        seq: 0n,
        writerInstance: instanceId(1),
        segments: [
          { regionId: R1, entries: [{ id: (1n << 64n) - 1n, payload: Buffer.from('a') }] },
        ],
      }),
    rule: 'sequence-exhausted',
    seq: 0n,
  },
];

describe('a prefix GreptimeDB would refuse to open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-refused-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(REFUSALS)('$name: refused by $rule, naming the object', async ({ build, rule, seq }) => {
    const io = new LocalObjectIo(join(dir, rule));
    const prefix = 'wal/datanodes/3/epochs/1';
    const b = new MergedPrefixBuilder(prefix);
    build(b);
    await b.writeTo(io);
    const report = await inspectGtPrefix(io, prefix);
    expect(report.layout).toBe('merged');
    expect(report.failure?.code).toBe('OpenRefused');
    expect(report.merged?.refusals[0]).toMatchObject({ rule, key: b.key(seq) });
    const open = openGtReadOnly(io, prefix);
    await expect(open).rejects.toBeInstanceOf(GtOpenRefusedError);
    await expect(open).rejects.toMatchObject({ rule, key: b.key(seq) });
  });

  it('names a prefix holding both layouts, never guessing', async () => {
    const io = new LocalObjectIo(join(dir, 'mixed'));
    const prefix = 'wal/datanodes/4/epochs/0';
    await io.putIfAbsent(
      gtObjectKey(prefix, 0n),
      encodeGtObject({ seq: 0n, epoch: 1n, prev: null, reclaimBoundary: 0n, segments: [] }),
    );
    const b = new MergedPrefixBuilder(prefix);
    b.skip(1n).append([[R1, ['x']]]);
    await b.writeTo(io);
    const report = await inspectGtPrefix(io, prefix);
    expect(report.layout).toBe('mixed');
    expect(report.failure?.code).toBe('MixedLayouts');
    await expect(openGtReadOnly(io, prefix)).rejects.toBeInstanceOf(MixedLayoutsError);
  });
});
