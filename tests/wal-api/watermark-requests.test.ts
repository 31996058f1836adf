/**
 * Watermark requests through the API (issue #48 item 5): a console in operator mode asks the
 * writer of another process - a live ObjectStoreLogStore on the same store - to obsolete a
 * region, under the region's typed confirmation, audited; the writer applies it at its next
 * register write and is not fenced: its epoch is unchanged and its appends go on. The request
 * is shown pending until then, with how long it waited. Bad calls are refused typed and
 * write nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RegionsView } from '../../src/shared/contract/wal';
import type {
  WatermarkRequestResult,
  WatermarkRequestsView,
} from '../../src/shared/contract/wal-watermark-requests';
import { formatRegionId } from '../../src/shared/id-notation';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { CONNECTION, failureOf, PREFIX, walApp, type WalApp } from './support';
import { until } from '../wal/support/writer-harness';

let app: WalApp;
let writer: ObjectStoreLogStore | null = null;
afterEach(async () => {
  await writer?.stop();
  writer = null;
  await app.close();
});

const REGION = (1n << 32n) | 1n;
const text = new TextEncoder();

async function appendTo(store: ObjectStoreLogStore, count: number): Promise<bigint> {
  let last = 0n;
  for (let i = 0; i < count; i += 1) {
    const provider = { prefix: store.prefix, regionId: REGION };
    const result = await store.appendBatch([
      store.entry(text.encode(`entry ${i}`), 0n, REGION, provider),
    ]);
    last = result.lastEntryIds.get(REGION) ?? last;
  }
  return last;
}

/** A production writer in "another process": its own store instance, polling slowly. */
async function liveWriter(requestPollMs: number): Promise<ObjectStoreLogStore> {
  const store = await ObjectStoreLogStore.open(
    app.io,
    { root: 'wal', nodeId: 0n, generation: 0, flushIntervalMs: 10 },
    { requestPollMs },
  );
  writer = store;
  return store;
}

const requestsOf = async () =>
  (await app.call('wal.obsolete.requests', { prefix: PREFIX })) as WatermarkRequestsView;

describe('a watermark request to a live writer of another process', () => {
  it('is applied by that writer, which is not fenced and keeps appending', async () => {
    app = await walApp();
    const store = await liveWriter(50);
    await appendTo(store, 6);
    await app.services.connections.setOperator(CONNECTION, true);
    const rows = ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions;
    const durable = rows.find((row) => row.regionId === REGION)?.durableId ?? 0n;
    expect(durable > 0n).toBe(true);

    // The region is the phrase, as for an obsolete.
    expect(
      await failureOf(
        app.call('wal.obsolete.request', { prefix: PREFIX, region: '1:1', id: durable }),
      ),
    ).toMatchObject({ code: 'ConfirmationRequired' });
    const result = (await app.call('wal.obsolete.request', {
      prefix: PREFIX,
      region: '1:1',
      id: durable,
      confirm: formatRegionId(REGION),
    })) as WatermarkRequestResult;
    expect(result.request).toMatchObject({ state: 'pending', watermark: durable });
    expect(result.writerEpoch).toBe(store.epoch);
    expect(result.preview.hiddenEntries).toBe(6);

    await until(
      async () => (await requestsOf()).requests[0]?.state === 'applied',
      'the writer to apply the request',
    );
    const view = await requestsOf();
    expect(view).toMatchObject({ writerEpoch: store.epoch, holderReads: true, holderLive: true });
    expect(view.requests[0]).toMatchObject({
      id: result.request.id,
      settledEpoch: store.epoch,
      effective: durable,
      requestedBy: expect.stringContaining('Cairn console'),
    });

    // Not fenced: its appends go on under the same epoch, above the watermark.
    const after = await appendTo(store, 3);
    expect(after > durable).toBe(true);
    expect(store.state().poisoned).toBeNull();
    expect((await requestsOf()).writerEpoch).toBe(store.epoch);
    const read: bigint[] = [];
    for await (const entry of store.read({ prefix: store.prefix, regionId: REGION }, 0n))
      read.push(entry.id);
    expect(read).toHaveLength(3);

    // Audited under the call's session with its parameters.
    const audited = (await app.services.audit.recent(50)).find(
      (entry) => entry.action === 'wal.obsolete.request',
    );
    expect(audited).toMatchObject({ result: 'ok', session: 'process', target: PREFIX });
  });

  it('shows a request pending, with how long it waits, while the writer has not applied it', async () => {
    app = await walApp();
    const store = await liveWriter(0); // no poll: it applies at its next fence read
    const last = await appendTo(store, 2);
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.obsolete.request', {
      prefix: PREFIX,
      region: '1:1',
      id: last,
      confirm: '1:1',
    });
    const pending = (await requestsOf()).requests[0];
    expect(pending).toMatchObject({ state: 'pending', settledEpoch: null });
    expect(pending?.waitedMs).toBeGreaterThanOrEqual(0);
    await appendTo(store, 1); // the next register read adopts and applies it
    await until(async () => (await requestsOf()).requests[0]?.state === 'applied', 'the apply');
  });

  it('refuses an id above the latest durable one, and a read-only connection, writing nothing', async () => {
    app = await walApp();
    const store = await liveWriter(0);
    const last = await appendTo(store, 1);
    expect(
      await failureOf(
        app.call('wal.obsolete.request', {
          prefix: PREFIX,
          region: '1:1',
          id: last,
          confirm: '1:1',
        }),
      ),
    ).toMatchObject({ code: 'ReadOnly' });
    await app.services.connections.setOperator(CONNECTION, true);
    expect(
      await failureOf(
        app.call('wal.obsolete.request', {
          prefix: PREFIX,
          region: '1:1',
          id: last + (5n << 20n),
          confirm: '1:1',
        }),
      ),
    ).toMatchObject({ code: 'ObsoleteAboveLatest' });
    expect((await requestsOf()).requests).toEqual([]);
  });
});
