/**
 * The fleet overview through the console's API: every prefix under the connection root, both
 * formats, its columns filled as each is read; only changed rows after `since`; a writer held
 * here, a damaged prefix and objects added by another process between passes; a prefix that
 * is gone leaves; `wal.fleet.stop` stops a pass from starting reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetRow, FleetView } from '../../src/shared/contract/wal';
import { objectsUnder } from '../../src/main/engine/objectio/object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { CONNECTION, failureOf, PREFIX, seed, walApp, type WalApp } from './support';

const GT = 'datanodes/9/epochs/1';
const R1 = makeRegionId(1, 1);

async function settledFleet(app: WalApp, refreshMs = 60_000): Promise<FleetView> {
  let view = (await app.call('wal.fleet', { refreshMs })) as FleetView;
  while (view.reading) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    view = (await app.call('wal.fleet', { refreshMs })) as FleetView;
  }
  return (await app.call('wal.fleet', { since: 0, refreshMs })) as FleetView;
}

function rowOf(view: FleetView, prefix: string): FleetRow {
  const row = view.rows.find((r) => r.prefix === prefix);
  if (row === undefined) throw new Error(`no row for ${prefix}`);
  return row;
}

async function gtPrefix(app: WalApp): Promise<GtPrefixBuilder> {
  const builder = new GtPrefixBuilder(GT);
  builder.openInstance();
  builder.append([[R1, ['a', 'bb']]]);
  builder.flushBelow(2n);
  builder.append([[R1, ['ccc']]]);
  await builder.writeTo(app.io);
  return builder;
}

describe('the fleet overview', () => {
  let app: WalApp;
  afterEach(() => app.close());

  it('reads every prefix of both formats into its columns', async () => {
    app = await walApp();
    await seed(app.io, 30);
    await gtPrefix(app);
    const view = await settledFleet(app);
    expect(view.prefixes.sort()).toEqual([GT, PREFIX].sort());
    expect(view.truncated).toBe(false);
    expect(view.error).toBeNull();
    const cairn = rowOf(view, PREFIX);
    expect(cairn).toMatchObject({
      format: 'cairn-v1',
      state: 'read',
      orphans: 0,
      damaged: 0,
      openFailure: null,
      writerHeld: false,
      error: null,
    });
    const report = (await app.call('wal.inspect', { prefix: PREFIX })) as {
      listed: number;
      chainObjects: number;
      chainBytes: number;
      tip: { seq: bigint; epoch: bigint };
      register: { boundary: bigint };
    };
    expect(cairn.objects).toBe(report.chainObjects);
    expect(cairn.bytes).toBe(report.chainBytes);
    expect([cairn.tipSeq, cairn.tipEpoch]).toEqual([report.tip.seq, report.tip.epoch]);
    expect(cairn.floor).toBe(report.register.boundary);
    expect(cairn.floorLag).toBe(report.tip.seq - report.register.boundary);
    expect(cairn.newestObjectAtMs).toBeGreaterThan(Date.now() - 600_000);
    // The lag in objects and in age: every listed object is at or above a boundary of 0.
    expect(cairn.lagObjects).toBe(report.listed);
    expect(cairn.lagMs).toBeGreaterThanOrEqual(0);
    expect(cairn.lagMs).toBeLessThan(600_000);
    expect(rowOf(view, GT)).toMatchObject({
      format: 'greptimedb-v1',
      state: 'read',
      objects: 1,
      tipSeq: 2n,
      tipEpoch: 1n,
      floor: 2n,
      floorLag: 0n,
      // The object below the reclaim boundary is not lag: only the one at the floor.
      lagObjects: 1,
      lagMs: 0,
      orphans: 0,
      damaged: 0,
      openFailure: null,
    });
  });

  it('sends only rows changed since a version, and names a damaged prefix', async () => {
    app = await walApp();
    await seed(app.io, 30);
    const view = await settledFleet(app);
    expect((await app.call('wal.fleet', { since: view.version })) as FleetView).toMatchObject({
      rows: [],
      version: view.version,
    });
    // Another process leaves a damaged object past the tip: recovery fails on it.
    const tip = rowOf(view, PREFIX).tipSeq ?? 0n;
    await app.io.putIfAbsent(
      objectKey(PREFIX, tip + 1n),
      new TextEncoder().encode('not a WAL object'),
    );
    await app.services.wal.fleet('embedded', 0, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = await settledFleet(app, 1_000);
    const row = rowOf(after, PREFIX);
    expect(row.damaged).toBe(1);
    expect(row.openFailure?.code).toBe('CorruptObject');
    expect(after.version).toBeGreaterThan(view.version);
  });

  it('follows objects another process adds, a writer held here and a prefix that is gone', async () => {
    app = await walApp();
    await seed(app.io, 20);
    const builder = await gtPrefix(app);
    const first = await settledFleet(app, 1_000);
    const before = rowOf(first, GT);
    const written = new Set(builder.objects.keys());
    builder.append([[R1, ['dddd']]]);
    await builder.writeTo(app.io, (spec) => !written.has(spec.seq));
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', {
      prefix: PREFIX,
      takeOver: true,
      confirm: PREFIX,
      ackMode: 'durable',
      flushIntervalMs: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await settledFleet(app, 1_000);
    expect(rowOf(second, GT).tipSeq).toBe((before.tipSeq ?? 0n) + 1n);
    expect(rowOf(second, GT).objects).toBe((before.objects ?? 0) + 1);
    expect(rowOf(second, PREFIX).writerHeld).toBe(true);

    for await (const object of objectsUnder(app.io, `${GT}/`)) await app.io.delete(object.key);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const third = await settledFleet(app, 1_000);
    expect(third.prefixes).toEqual([PREFIX]);
  });

  it('stops a pass when the Overview is left, and refuses an unknown connection', async () => {
    app = await walApp();
    for (let node = 0n; node < 12n; node++) {
      await app.io.putIfAbsent(`${walPrefix('wal', node, 0)}/manifest/.keep`, new Uint8Array());
    }
    const started = (await app.call('wal.fleet', {})) as FleetView;
    expect(started.reading).toBe(true);
    expect(await app.call('wal.fleet.stop', {})).toEqual({ stopped: true });
    const failure = await failureOf(app.router.call('wal.fleet', { connectionId: 'nope' }));
    expect(failure.code).toBe('ConnectionNotFound');
  });
});
