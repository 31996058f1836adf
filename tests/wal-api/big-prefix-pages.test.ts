/**
 * A big prefix through the console's API travels a page at a time (issue #40): an object of
 * 1,500 regions gives region pages (offset, limit, total), an inspection carrying the first
 * 100 regions and the count, the object inspector's segments a page at a time; a prefix of
 * 150 orphans gives the newest 100 and the count. Recovery of an object of 30,000 regions
 * lets the event loop run between slices (turns counted, not timed).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecodedObjectView, InspectView, RegionsView } from '../../src/shared/contract/wal';
import { recoverGtPrefix } from '../../src/main/engine/greptimedb/recover';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { encodeGtObject, gtObjectKey, GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { walApp, type WalApp } from './support';

const GT = 'datanodes/4/epochs/1';
const REGIONS = 1_500;

/** One object holding `regions` regions, one entry each. */
function wideObject(regions: number): Uint8Array {
  return encodeGtObject({
    seq: 0n,
    epoch: 1n,
    prev: null,
    reclaimBoundary: 0n,
    segments: Array.from({ length: regions }, (_, at) => ({
      regionId: makeRegionId(1 + Math.floor(at / 1000), at % 1000),
      entries: [{ id: (0n << 20n) | 1n, payload: new Uint8Array([at & 0xff]) }],
    })),
  });
}

describe('a big prefix, a page at a time', () => {
  let app: WalApp;
  afterEach(() => app.close());

  it('pages the regions of an object of 1,500 regions, and its segments in the inspector', async () => {
    app = await walApp();
    await app.io.putIfAbsent(gtObjectKey(GT, 0n), wideObject(REGIONS));
    const first = (await app.call('wal.regions', { prefix: GT })) as RegionsView;
    expect([first.total, first.offset, first.regions.length]).toEqual([REGIONS, 0, 1_000]);
    expect(first.progress).toEqual({ indexed: 1, total: 1, fromIndex: 0, done: true });
    const last = (await app.call('wal.regions', {
      prefix: GT,
      offset: 1_450,
      limit: 100,
    })) as RegionsView;
    expect(last.regions.map((r) => r.regionId)).toEqual(
      Array.from({ length: 50 }, (_, at) => makeRegionId(2, 450 + at)),
    );

    const inspect = (await app.call('wal.inspect', { prefix: GT })) as InspectView;
    expect(inspect.regionCount).toBe(REGIONS);
    expect(inspect.regions.map((r) => r.regionId)).toEqual(
      first.regions.slice(0, 100).map((r) => r.regionId),
    );

    const key = gtObjectKey(GT, 0n);
    const parts = (await app.call('wal.decodeObject', { key })) as DecodedObjectView;
    expect([parts.segmentCount, parts.segmentOffset, parts.segments.length]).toEqual([
      REGIONS,
      0,
      200,
    ]);
    expect(parts.footer?.count).toBe(REGIONS);
    const tail = (await app.call('wal.decodeObject', {
      key,
      segmentOffset: 1_490,
      segmentLimit: 50,
    })) as DecodedObjectView;
    expect(tail.segments.map((s) => s.regionId)).toEqual(
      Array.from({ length: 10 }, (_, at) => makeRegionId(2, 490 + at)),
    );
  });

  it('refuses a page past the limits with a typed validation error', async () => {
    app = await walApp();
    await expect(app.call('wal.regions', { prefix: GT, limit: 1_001 })).rejects.toMatchObject({
      code: 'InvalidInput',
    });
    await expect(app.call('wal.regions', { prefix: GT, offset: -1 })).rejects.toMatchObject({
      code: 'InvalidInput',
    });
  });

  it('carries the newest 100 of 150 orphans and their count', async () => {
    app = await walApp();
    const builder = new GtPrefixBuilder(GT);
    builder.openInstance();
    const r = makeRegionId(1, 1);
    builder.append([[r, ['a']]]);
    // 150 late objects of an earlier epoch, each off the chain.
    for (let at = 0; at < 150; at++)
      builder.lateObject(1_000n + BigInt(at), 1n, { seq: 999n, epoch: 1n }, [[r, ['x']]]);
    await builder.writeTo(app.io);
    const inspect = (await app.call('wal.inspect', { prefix: GT })) as InspectView;
    expect(inspect.orphanCount).toBe(150);
    expect(inspect.orphans.map((o) => o.seq)).toEqual(
      Array.from({ length: 100 }, (_, at) => 1_050n + BigInt(at)),
    );
  });
});

describe('long work in slices', () => {
  it('gives the event loop turns while it recovers an object of 30,000 regions', async () => {
    const io = new MemoryObjectIo();
    await io.putIfAbsent(gtObjectKey(GT, 0n), wideObject(30_000));
    let turns = 0;
    let recovering = true;
    const count = async (): Promise<void> => {
      while (recovering) {
        await nextTurn();
        turns += 1;
      }
    };
    const counting = count();
    const recovery = await recoverGtPrefix(io, GT);
    recovering = false;
    await counting;
    expect(recovery.catalog?.regions()).toHaveLength(30_000);
    // Decoding the footer and indexing it take several slices of 5,000 steps each.
    expect(turns).toBeGreaterThanOrEqual(6);
  });
});
