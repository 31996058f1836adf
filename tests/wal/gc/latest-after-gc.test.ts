/**
 * wal.md, `latestEntryId` after GC: a region's latest id is the larger of its largest durable
 * indexed id and its persisted watermark. A region GC collected whole is not indexed by the
 * next recovery; it must still report its watermark, never 0, in the store, a read-only open,
 * `inspect` and the catalog summary the console's Regions view and the API present.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import { REGION_A, REGION_B, openStore, providerOf, walConfig } from '../support/writer-harness';
import { appendOne, gcLanes } from './gc-support';

const { lanes, dispose } = gcLanes('wal-latest');
afterAll(dispose);

describe.each(lanes)('latestEntryId after garbage collection on %s', (_lane, makeIo) => {
  it('a region collected whole reports its watermark, everywhere, after a reopen', async () => {
    const io = await makeIo();
    let store = await openStore(io, {}, { gcAfterObsolete: false });
    await appendOne(store, REGION_A, 'a0');
    const lastA = await appendOne(store, REGION_A, 'a1');
    await appendOne(store, REGION_B, 'b0'); // Keeps the tip above A's objects.
    await store.obsoleteAll(providerOf(store, REGION_A), REGION_A);
    const report = await store.gc();
    expect(report.objects.length).toBeGreaterThan(0);
    expect(store.latestEntryId(providerOf(store, REGION_A))).toBe(lastA);
    await store.stop();

    store = await openStore(io, {}, { gcAfterObsolete: false });
    // The reopened catalog indexed nothing of A: only its watermark says how far it went.
    expect(store.latestEntryId(providerOf(store, REGION_A))).toBe(lastA);
    await store.stop();

    const log = await openReadOnly(io, walConfig());
    expect(log.catalog.latestEntryId(REGION_A)).toBe(lastA);
    expect(log.catalog.indexedEntryId(REGION_A)).toBe(0n);
    expect(log.catalog.region(REGION_A)?.latestId).toBe(lastA);
    const inspected = await inspectPrefix(io, walConfig());
    const regionA = inspected.regions.find((r) => r.regionId === REGION_A);
    expect(regionA).toMatchObject({ latestId: lastA, watermark: lastA, entries: 0 });
  });
});
