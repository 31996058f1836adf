/**
 * A GreptimeDB prefix through the console's API: listed beside Cairn's with its format,
 * inspected (instances, orphan, reclaim boundary), paged, regions with the read-only reason,
 * replayed to the byte, its objects verified and laid out part by part; every write refused
 * with ReadOnlyFormat even in operator mode, and nothing written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import type {
  DecodedObjectView,
  InspectView,
  RegionsView,
  ReplayProgress,
  WalListedPrefix,
} from '../../src/shared/contract/wal';
import { objectsUnder } from '../../src/main/engine/objectio/object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { gtObjectKey, GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { CONNECTION, failureOf, nextEvent, PREFIX, seed, walApp, type WalApp } from './support';

const GT = 'datanodes/7/epochs/3';
const R1 = makeRegionId(1, 1);

function gtPrefix(): GtPrefixBuilder {
  const builder = new GtPrefixBuilder(GT);
  builder.openInstance();
  builder.append([[R1, ['a', 'bb']]]);
  const last = builder.append([[R1, ['ccc']]]);
  builder.flushBelow(2n);
  builder.openInstance(2n);
  builder.append([[R1, ['dddd']]]);
  builder.lateObject(last + 1n, 1n, { seq: last, epoch: 1n }, [[R1, ['late']]]);
  return builder;
}

async function keysOf(app: WalApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of objectsUnder(app.io, '')) keys.push(`${object.key}:${object.etag}`);
  return keys;
}

describe('a GreptimeDB prefix in the console API', () => {
  let app: WalApp;
  afterEach(() => app.close());

  it('is listed with its format beside a Cairn prefix, and inspected read-only', async () => {
    app = await walApp();
    await seed(app.io, 8);
    await gtPrefix().writeTo(app.io);
    const listed = (await app.call('wal.prefixes', {})) as WalListedPrefix[];
    expect(listed.map((p) => [p.prefix, p.format, p.nodeId])).toEqual([
      [PREFIX, 'cairn-v1', 0n],
      [GT, 'greptimedb-v1', 7n],
    ]);
    const report = (await app.call('wal.inspect', { prefix: GT })) as InspectView;
    expect(report.format).toBe('greptimedb-v1');
    expect(report.failure).toBeNull();
    expect(report.register.exists).toBe(false);
    expect(report.orphans.map((o) => o.seq)).toEqual([3n]);
    expect(report.greptimedb?.reclaimBoundary).toBe(2n);
    expect(report.greptimedb?.belowBoundary.map((o) => o.seq)).toEqual([0n, 1n]);
    expect(report.greptimedb?.instances.map((i) => [i.epoch, i.startSeq])).toEqual([
      [1n, 0n],
      [6n, 5n],
    ]);
    const page = (await app.call('wal.objects', { prefix: GT, limit: 10 })) as {
      rows: Array<{ seq: bigint; status: string }>;
    };
    expect(page.rows.map((r) => [r.seq, r.status])).toEqual([
      [0n, 'below-boundary'],
      [1n, 'below-boundary'],
      [2n, 'chain'],
      [3n, 'orphan'],
      [5n, 'chain'],
      [6n, 'chain'],
    ]);
    const regions = (await app.call('wal.regions', { prefix: GT })) as RegionsView;
    expect(regions.readOnlyReason).toMatch(/GreptimeDB v1/);
    expect(regions.regions.map((r) => [r.regionId, r.entries, r.watermark])).toEqual([[R1, 2, 0n]]);
  });

  it('replays a region to the byte and lays out an object with each CRC', async () => {
    app = await walApp();
    const builder = gtPrefix();
    await builder.writeTo(app.io);
    const started = (await app.call('wal.replay.start', {
      prefix: GT,
      region: '1:1',
    })) as ReplayProgress;
    await nextEvent(
      app,
      (event: ApiEvent): event is Extract<ApiEvent, { type: 'wal.replay.done' }> =>
        event.type === 'wal.replay.done' && event.jobId === started.jobId,
    );
    const entries = app.events.flatMap((event) =>
      event.type === 'wal.replay.chunk' && event.jobId === started.jobId ? event.entries : [],
    );
    expect(entries.map((e) => [e.id, Buffer.from(e.data).toString()])).toEqual(
      builder.expected(R1).map((e) => [e.id, Buffer.from(e.payload).toString()]),
    );
    const key = gtObjectKey(GT, 6n);
    const parts = (await app.call('wal.decodeObject', { key })) as DecodedObjectView;
    expect(parts).toMatchObject({
      format: 'greptimedb-v1',
      header: {
        seq: 6n,
        epoch: 6n,
        prev: { seq: 5n, epoch: 6n },
        reclaimBoundary: 2n,
        crcOk: true,
      },
      footer: { crcOk: true, count: 1 },
      trailer: { magicOk: true, objectCrcOk: true },
      failure: null,
    });
    expect(parts.segments.map((s) => [s.regionId, s.entries, s.crcOk])).toEqual([[R1, 1, true]]);
    const verdict = (await app.call('wal.verifyObject', { key })) as { ok: boolean };
    expect(verdict.ok).toBe(true);
  });

  it('refuses every write with ReadOnlyFormat, in operator mode too, and writes nothing', async () => {
    app = await walApp();
    await gtPrefix().writeTo(app.io);
    await app.services.connections.setOperator(CONNECTION, true);
    const before = await keysOf(app);
    for (const [name, input] of [
      ['wal.writer.open', { prefix: GT, takeOver: true, confirm: GT }],
      ['wal.obsolete.preview', { prefix: GT, region: '1:1', id: '1' }],
      ['wal.gc.preview', { prefix: GT }],
      ['wal.manifest', { prefix: GT }],
    ] as const) {
      const failure = await failureOf(app.call(name, input));
      expect(failure.code, name).toBe('ReadOnlyFormat');
      expect(failure.details).toMatchObject({ prefix: GT, format: 'greptimedb-v1' });
    }
    expect(await keysOf(app)).toEqual(before);
  });

  it('a prefix of neither format, or outside the store, is refused', async () => {
    app = await walApp();
    expect((await failureOf(app.call('wal.inspect', { prefix: 'nothing/here' }))).code).toBe(
      'NotAWalPrefix',
    );
    expect((await failureOf(app.call('wal.inspect', { prefix: '../x' }))).code).toBe(
      'InvalidInput',
    );
    expect(
      (
        await failureOf(
          app.call('wal.decodeObject', { key: 'a/../objects/00000000000000000001.wal' }),
        )
      ).code,
    ).toBe('NotAWalObject');
  });
});
