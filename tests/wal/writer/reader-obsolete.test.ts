import { describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { OBSOLETE_SEQ_LIMIT, seqOf } from '../../../src/main/engine/wal/ids';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import {
  PREFIX,
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
  until,
} from '../support/writer-harness';

/** Counts concurrent gets of WAL objects (read-ahead). */
class CountingIo extends FaultyObjectIo {
  current = 0;
  peak = 0;
  override async get(key: string, range?: Parameters<ObjectIo['get']>[1]) {
    if (!key.includes('/objects/')) return super.get(key, range);
    this.current += 1;
    this.peak = Math.max(this.peak, this.current);
    try {
      return await super.get(key, range);
    } finally {
      this.current -= 1;
    }
  }
}

async function writeObjects(store: ObjectStoreLogStore, count: number): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const r = await store.appendBatch([
      ...entriesOf(store, REGION_A, `a${i}`),
      ...entriesOf(store, REGION_B, `b${i}`),
    ]);
    ids.push(r.lastEntryIds.get(REGION_A) ?? 0n);
  }
  return ids;
}

describe('reader', () => {
  it('reads the region in order from fromId, reading ahead, only its segments', async () => {
    const io = new CountingIo(new MemoryObjectIo());
    const store = await openStore(io);
    const ids = await writeObjects(store, 8);
    io.inject({ op: 'get', key: /objects\//, kind: 'delay', delayMs: 15 });
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(ids.map((_, i) => `a${i}`));
    expect(io.peak).toBeGreaterThan(1);
    expect((await readAll(store, REGION_B, 0n)).map(payloadOf)).toEqual(ids.map((_, i) => `b${i}`));
    expect((await readAll(store, REGION_A, ids[5])).map(payloadOf)).toEqual(['a5', 'a6', 'a7']);
    await store.stop();
  });

  it('a segment failing its CRC is fetched once more; then skip records a hole, fail throws', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io);
    const ids = await writeObjects(store, 3);
    const middle = keyAt(seqOf(ids[1] ?? 0n));
    io.inject({ op: 'get', key: new RegExp(`${middle}$`), kind: 'corrupt', count: 1 });
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['a0', 'a1', 'a2']);
    io.inject({ op: 'get', key: new RegExp(`${middle}$`), kind: 'corrupt', count: 2 });
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['a0', 'a2']);
    expect(store.metrics().skippedSegments).toBe(1);
    await store.stop();

    const io2 = new FaultyObjectIo(new MemoryObjectIo());
    const strict = await openStore(io2, { onCorruptedSegment: 'fail' });
    const ids2 = await writeObjects(strict, 2);
    io2.inject({
      op: 'get',
      key: new RegExp(`${keyAt(seqOf(ids2[0] ?? 0n))}$`),
      kind: 'corrupt',
      count: 2,
    });
    await expect(readAll(strict, REGION_A)).rejects.toMatchObject({ code: 'CorruptSegment' });
    await strict.stop();
  });

  it('an object collected meanwhile: skipped below the watermark, else ObjectGone', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io);
    const ids = await writeObjects(store, 3);
    await io.delete(keyAt(seqOf(ids[0] ?? 0n)));
    await expect(readAll(store, REGION_A)).rejects.toMatchObject({ code: 'ObjectGone' });
    await store.obsolete(providerOf(store), REGION_A, ids[0] ?? 0n);
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['a1', 'a2']);
    await store.stop();
  });
});

