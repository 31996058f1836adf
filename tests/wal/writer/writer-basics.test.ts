import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { decodeObject } from '../../../src/main/engine/wal/format';
import { MAX_POSITION, seqOf } from '../../../src/main/engine/wal/ids';
import {
  REGION_A,
  REGION_B,
  codeOf,
  entriesOf,
  keyAt,
  openStore,
  payloadOf,
  providerOf,
  readAll,
  settle,
} from '../support/writer-harness';

describe('writer: ids, ordering, batching', () => {
  it('assigns (seq << 20) | position under the open batch sequence, per region from 1', async () => {
    const store = await openStore(new MemoryObjectIo(), { flushIntervalMs: 30 });
    const seq = store.state().nextSeq;
    const [first, second] = await Promise.all([
      store.appendBatch([
        ...entriesOf(store, REGION_A, 'a1', 'a2'),
        ...entriesOf(store, REGION_B, 'b1'),
      ]),
      store.appendBatch(entriesOf(store, REGION_A, 'a3')),
    ]);
    expect(first.lastEntryIds.get(REGION_A)).toBe((seq << 20n) | 2n);
    expect(first.lastEntryIds.get(REGION_B)).toBe((seq << 20n) | 1n);
    expect(second.lastEntryIds.get(REGION_A)).toBe((seq << 20n) | 3n);
    expect(store.latestEntryId(providerOf(store))).toBe((seq << 20n) | 3n);
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['a1', 'a2', 'a3']);
    await store.stop();
  });

  it('durable acks arrive in admission order and only once indexed and fenced', async () => {
    const store = await openStore(new MemoryObjectIo(), {
      maxBatchBytes: 40,
      maxInFlightCreates: 4,
    });
    const order: number[] = [];
    const appends = Array.from({ length: 12 }, (_, i) =>
      store.appendBatch(entriesOf(store, REGION_A, `e${i}`)).then((r) => {
        order.push(i);
        // Reported durable means visible to latestEntryId at once.
        expect(store.latestEntryId(providerOf(store))).toBeGreaterThanOrEqual(
          r.lastEntryIds.get(REGION_A) ?? 0n,
        );
        return r;
      }),
    );
    const results = await Promise.all(appends);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const ids = results.map((r) => r.lastEntryIds.get(REGION_A) ?? 0n);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    expect(new Set(ids.map(seqOf)).size).toBeGreaterThan(1); // several objects were sealed
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(results.map((_, i) => `e${i}`));
    await store.stop();
  });

  it('enqueued acks on admission; waitDurable returns once indexed', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 60 });
    const store = await openStore(io, { ackMode: 'enqueued' });
    const { lastEntryIds } = await store.appendBatch(entriesOf(store, REGION_A, 'x', 'y'));
    const id = lastEntryIds.get(REGION_A) ?? 0n;
    expect(store.latestEntryId(providerOf(store))).toBe(0n);
    expect(store.handedOutEntryId(providerOf(store))).toBe(id);
    await store.waitDurable(providerOf(store), id);
    expect(store.latestEntryId(providerOf(store))).toBe(id);
    await store.stop();
  });

  it('an empty interval creates nothing; seals on maxBatchBytes', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io, { maxBatchBytes: 64, flushIntervalMs: 5000 });
    const before = io.size;
    await new Promise((r) => setTimeout(r, 30));
    expect(io.size).toBe(before);
    // One append over the byte threshold seals at once, long before the 5 s interval.
    const big = new Uint8Array(100);
    const r = await store.appendBatch([store.entry(big, 0n, REGION_A, providerOf(store))]);
    expect(r.lastEntryIds.get(REGION_A)).toBeDefined();
    await store.stop();
  });

  it('rejects an append that alone exceeds the position range, recording nothing', async () => {
    const store = await openStore(new MemoryObjectIo());
    const one = store.entry(new Uint8Array(0), 0n, REGION_A, providerOf(store));
    const tooMany = Array.from({ length: Number(MAX_POSITION) + 1 }, () => one);
    const outcome = await settle(store.appendBatch(tooMany));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(codeOf(outcome.error)).toBe('EntryTooLarge');
    expect(store.state().openBatch).toBeNull();
    await store.stop();
  });

  it('refuses at admission an entry larger than one object can hold, and stays healthy', async () => {
    // One-entry object frame: header 52 + record header 12 + footer 4 + 48 + trailer 64 = 180.
    const maxObjectBytes = 180 + 100;
    const io = new MemoryObjectIo();
    const store = await openStore(io, { maxObjectBytes, flushIntervalMs: 1000 });
    const fits = settle(
      store.appendBatch([store.entry(new Uint8Array(100), 0n, REGION_A, providerOf(store))]),
    );
    const tooBig = await settle(
      store.appendBatch([
        ...entriesOf(store, REGION_B, 'small'),
        store.entry(new Uint8Array(101), 0n, REGION_A, providerOf(store)),
      ]),
    );
    expect(tooBig.ok).toBe(false);
    if (!tooBig.ok) {
      expect(codeOf(tooBig.error)).toBe('EntryTooLarge');
      expect(tooBig.error).toMatchObject({ region: REGION_A, size: 101, limit: 100 });
    }
    // Nothing of the refused append was admitted; the writer was not poisoned.
    expect(store.state().openBatch?.entries).toBe(1);
    const after = await store.appendBatch(entriesOf(store, REGION_B, 'after'));
    const first = await fits;
    expect(first.ok).toBe(true);
    expect(store.state().poisoned).toBeNull();
    expect((await readAll(store, REGION_B)).map(payloadOf)).toEqual(['after']);
    expect(after.lastEntryIds.get(REGION_B)).toBeDefined();
    await store.stop();
  });

  it('seals before a region would pass position 2^20 - 1', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io, { flushIntervalMs: 2000 });
    const one = store.entry(new Uint8Array(0), 0n, REGION_A, providerOf(store));
    const seq = store.state().nextSeq;
    const half = Array.from({ length: Number(MAX_POSITION) - 10 }, () => one);
    const [a, b] = await Promise.all([
      store.appendBatch(half),
      store.appendBatch(Array.from({ length: 20 }, () => one)),
    ]);
    expect(a.lastEntryIds.get(REGION_A)).toBe((seq << 20n) | (MAX_POSITION - 10n));
    expect(b.lastEntryIds.get(REGION_A)).toBe(((seq + 1n) << 20n) | 20n);
    const decoded = decodeObject((await io.get(keyAt(seq + 1n))).bytes, keyAt(seq + 1n));
    expect(decoded.header.link?.seq).toBe(seq);
    await store.stop();
  }, 30_000);

  it('backpressure holds appends in order and drops nothing', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 40 });
    const store = await openStore(io, {
      maxSealedBatches: 1,
      maxInFlightCreates: 1,
      maxBatchBytes: 20,
    });
    let stalledSeen = false;
    const off = store.onStateChange((s) => {
      if (s.heldAppends > 0) stalledSeen = true;
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.appendBatch(entriesOf(store, REGION_A, `p${i}`))),
    );
    off();
    expect(stalledSeen).toBe(true);
    const ids = results.map((r) => r.lastEntryIds.get(REGION_A) ?? 0n);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(results.map((_, i) => `p${i}`));
    expect(store.metrics().stalledAppends).toBeGreaterThan(0);
    await store.stop();
  });

  it('checks the provider everywhere (WrongProvider)', async () => {
    const store = await openStore(new MemoryObjectIo());
    const foreign = { prefix: 'other/nodes/1/generations/0', regionId: REGION_A };
    expect(() => store.entry(new Uint8Array(1), 0n, REGION_A, foreign)).toThrow(
      expect.objectContaining({ code: 'WrongProvider' }),
    );
    expect(() => store.entry(new Uint8Array(1), 0n, REGION_B, providerOf(store, REGION_A))).toThrow(
      expect.objectContaining({ code: 'WrongProvider' }),
    );
    expect(() => store.latestEntryId(foreign)).toThrow(
      expect.objectContaining({ code: 'WrongProvider' }),
    );
    expect(() => store.read(foreign, 0n)).toThrow(
      expect.objectContaining({ code: 'WrongProvider' }),
    );
    await expect(store.obsolete(foreign, REGION_A, 0n)).rejects.toMatchObject({
      code: 'WrongProvider',
    });
    await expect(store.waitDurable(foreign, 1n)).rejects.toMatchObject({ code: 'WrongProvider' });
    await store.stop();
  });
});
