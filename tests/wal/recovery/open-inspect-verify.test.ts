import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CellManifestStore } from '../../../src/main/engine/manifest/cell-manifest-store';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { FencedError } from '../../../src/main/engine/wal/errors';
import { HEADER_AT } from '../../../src/main/engine/wal/format';
import { inspectPrefix, listPrefixes } from '../../../src/main/engine/wal/inspect';
import { openMaintenance, openWriter } from '../../../src/main/engine/wal/open';
import { verifyObject, verifyPrefix } from '../../../src/main/engine/wal/verify';
import { createWalMetrics } from '../../../src/main/engine/wal/metrics';
import { s3Lane } from '../../support/s3';
import { edited } from '../wal-objects';
import {
  allKeys,
  CONFIG,
  keyAt,
  objectBytes,
  PREFIX,
  putChain,
  putObject,
  REGION_A,
  writeRegister,
} from './prefix-builder';

const s3 = s3Lane();
afterAll(async () => s3?.dispose());

const lanes: Array<[string, () => Promise<ObjectIo>]> = [
  ['memory', async () => new MemoryObjectIo()],
  ['local', async () => new LocalObjectIo(await mkdtemp(path.join(tmpdir(), 'cairn-wal-open-')))],
];
if (s3 !== null) lanes.push(['s3', () => s3.makeIo('wal-open')]);

describe.each(lanes)('the open protocol on %s', (_lane, makeIo) => {
  it('opens an empty prefix, then each reopen chains onto the last start object and fences the older', async () => {
    const io = await makeIo();
    const metrics = createWalMetrics();
    const first = await openWriter(io, CONFIG, { metrics });
    expect(first.epoch).toBe(1n);
    expect(first.startObject).toEqual({ seq: 64n, epoch: 1n, key: keyAt(64n) });
    expect(first.nextSeq).toBe(65n);
    expect(first.recovery.chain).toEqual([]);
    expect(metrics.recoveryObjects.value).toBe(0);

    const second = await openWriter(io, CONFIG, { metrics });
    expect(second.epoch).toBe(2n);
    expect(second.recovery.chain.map((o) => [o.seq, o.epoch])).toEqual([[64n, 1n]]);
    expect(second.startObject.seq).toBe(128n);
    expect(second.catalog.object(128n)?.link).toEqual({ seq: 64n, epoch: 1n });
    expect(metrics.recoveryObjects.value).toBe(1);
    expect(second.register.current().control.segments).toEqual([
      { firstEpoch: 1n, lastEpoch: 1n, lastSeq: 64n, reason: 'taken-over' },
    ]);

    expect(await first.register.isCurrent()).toBe(false);
    expect(await second.register.isCurrent()).toBe(true);
    const fenced = await first.register.update((c) => c).catch((e: unknown) => e);
    expect(fenced).toBeInstanceOf(FencedError);
    expect(fenced).toMatchObject({ epoch: 2n, writerId: second.writerId });

    const report = await inspectPrefix(io, CONFIG);
    expect(report.tip).toMatchObject({ seq: 128n, epoch: 2n });
    expect(report.nextSeq).toBe(192n);
    expect(report.register.writerEpoch).toBe(2n);
    const verified = await verifyPrefix(io, CONFIG);
    expect(verified.objects.map((o) => [o.seq, o.ok])).toEqual([
      [64n, true],
      [128n, true],
    ]);
  });

  it('gives concurrent openers distinct epochs; only the newest holds the register', async () => {
    const io = await makeIo();
    const results = await Promise.allSettled([1, 2, 3].map(() => openWriter(io, CONFIG)));
    const opened = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'Fenced' });
    expect(opened.length).toBeGreaterThanOrEqual(1);
    const epochs = opened.map((s) => s.epoch);
    expect(new Set(epochs).size).toBe(epochs.length);
    const current = await Promise.all(opened.map((s) => s.register.isCurrent()));
    expect(current.filter(Boolean)).toHaveLength(1);
    const holder = opened[current.indexOf(true)];
    expect(holder?.epoch).toBe(3n);
    expect((await inspectPrefix(io, CONFIG)).failure).toBeNull();
  });
});

describe('maintenance open', () => {
  it('takes the epoch only, even on a prefix that does not open', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 4n, tail: { seq: 9n, epoch: 4n } });
    await putChain(io, 4n, [3n], [2n, 4n]);
    await expect(openWriter(io, CONFIG, { probe: false })).rejects.toMatchObject({
      code: 'NoCompleteChain',
    });
    const keysBefore = (await allKeys(io)).filter((k) => k.endsWith('.wal'));
    const held = await openMaintenance(io, CONFIG, { probe: false });
    expect(held.epoch).toBe(6n);
    expect(held.control.tail).toEqual({ seq: 9n, epoch: 4n });
    expect(await held.register.isCurrent()).toBe(true);
    expect((await allKeys(io)).filter((k) => k.endsWith('.wal'))).toEqual(keysBefore);
  });
});