describe('obsolete', () => {
  it('raises and persists the watermark, hiding ids at or below it; latestEntryId is unaffected', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io);
    const ids = await writeObjects(store, 3);
    await store.obsolete(providerOf(store), REGION_A, ids[1] ?? 0n);
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['a2']);
    expect(store.latestEntryId(providerOf(store))).toBe(ids[2]);
    const control = (await readControl(registerStoreOf(io, PREFIX)))?.control;
    expect(control?.watermarks.get(REGION_A)).toBe(ids[1]);
    await store.obsoleteAll(providerOf(store, REGION_B), REGION_B);
    expect(await readAll(store, REGION_B)).toEqual([]);
    await store.stop();
  });

  it('rejects ids whose sequence is at or above 2^44 - 2^20, and ids whose object is not durable yet', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io);
    await expect(
      store.obsolete(providerOf(store), REGION_A, OBSOLETE_SEQ_LIMIT << 20n),
    ).rejects.toMatchObject({ code: 'InvalidEntryId' });
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 80 });
    const seq = store.state().nextSeq;
    const pending = store.appendBatch(entriesOf(store, REGION_A, 'pending'));
    await until(() => store.state().createsInFlight.length === 1, 'create in flight');
    await expect(
      store.obsolete(providerOf(store), REGION_A, (seq << 20n) | 1n),
    ).rejects.toMatchObject({ code: 'InvalidEntryId' });
    await pending;
    await store.stop();
  });

  it('a foreign id moves the sequence floor after the CAS; new ids go above it', async () => {
    const store = await openStore(new MemoryObjectIo());
    const far = store.state().nextSeq + 500n;
    await store.obsolete(providerOf(store), REGION_A, (far << 20n) | 7n);
    expect(store.state().nextSeq).toBe(far + 1n);
    expect(store.state().certified).toBe(far);
    const r = await store.appendBatch(entriesOf(store, REGION_A, 'after'));
    expect(seqOf(r.lastEntryIds.get(REGION_A) ?? 0n)).toBe(far + 1n);
    await store.stop();
  });

  it('WalObjectSequenceUnsettled while the open batch holds ids under the next sequence; records neither', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io, { flushIntervalMs: 3000 });
    const next = store.state().nextSeq;
    const pending = store.appendBatch(entriesOf(store, REGION_A, 'open'));
    const far = (next + 100n) << 20n;
    const outcome = await settle(store.obsolete(providerOf(store), REGION_A, far));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(codeOf(outcome.error)).toBe('WalObjectSequenceUnsettled');
    expect(store.state().nextSeq).toBe(next);
    expect(
      (await readControl(registerStoreOf(io, PREFIX)))?.control.watermarks.get(REGION_A),
    ).toBeUndefined();
    await store.stop();
    await settle(pending);
  });

  it('cancelled before queued records neither; once queued both apply', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io);
    const next = store.state().nextSeq;
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      store.obsolete(providerOf(store), REGION_A, (next + 10n) << 20n, { signal: aborted.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(store.state().nextSeq).toBe(next);
    const late = new AbortController();
    const call = store.obsolete(providerOf(store), REGION_A, (next + 10n) << 20n, {
      signal: late.signal,
    });
    late.abort();
    await call;
    expect(store.state().nextSeq).toBe(next + 11n);
    await store.stop();
  });

  it('enqueued: the watermark is clamped to the durable id', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io, { ackMode: 'enqueued' });
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 80 });
    const { lastEntryIds } = await store.appendBatch(entriesOf(store, REGION_A, 'e'));
    const id = lastEntryIds.get(REGION_A) ?? 0n;
    await store.obsolete(providerOf(store), REGION_A, id);
    await store.waitDurable(providerOf(store), id);
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['e']);
    await store.stop();
  });

  it('namespaces: create lists before any entry; delete obsoletes all and removes', async () => {
    const store = await openStore(new MemoryObjectIo());
    await store.createNamespace(providerOf(store, REGION_B));
    expect((await store.listNamespaces()).map((p) => p.regionId)).toEqual([REGION_B]);
    await store.appendBatch(entriesOf(store, REGION_A, 'x'));
    expect((await store.listNamespaces()).map((p) => p.regionId)).toEqual([REGION_A, REGION_B]);
    await store.deleteNamespace(providerOf(store, REGION_A));
    expect(await readAll(store, REGION_A)).toEqual([]);
    await store.stop();
  });
});
