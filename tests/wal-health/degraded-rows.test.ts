/**
 * A prefix whose recovery failed reads consistently: what was listed, no chain, no tip and why,
 * and no lag counted from objects it says it does not have - in the inspection (`listed`) and
 * in the fleet row. A GC with nothing to delete takes no epoch: a live writer is never fenced
 * for nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetRow } from '../../src/shared/contract/wal';
import { inspectPrefix } from '../../src/main/engine/wal/inspect';
import { listObjectsFrom } from '../../src/main/engine/wal/recovery';
import { readControl, registerStoreOf } from '../../src/main/engine/wal/register';
import { runCairn } from '../support/cairn-cli';
import { DAMAGE_CONFIG } from '../support/damaged-segment';
import { PREFIX, seed, settledFleet, walApp, type WalApp } from '../wal-api/support';

let app: WalApp;
afterEach(() => app.close());

/** Flips a byte of the newest object's trailer, replacing the object whole. */
async function damageNewestTrailer(): Promise<number> {
  const listed = await listObjectsFrom(app.io, PREFIX);
  const newest = listed.at(-1);
  if (newest === undefined) throw new Error('nothing listed');
  const bytes = new Uint8Array((await app.io.get(newest.key)).bytes);
  bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0xff;
  await app.io.delete(newest.key);
  await app.io.putIfAbsent(newest.key, bytes);
  return listed.length;
}

describe('a prefix whose recovery failed', () => {
  it('says what was listed and why it has no tip, and counts no lag', async () => {
    app = await walApp();
    await seed(app.io, 12, 2);
    const listed = await damageNewestTrailer();

    const report = await inspectPrefix(app.io, DAMAGE_CONFIG);
    expect(report.failure?.code).toBe('CorruptObject');
    expect(report.listed).toBe(listed);
    expect(report.tip).toBeNull();

    const row = (await settledFleet(app)).rows.find((r) => r.prefix === PREFIX) as FleetRow;
    expect(row).toMatchObject({
      listed,
      objects: 0,
      tipSeq: null,
      lagObjects: null,
      lagMs: null,
      openFailure: { code: 'CorruptObject' },
      health: { state: 'unhealthy' },
    });
  });
});

describe('cairn wal gc --take-over with nothing to delete', () => {
  it('takes no epoch and says so', async () => {
    app = await walApp();
    await seed(app.io, 6, 1);
    const gc = () => runCairn(['wal', 'gc', '--take-over', '--json', '--data-dir', app.dataDir]);
    expect(gc().code).toBe(0); // collects what the writer's stop left
    const store = registerStoreOf(app.io, PREFIX);
    const before = (await readControl(store))?.control.writerEpoch;
    const run = gc();
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ objects: [], holder: 'not-taken', epoch: null });
    expect((await readControl(store))?.control.writerEpoch).toBe(before);
  });
});
