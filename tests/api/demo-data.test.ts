/**
 * "Generate demo data" writes every state the views show, only where nothing is: beside what a
 * store holds, never over it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inspectGtPrefix } from '../../src/main/engine/greptimedb/inspect';
import { verifyGtPrefix } from '../../src/main/engine/greptimedb/verify';
import { inspectPrefix } from '../../src/main/engine/wal/inspect';
import { makeTestApp, type TestApp } from '../support/app-services';
import { failureOf } from '../support/typed-failure';

let app: TestApp;
beforeEach(async () => {
  app = await makeTestApp();
});
afterEach(() => app.dispose());

describe('demo data', () => {
  it('writes WAL epochs (stopped and taken over), an orphan, an obsoleted range, namespaces and segments', async () => {
    const summary = (await app.router.call('demo.generate', { connectionId: 'embedded' })) as {
      walPrefixes: string[];
      entries: number;
    };
    expect(summary.walPrefixes).toEqual([
      'wal/nodes/0/generations/0',
      'wal/nodes/0/generations/1',
      'datanodes/1/epochs/8',
      'wal/datanodes/0/epochs/0',
    ]);
    const { io } = await app.services.connections.io('embedded');
    const report = await inspectPrefix(io, { root: 'wal', nodeId: 0n, generation: 0 });
    expect(report.failure).toBeNull();
    expect(report.register.sealed.map((record) => record.reason)).toEqual(
      expect.arrayContaining(['stopped', 'taken-over']),
    );
    // The late object of epoch 2 lies above its seal record: excluded for good (a stale object).
    expect(report.excluded.length + report.orphans.length).toBeGreaterThanOrEqual(1);
    expect(report.regions.map((region) => region.regionId)).toHaveLength(4);
    expect(report.regions[0]!.watermark).toBeGreaterThan(0n);
    expect(report.register.writerEpoch).toBe(3n);

    // GreptimeDB's own format: two instances, a late orphan, a reclaimed range.
    const greptime = await inspectGtPrefix(io, 'datanodes/1/epochs/8');
    expect(greptime.failure).toBeNull();
    expect(greptime.damaged).toEqual([]);
    expect(greptime.instances.map((i) => [i.epoch, i.startSeq])).toEqual([
      [1n, null],
      [8n, 7n],
    ]);
    expect(greptime.orphans.map((o) => [o.seq, o.epoch])).toEqual([[6n, 1n]]);
    expect(greptime.reclaimBoundary).toBe(4n);
    expect(greptime.reclaimedLink).toBe(true);
    expect(greptime.chain.map((o) => o.seq)).toEqual([4n, 5n, 7n, 8n, 9n, 10n, 11n, 12n]);
    expect((await verifyGtPrefix(io, 'datanodes/1/epochs/8')).damaged).toBe(0);

    // GreptimeDB main's merged layout: a restart, a gap, one damaged segment GreptimeDB opens past.
    const merged = await inspectGtPrefix(io, 'wal/datanodes/0/epochs/0');
    expect(merged.layout).toBe('merged');
    expect(merged.failure).toBeNull();
    expect(merged.chain.map((o) => o.seq)).toEqual([0n, 1n, 2n, 3n, 4n, 7n, 8n, 9n, 10n, 11n, 12n]);
    expect(merged.merged?.runs.map((r) => [r.firstSeq, r.lastSeq])).toEqual([
      [0n, 4n],
      [7n, 12n],
    ]);
    expect(merged.regions).toHaveLength(3);
    const mergedVerify = await verifyGtPrefix(io, 'wal/datanodes/0/epochs/0');
    expect(mergedVerify.objects.filter((o) => !o.ok).map((o) => o.lost)).toEqual([
      [{ regionId: (1025n << 32n) | 1n, firstId: (9n << 20n) | 1n, lastId: (9n << 20n) | 3n }],
    ]);

    const namespaces = (await app.router.call('namespaces.list', {
      connectionId: 'embedded',
    })) as Array<{ name: string; state: string; origin: string }>;
    expect(namespaces.map((record) => record.name).sort()).toEqual([
      'analytics/events',
      'audit:ledger',
      'inventory',
      'orders',
      'payments',
      'shipping/eu-west',
    ]);
    expect(namespaces.find((record) => record.name === 'inventory')?.state).toBe('deprecated');
    expect(namespaces.find((record) => record.name === 'analytics/events')?.origin).toBe(
      'explicit',
    );

    const partitions = (await app.router.call('segments.partitions', {
      connectionId: 'embedded',
    })) as Array<{ topicId: string; partition: number }>;
    expect(partitions).toHaveLength(2);
  });

  it('writes beside what the embedded store holds, touching none of it', async () => {
    const { io } = await app.services.connections.io('embedded');
    await io.putIfAbsent('mine/precious.txt', new TextEncoder().encode('keep'));
    await app.router.call('demo.generate', { connectionId: 'embedded' });
    expect(new TextDecoder().decode((await io.get('mine/precious.txt')).bytes)).toBe('keep');
  });

  it('refuses a place already taken, before writing anything', async () => {
    const { io } = await app.services.connections.io('embedded');
    await io.putIfAbsent(
      'wal/nodes/0/generations/1/objects/00000000000000000000.wal',
      new TextEncoder().encode('not mine'),
    );
    const refused = await failureOf(app.router.call('demo.generate', { connectionId: 'embedded' }));
    expect(refused).toMatchObject({
      code: 'DemoPlaceTaken',
      details: { place: 'wal/nodes/0/generations/1/objects/00000000000000000000.wal' },
    });
    const listed = await io.listPage('');
    expect(listed.objects.map((object) => object.key)).toEqual([
      'wal/nodes/0/generations/1/objects/00000000000000000000.wal',
    ]);
    expect(
      (await app.router.call('namespaces.list', { connectionId: 'embedded' })) as unknown[],
    ).toEqual([]);
  });
});
