/**
 * GreptimeDB prefixes read through Cairn's one read side, on every backend: chain selection
 * with instances, sequence gaps, late orphans, a reclaimed range, a chain broken by a missing
 * object; replay returns exactly what was encoded; verify names damage; writes are refused
 * and nothing is ever written.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { objectsUnder, type ObjectIo } from '../../src/main/engine/objectio/object-io';
import {
  inspectTarget,
  openTargetReadOnly,
  verifyTarget,
} from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget, resolveWriteTarget } from '../../src/main/engine/wal-read/target';
import { discoverPrefixes } from '../../src/main/engine/wal-read/discover';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { s3Lane } from '../support/s3';
import { failureOf } from '../support/typed-failure';
import { localLane, memoryLane, s3WalLane, type WalLane } from '../wal/lanes/lane-kit';
import { gtObjectKey, GtPrefixBuilder } from './gt-encoder';

const PREFIX = 'datanodes/1/epochs/2';
const R1 = makeRegionId(1, 1);
const R2 = makeRegionId(2, 1);

async function snapshot(io: ObjectIo): Promise<string> {
  const hash = createHash('sha256');
  for await (const object of objectsUnder(io, '')) hash.update(`${object.key}:${object.etag}\n`);
  return hash.digest('hex');
}

async function replay(
  io: ObjectIo,
  region: bigint,
  from = 0n,
): Promise<Array<{ id: bigint; payload: string }>> {
  const log = await openTargetReadOnly(io, await resolveReadTarget(io, PREFIX));
  const out: Array<{ id: bigint; payload: string }> = [];
  for await (const entry of log.read({ prefix: log.prefix, regionId: region }, from))
    out.push({ id: entry.id, payload: Buffer.from(entry.data).toString() });
  return out;
}

const expectedOf = (builder: GtPrefixBuilder, region: bigint, from = 0n) =>
  builder
    .expected(region, from)
    .map((e) => ({ id: e.id, payload: Buffer.from(e.payload).toString() }));

/** Two instances; the first leaves a late object after the second opened; a reclaimed range. */
function twoInstances(): { builder: GtPrefixBuilder; late: bigint } {
  const builder = new GtPrefixBuilder(PREFIX);
  builder.openInstance();
  builder.append([
    [R1, ['a1', 'a2']],
    [R2, ['b1']],
  ]);
  builder.append([[R1, ['a3']]]);
  const firstEpoch = 1n;
  const lastOfFirst = builder.append([[R2, ['b2', 'b3']]]);
  builder.flushBelow(2n);
  builder.openInstance(3n);
  builder.append([[R1, ['a4']]], { gap: 2n });
  const late = lastOfFirst + 1n;
  builder.lateObject(late, firstEpoch, { seq: lastOfFirst, epoch: firstEpoch }, [[R1, ['lost']]]);
  builder.append([
    [R1, ['a5']],
    [R2, ['b4']],
  ]);
  return { builder, late };
}

const s3 = s3Lane();
const lanes: WalLane[] = [memoryLane(), localLane(), ...(s3 === null ? [] : [s3WalLane(s3)])];
afterAll(async () => {
  await Promise.all(lanes.map((lane) => lane.dispose()));
  await s3?.dispose();
});

