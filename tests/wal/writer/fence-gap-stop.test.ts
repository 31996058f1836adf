import { describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { objectsUnder } from '../../../src/main/engine/objectio/object-io';
import { START_GAP } from '../../../src/main/engine/wal/actor';
import { decodeObject } from '../../../src/main/engine/wal/format';
import { objectsFolder, seqOfObjectKey } from '../../../src/main/engine/wal/keys';
import { seqOf } from '../../../src/main/engine/wal/ids';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import {
  PREFIX,
  REGION_A,
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

async function listedSeqs(io: MemoryObjectIo | FaultyObjectIo): Promise<bigint[]> {
  const seqs: bigint[] = [];
  for await (const meta of objectsUnder(io, objectsFolder(PREFIX))) {
    const seq = seqOfObjectKey(PREFIX, meta.key);
    if (seq !== null) seqs.push(seq);
  }
  return seqs;
}

const manifestReads = { op: 'get', key: /manifest\//, kind: 'unavailable' } as const;

describe('durability fence', () => {
  it('a fence read failing to the deadline fails its batches as transient, unindexed, nothing reported', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io, {}, { fenceDeadlineMs: 150, fenceRetryDelayMs: 10 });
    const start = store.state().indexedTip;
    const seq = store.state().nextSeq;
    io.inject(manifestReads);
    const failed = await settle(store.appendBatch(entriesOf(store, REGION_A, 'never-reported')));
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(codeOf(failed.error)).toBe('Unavailable');
    expect(store.latestEntryId(providerOf(store))).toBe(0n);
    expect(store.state().indexedTip).toEqual(start);
    expect((await io.head(keyAt(seq))).size).toBeGreaterThan(0); // created, but unindexed
    io.clear();
    const ok = await store.appendBatch(entriesOf(store, REGION_A, 'reported'));
    const okSeq = seqOf(ok.lastEntryIds.get(REGION_A) ?? 0n);
    expect(okSeq).toBe(seq + 1n);
    expect(decodeObject((await io.get(keyAt(okSeq))).bytes, keyAt(okSeq)).header.link).toEqual(
      start,
    );
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['reported']);
    expect(store.state().poisoned).toBeNull();
    await store.stop();
  });

  it("with ackFence 'none' acks do not wait for the register", async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io, { ackFence: 'none' }, { fenceDeadlineMs: 60_000 });
    io.inject(manifestReads);
    const r = await store.appendBatch(entriesOf(store, REGION_A, 'unfenced'));
    expect(store.latestEntryId(providerOf(store))).toBe(r.lastEntryIds.get(REGION_A));
    io.clear();
    await store.stop();
  });

  it('rounds are serialized and a round covers only what was indexed before it started', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io, { maxBatchBytes: 1 });
    io.inject({ op: 'get', key: /manifest\//, kind: 'delay', delayMs: 30 });
    let maxRounds = 0;
    const off = store.onStateChange((s) => {
      maxRounds = Math.max(maxRounds, s.fenceRound === null ? 0 : 1);
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.appendBatch(entriesOf(store, REGION_A, `r${i}`))),
    );
    off();
    expect(maxRounds).toBe(1);
    expect(results).toHaveLength(8);
    expect(store.metrics().fenceReadSeconds).toMatchObject({ count: expect.any(Number) });
    await store.stop();
  });
});

describe('start gap (control.md point 2)', () => {
  it('never creates at or beyond B + 64 while fence reads fail; resumes once one passes', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(
      io,
      { maxBatchBytes: 1, maxSealedBatches: 30, maxInFlightCreates: 8 },
      { fenceDeadlineMs: 20_000, fenceRetryDelayMs: 5 },
    );
    const b = store.state().certified;
    io.inject(manifestReads);
    const appends = Array.from({ length: 100 }, (_, i) =>
      store.appendBatch(entriesOf(store, REGION_A, `g${i}`)),
    );
    await until(() => store.state().gapBlocked, 'the gap to block creates');
    const seqs = await listedSeqs(io);
    expect(seqs.every((s) => s < b + START_GAP)).toBe(true);
    expect(seqs.some((s) => s === b + START_GAP - 1n)).toBe(true);
    io.clear();
    const results = await Promise.all(appends);
    expect(results).toHaveLength(100);
    expect(store.state().certified).toBeGreaterThan(b);
    await store.stop();
  }, 30_000);
});

describe('stop', () => {
  it('durable: creates in flight finish and are acknowledged; unstarted batches get Stopped; the seal is recorded', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io, { maxBatchBytes: 1, maxInFlightCreates: 1 });
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 60 });
    const first = settle(store.appendBatch(entriesOf(store, REGION_A, 'in-flight')));
    await until(() => store.state().createsInFlight.length === 1, 'create in flight');
    const second = settle(store.appendBatch(entriesOf(store, REGION_A, 'queued')));
    await until(() => store.state().sealedWaiting === 2, 'second sealed');
    const report = await store.stop();
    expect((await first).ok).toBe(true);
    const r2 = await second;
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(codeOf(r2.error)).toBe('Stopped');
    await expect(store.appendBatch([])).rejects.toMatchObject({ code: 'Stopped' });
    expect(report.sealed).toBe(true);
    const control = (await readControl(registerStoreOf(io, PREFIX)))?.control;
    const record = control?.segments.find((s) => s.lastEpoch === store.epoch);
    expect(record).toMatchObject({ reason: 'stopped', lastSeq: report.lastSeq });
    expect(control?.tail?.seq).toBe(report.lastSeq);
    expect(await store.stop()).toBe(report);
  });

  it('enqueued: the whole backlog is uploaded before stop returns; a reopen replays it', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openStore(io, { ackMode: 'enqueued', flushIntervalMs: 5000 });
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 30 });
    await store.appendBatch(entriesOf(store, REGION_A, 's1', 's2'));
    await store.appendBatch(entriesOf(store, REGION_A, 's3'));
    const report = await store.stop();
    expect(report).toMatchObject({ sealed: true, lost: null, terminal: null });
    const reopened = await openStore(io);
    expect((await readAll(reopened, REGION_A)).map(payloadOf)).toEqual(['s1', 's2', 's3']);
    await reopened.stop();
  });
});