describe('inspect', () => {
  it('works on an empty prefix and writes nothing', async () => {
    const io = new MemoryObjectIo();
    const report = await inspectPrefix(io, CONFIG);
    expect(report.register.exists).toBe(false);
    expect(report.tip).toBeNull();
    expect(report.nextSeq).toBe(64n);
    expect(report.failure).toBeNull();
    expect(await allKeys(io)).toEqual([]);
  });

  it("reads a live writer's prefix without writing (objects and register version unchanged)", async () => {
    const io = new MemoryObjectIo();
    await putChain(io, 1n, [0n, 1n]);
    await putObject(io, { seq: 2n, epoch: 1n, link: [1n, 9n] }); // an orphan (broken link)
    const writer = await openWriter(io, CONFIG, { probe: false });
    await writer.register.update((c) => ({
      ...c,
      watermarks: new Map([[REGION_A, (1n << 20n) | 1n]]),
      regions: new Map([[REGION_A, { createdAtMs: 5 }]]),
    }));
    const keysBefore = await allKeys(io);
    const store = new CellManifestStore(io, PREFIX);
    const versionBefore = (await store.read())?.version;

    const report = await inspectPrefix(io, CONFIG);
    expect(await allKeys(io)).toEqual(keysBefore);
    expect((await store.read())?.version).toBe(versionBefore);
    expect(await writer.register.isCurrent()).toBe(true);

    expect(report.register).toMatchObject({
      exists: true,
      version: versionBefore,
      writerEpoch: 2n,
      writerId: writer.writerId,
    });
    expect(report.chain.map((o) => o.seq)).toEqual([0n, 1n, writer.startObject.seq]);
    // The writer's open sealed epoch 1 at 1: the broken-link object is excluded for good.
    expect(report.excluded.map((o) => o.seq)).toEqual([2n]);
    expect(report.orphans).toEqual([]);
    expect(report.tip?.seq).toBe(writer.startObject.seq);
    expect(report.nextSeq).toBe(writer.startObject.seq + 64n);
    expect(report.regions).toEqual([
      {
        regionId: REGION_A,
        latestId: (1n << 20n) | 1n,
        watermark: (1n << 20n) | 1n,
        entries: 2,
        objects: 2,
        bytes: expect.any(Number),
        listedInTable: true,
      },
    ]);
    expect(report.register.sealed).toEqual([
      { firstEpoch: 1n, lastEpoch: 1n, lastSeq: 1n, reason: 'taken-over' },
    ]);
  });

  it('re-reads the boundary once when an object is collected under it', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n });
    await putChain(
      io,
      1n,
      Array.from({ length: 10 }, (_, i) => BigInt(i)),
    );
    let collected = false;
    const gcRacing: ObjectIo = Object.assign(Object.create(io) as ObjectIo, {
      get: async (key: string, range?: Parameters<ObjectIo['get']>[1]) => {
        if (!collected && key === keyAt(6n)) {
          collected = true; // GC: boundary 7 first, then deletes below it
          await writeRegister(io, { writerEpoch: 1n, boundary: 7n });
          for (let seq = 0n; seq < 7n; seq++) await io.delete(keyAt(seq));
        }
        return io.get(key, range);
      },
    });
    const report = await inspectPrefix(gcRacing, CONFIG);
    expect(report.failure).toBeNull();
    expect(report.chain.map((o) => o.seq)).toEqual([7n, 8n, 9n]);
    expect(report.missing).toContain(keyAt(6n));
  });

  it('reports a recovery failure instead of throwing', async () => {
    const io = new MemoryObjectIo();
    await io.putIfAbsent(keyAt(3n), new Uint8Array(10));
    const report = await inspectPrefix(io, CONFIG);
    expect(report.failure).toMatchObject({ code: 'CorruptObject' });
  });

  it('lists the prefixes under a root', async () => {
    const io = new MemoryObjectIo();
    await putObject(io, { seq: 0n, epoch: 1n, link: null });
    await io.putIfAbsent('rt/nodes/3/generations/0/objects/x', new Uint8Array(1));
    await io.putIfAbsent('rt/nodes/3/generations/11/manifest/x', new Uint8Array(1));
    await io.putIfAbsent('rt/nodes/not-a-node/generations/1/x', new Uint8Array(1));
    expect(await listPrefixes(io, 'rt')).toEqual([
      { nodeId: 3n, generation: 0, prefix: 'rt/nodes/3/generations/0' },
      { nodeId: 3n, generation: 11, prefix: 'rt/nodes/3/generations/11' },
      { nodeId: 7n, generation: 2, prefix: PREFIX },
    ]);
  });
});

describe('verify', () => {
  it('reports damaged objects, header damage included', async () => {
    const io = new MemoryObjectIo();
    await putObject(io, { seq: 0n, epoch: 1n, link: null });
    const good = objectBytes({ seq: 1n, epoch: 1n, link: [0n, 1n] });
    const badHeaderCrc = Uint8Array.from(objectBytes({ seq: 2n, epoch: 1n, link: [1n, 1n] }));
    badHeaderCrc[HEADER_AT.epoch] = (badHeaderCrc[HEADER_AT.epoch] ?? 0) ^ 1;
    const otherEpoch = edited(objectBytes({ seq: 3n, epoch: 1n, link: [2n, 1n] }), (v) =>
      v.setBigUint64(HEADER_AT.epoch, 9n, true),
    );
    const badSegment = Uint8Array.from(objectBytes({ seq: 4n, epoch: 1n, link: [3n, 1n] }));
    badSegment[60] = (badSegment[60] ?? 0) ^ 1;
    await io.putIfAbsent(keyAt(1n), good);
    await io.putIfAbsent(keyAt(2n), badHeaderCrc);
    await io.putIfAbsent(keyAt(3n), otherEpoch);
    await io.putIfAbsent(keyAt(4n), badSegment);
    const report = await verifyPrefix(io, CONFIG);
    expect(report.objects.map((o) => [o.seq, o.ok, o.check])).toEqual([
      [0n, true, undefined],
      [1n, true, undefined],
      [2n, false, 'header-crc'],
      [3n, false, 'header-trailer-mismatch'],
      [4n, false, 'segment-crc'],
    ]);
    expect([report.checked, report.damaged, report.gone]).toEqual([5, 3, 0]);
    expect(await verifyObject(io, keyAt(9n))).toMatchObject({ ok: false, gone: true });
  });
});