describe.each(lanes)('GreptimeDB prefix read-only on $name', (lane) => {
  it('inspect reports the chain, the late orphan, instances and the reclaimed range', async () => {
    const io = await lane.makeIo('gt-inspect');
    const { builder, late } = twoInstances();
    await builder.writeTo(io, (spec) => spec.seq >= 1n); // seq 0 was reclaimed (deleted)
    const before = await snapshot(io);
    const report = await inspectTarget(io, await resolveReadTarget(io, `${PREFIX}/`));
    expect(report.format).toBe('greptimedb-v1');
    if (report.format !== 'greptimedb-v1') return;
    expect(report.failure).toBeNull();
    expect(report.orphans.map((o) => [o.seq, o.epoch, o.key])).toEqual([
      [late, 1n, gtObjectKey(PREFIX, late)],
    ]);
    const chainSeqs = report.chain.map((o) => o.seq);
    expect(chainSeqs).toEqual([2n, 3n, 7n, 10n, 11n]);
    expect(report.chain[0]?.prev).toEqual({ seq: 1n, epoch: 1n });
    expect(report.reclaimBoundary).toBe(2n);
    expect(report.belowBoundary.map((o) => o.seq)).toEqual([1n]);
    // The first instance's start object (seq 0) was reclaimed; its late object counts as its own.
    expect(report.instances.map((i) => [i.epoch, i.startSeq, i.objects, i.onChain])).toEqual([
      [1n, null, 4, 2],
      [8n, 7n, 3, 3],
    ]);
    expect(report.regions.map((r) => [r.regionId, r.entries])).toEqual([
      [R1, 3],
      [R2, 3],
    ]);
    expect(await snapshot(io)).toBe(before);
  });

  it('replay returns exactly what was encoded, region by region, and from an id', async () => {
    const io = await lane.makeIo('gt-replay');
    const { builder } = twoInstances();
    await builder.writeTo(io);
    expect(await replay(io, R1)).toEqual(expectedOf(builder, R1));
    expect(await replay(io, R2)).toEqual(expectedOf(builder, R2));
    const from = (10n << 20n) | 1n;
    expect(await replay(io, R1, from)).toEqual(expectedOf(builder, R1, from));
    expect((await replay(io, R1)).map((e) => e.payload)).toEqual(['a3', 'a4', 'a5']);
  });

  it('an object larger than the suffix window is read with its header apart, and replays', async () => {
    const io = await lane.makeIo('gt-large');
    const builder = new GtPrefixBuilder(PREFIX);
    builder.openInstance();
    const big = 'x'.repeat(100 * 1024);
    builder.append([[R1, ['small', big]]]);
    await builder.writeTo(io);
    expect((await replay(io, R1)).map((e) => e.payload.length)).toEqual([5, big.length]);
  });

  it('a chain broken by a missing object falls back to the largest complete object', async () => {
    const io = await lane.makeIo('gt-broken');
    const builder = new GtPrefixBuilder(PREFIX);
    builder.openInstance();
    builder.append([[R1, ['x1']]]);
    const missing = builder.append([[R1, ['x2']]]);
    builder.append([[R1, ['x3']]]);
    await builder.writeTo(io, (spec) => spec.seq !== missing);
    const report = await inspectTarget(io, await resolveReadTarget(io, PREFIX));
    if (report.format !== 'greptimedb-v1') throw new Error('not greptimedb');
    expect(report.tip?.seq).toBe(1n);
    expect(report.orphans.map((o) => o.seq)).toEqual([3n]);
    expect((await replay(io, R1)).map((e) => e.payload)).toEqual(['x1']);
  });

  it('verify names a flipped byte and the damaged object fails replay with its key', async () => {
    const io = await lane.makeIo('gt-verify');
    const { builder } = twoInstances();
    await builder.writeTo(io);
    const key = gtObjectKey(PREFIX, 10n);
    await lane.damage(io, key, 60);
    const target = await resolveReadTarget(io, PREFIX);
    const verdict = await verifyTarget(io, target);
    expect(verdict.damaged).toBe(1);
    expect(verdict.objects.filter((o) => !o.ok).map((o) => [o.key, o.check])).toEqual([
      [key, 'object-crc'],
    ]);
    // Recovery reads no segment: the object's index is intact, the damaged segment is a hole.
    const inspected = await inspectTarget(io, target);
    expect(inspected.failure).toBeNull();
    const header = gtObjectKey(PREFIX, 11n);
    await lane.damage(io, header, 20);
    const failure = await failureOf(openTargetReadOnly(io, target));
    expect(failure.code).toBe('CorruptObject');
    expect(failure.details).toMatchObject({ key: header, check: 'header-crc' });
  });

  it('writes are refused with ReadOnlyFormat and change nothing', async () => {
    const io = await lane.makeIo('gt-refuse');
    await twoInstances().builder.writeTo(io);
    const before = await snapshot(io);
    const failure = await failureOf(resolveWriteTarget(io, PREFIX));
    expect(failure.code).toBe('ReadOnlyFormat');
    expect(failure.details).toMatchObject({ prefix: PREFIX, format: 'greptimedb-v1' });
    expect(await snapshot(io)).toBe(before);
  });

  it('discovery finds prefixes of both formats with their format', async () => {
    const io = await lane.makeIo('gt-discover');
    await twoInstances().builder.writeTo(io);
    const other = new GtPrefixBuilder('datanodes/2/epochs/0');
    other.openInstance();
    await other.writeTo(io);
    await io.putIfAbsent(
      'wal/nodes/3/generations/0/manifest/00000000000000000001.json',
      new Uint8Array([123, 125]),
    );
    const found = await discoverPrefixes(io, '');
    expect(found.truncated).toBe(false);
    expect(found.prefixes.map((p) => [p.prefix, p.format])).toEqual([
      ['datanodes/1/epochs/2', 'greptimedb-v1'],
      ['datanodes/2/epochs/0', 'greptimedb-v1'],
      ['wal/nodes/3/generations/0', null],
    ]);
  });
});

describe('bad prefixes', () => {
  it.each([
    ['', 'InvalidPrefix'],
    ['/abs/p', 'InvalidPrefix'],
    ['a/../b', 'InvalidPrefix'],
    ['a//b', 'InvalidPrefix'],
    ['./a', 'InvalidPrefix'],
  ])('%j -> %s', async (prefix, code) => {
    const io = await memoryLane().makeIo('bad');
    expect((await failureOf(resolveReadTarget(io, prefix))).code).toBe(code);
  });

  it('a prefix mixing both formats is a MixedFormat error naming the key', async () => {
    const lane = memoryLane();
    const io = await lane.makeIo('mixed');
    const builder = new GtPrefixBuilder('wal/nodes/1/generations/0');
    builder.openInstance();
    builder.append([[R1, ['g']]]);
    await builder.writeTo(io);
    const cairnKey = gtObjectKey('wal/nodes/1/generations/0', 5n);
    const golden = readFileSync('tests/fixtures/wal-v1-golden.wal');
    await io.putIfAbsent(cairnKey, golden);
    const target = await resolveReadTarget(io, 'wal/nodes/1/generations/0');
    expect(target.format).toBe('greptimedb-v1');
    const report = await inspectTarget(io, target);
    expect(report.failure?.code).toBe('MixedFormat');
  });
});
