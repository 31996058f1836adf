/**
 * wal.md's failure matrix, one row per spec row. The registry makes the suite fail if a row
 * of the spec has no case here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { decodeObject } from '../../../src/main/engine/wal/format';
import { MAX_SEQ, seqOf } from '../../../src/main/engine/wal/ids';
import { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import {
  REGION_A,
  codeOf,
  entriesOf,
  foreignObject,
  handMadeSession,
  keyAt,
  openStore,
  payloadOf,
  providerOf,
  readAll,
  settle,
  until,
} from '../support/writer-harness';

const SPEC_ROWS = [
  'created, or exists with identical bytes (a lost response)',
  'transient failure, durable',
  'an object of an earlier epoch at the sequence, durable',
  'transient failure, enqueued',
  'transient failure, enqueued, after stop began',
  'an object of the same or a later epoch at the sequence (any mode), or a register version of another writer',
  'any other conflicting object in enqueued mode, an encoding or catalog error',
  'created at the last representable sequence',
] as const;
type SpecRow = (typeof SPEC_ROWS)[number];

const covered = new Set<SpecRow>();
const keyRe = (seq: bigint): RegExp => new RegExp(`${keyAt(seq)}$`);

const MATRIX: ReadonlyArray<{ row: SpecRow; name: string; run: () => Promise<void> }> = [
  {
    row: 'created, or exists with identical bytes (a lost response)',
    name: 'a lost create response is reconciled by reading back: acknowledged, sequence advances',
    run: async () => {
      const io = new FaultyObjectIo(new MemoryObjectIo());
      const store = await openStore(io);
      const seq = store.state().nextSeq;
      io.inject({ op: 'putIfAbsent', key: keyRe(seq), kind: 'apply-then-lose', count: 1 });
      const first = await store.appendBatch(entriesOf(store, REGION_A, 'one'));
      expect(first.lastEntryIds.get(REGION_A)).toBe((seq << 20n) | 1n);
      const second = await store.appendBatch(entriesOf(store, REGION_A, 'two'));
      expect(seqOf(second.lastEntryIds.get(REGION_A) ?? 0n)).toBe(seq + 1n);
      expect(io.fired).toBe(1);
      expect(store.state().poisoned).toBeNull();
      expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['one', 'two']);
      await store.stop();
    },
  },
  {
    row: 'transient failure, durable',
    name: 'this and every unindexed batch fail; the in-flight one lands as an orphan; sequences never reused',
    run: async () => {
      const io = new FaultyObjectIo(new MemoryObjectIo());
      const store = await openStore(io, { maxInFlightCreates: 2, flushIntervalMs: 10 });
      const start = store.state().indexedTip;
      const seq = store.state().nextSeq;
      io.inject({ op: 'putIfAbsent', key: keyRe(seq), kind: 'delay', delayMs: 150 });
      io.inject({ op: 'putIfAbsent', key: keyRe(seq + 1n), kind: 'unavailable', count: 1 });
      const a = settle(store.appendBatch(entriesOf(store, REGION_A, 'a')));
      await until(() => store.state().createsInFlight.length === 1, 'first create in flight');
      const b = settle(store.appendBatch(entriesOf(store, REGION_A, 'b')));
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra.ok).toBe(false);
      expect(rb.ok).toBe(false);
      if (!rb.ok) expect(codeOf(rb.error)).toBe('Unavailable');
      expect(store.state().poisoned).toBeNull();
      const c = await store.appendBatch(entriesOf(store, REGION_A, 'c'));
      const cSeq = seqOf(c.lastEntryIds.get(REGION_A) ?? 0n);
      expect(cSeq).toBeGreaterThanOrEqual(seq + 2n); // consumed, never reused
      const cObject = decodeObject((await io.get(keyAt(cSeq))).bytes, keyAt(cSeq));
      expect(cObject.header.link).toEqual(start); // links to the last indexed object
      await until(async () => (await settle(io.head(keyAt(seq)))).ok, 'orphan landed');
      expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['c']);
      await store.stop();
    },
  },
  {
    row: 'an object of an earlier epoch at the sequence, durable',
    name: 'fails like a transient failure; the store stays healthy and moves on',
    run: async () => {
      const io = new MemoryObjectIo();
      const store = await openStore(io);
      const seq = store.state().nextSeq;
      await io.putIfAbsent(keyAt(seq), foreignObject(seq, store.epoch - 1n));
      const failed = await settle(store.appendBatch(entriesOf(store, REGION_A, 'lost')));
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(codeOf(failed.error)).toBe('ConflictingObject');
      expect(store.state().poisoned).toBeNull();
      const ok = await store.appendBatch(entriesOf(store, REGION_A, 'kept'));
      expect(seqOf(ok.lastEntryIds.get(REGION_A) ?? 0n)).toBe(seq + 1n);
      expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['kept']);
      await store.stop();
    },
  },
  {
    row: 'transient failure, enqueued',
    name: 'already acknowledged; the same bytes are created again after a short delay',
    run: async () => {
      const io = new FaultyObjectIo(new MemoryObjectIo());
      const store = await openStore(io, { ackMode: 'enqueued' }, { createRetryDelayMs: 10 });
      const seq = store.state().nextSeq;
      io.inject({ op: 'putIfAbsent', key: keyRe(seq), kind: 'unavailable', count: 2 });
      const r = await store.appendBatch(entriesOf(store, REGION_A, 'e1', 'e2'));
      const id = r.lastEntryIds.get(REGION_A) ?? 0n;
      expect(seqOf(id)).toBe(seq);
      await store.waitDurable(providerOf(store), id);
      expect(io.fired).toBe(2);
      expect(store.state().poisoned).toBeNull();
      expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(['e1', 'e2']);
      const report = await store.stop();
      expect(report).toMatchObject({ sealed: true, lost: null });
    },
  },
  {
    row: 'transient failure, enqueued, after stop began',
    name: 'the backlog is dropped and stop reports exactly what was lost',
    run: async () => {
      const io = new FaultyObjectIo(new MemoryObjectIo());
      const store = await openStore(io, { ackMode: 'enqueued', flushIntervalMs: 1000 });
      io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'unavailable' });
      await store.appendBatch(entriesOf(store, REGION_A, 'x', 'y', 'z'));
      await store.appendBatch(entriesOf(store, REGION_A, 'w'));
      const report = await store.stop();
      expect(report.lost).toMatchObject({ code: 'LostBacklog', count: 4, batches: 1 });
      expect(report.sealed).toBe(true);
      expect(await store.stop()).toBe(report); // idempotent
    },
  },
  {
    row: 'an object of the same or a later epoch at the sequence (any mode), or a register version of another writer',
    name: 'poisoned with Fenced; enqueued reports its backlog as LostBacklog',
    run: async () => {
      // (1) a later-epoch object at the sequence, durable.
      const io = new MemoryObjectIo();
      const store = await openStore(io);
      const seq = store.state().nextSeq;
      await io.putIfAbsent(keyAt(seq), foreignObject(seq, store.epoch + 1n));
      const failed = await settle(store.appendBatch(entriesOf(store, REGION_A, 'a')));
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(codeOf(failed.error)).toBe('Fenced');
      expect(store.state().poisoned?.code).toBe('Fenced');
      await store.stop();
      // (2) a register version of another writer, enqueued: the backlog is LostBacklog.
      const io2 = new FaultyObjectIo(new MemoryObjectIo());
      const old = await openStore(io2, { ackMode: 'enqueued', flushIntervalMs: 20 });
      io2.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 100 });
      const { lastEntryIds } = await old.appendBatch(entriesOf(old, REGION_A, 'b1', 'b2'));
      const newer = await openStore(io2, { ackMode: 'enqueued' });
      const waited = await settle(
        old.waitDurable(providerOf(old), lastEntryIds.get(REGION_A) ?? 0n),
      );
      expect(waited.ok).toBe(false);
      if (!waited.ok) expect(waited.error).toMatchObject({ code: 'LostBacklog', count: 2 });
      expect(old.state().poisoned?.code).toBe('Fenced');
      const report = await old.stop();
      expect(report.terminal).toMatchObject({ code: 'Fenced', epoch: newer.epoch });
      expect(report.lost).toMatchObject({ count: 2 });
      await newer.stop();
    },
  },
  {
    row: 'any other conflicting object in enqueued mode, an encoding or catalog error',
    name: 'an earlier-epoch object at the sequence in enqueued mode poisons the store',
    run: async () => {
      const io = new MemoryObjectIo();
      const store = await openStore(io, { ackMode: 'enqueued' });
      const seq = store.state().nextSeq;
      await io.putIfAbsent(keyAt(seq), foreignObject(seq, store.epoch - 1n));
      const { lastEntryIds } = await store.appendBatch(entriesOf(store, REGION_A, 'q'));
      const waited = await settle(
        store.waitDurable(providerOf(store), lastEntryIds.get(REGION_A) ?? 0n),
      );
      expect(waited.ok).toBe(false);
      expect(store.state().poisoned?.code).toBe('Poisoned');
      // Every operation but stop fails with the same terminal error, verbatim.
      const terminal = (() => {
        try {
          store.latestEntryId(providerOf(store));
        } catch (error) {
          return error;
        }
        return null;
      })();
      expect(codeOf(terminal)).toBe('Poisoned');
      await expect(store.appendBatch([])).rejects.toBe(terminal);
      expect(() => store.read(providerOf(store), 0n)).toThrow(terminal);
      await expect(store.obsolete(providerOf(store), REGION_A, 0n)).rejects.toBe(terminal);
      const report = await store.stop();
      expect(report.terminal).toBe(terminal);
    },
  },
  {
    row: 'created at the last representable sequence',
    name: 'acknowledged, then poisoned with SequenceExhausted',
    run: async () => {
      const io = new MemoryObjectIo();
      const session = await handMadeSession(io, MAX_SEQ - 1n);
      const store = ObjectStoreLogStore.fromSession(session, { fenceDeadlineMs: 400 });
      const r = await store.appendBatch(entriesOf(store, REGION_A, 'last'));
      expect(seqOf(r.lastEntryIds.get(REGION_A) ?? 0n)).toBe(MAX_SEQ);
      await until(() => store.state().poisoned !== null, 'poisoned');
      expect(store.state().poisoned?.code).toBe('SequenceExhausted');
      await expect(store.appendBatch([])).rejects.toMatchObject({ code: 'SequenceExhausted' });
      await store.stop();
    },
  },
];

describe('failure matrix (wal.md)', () => {
  for (const { row, name, run } of MATRIX) {
    it(`${row} -> ${name}`, async () => {
      await run();
      covered.add(row);
    });
  }

  afterAll(() => {
    const missing = SPEC_ROWS.filter((row) => !covered.has(row));
    expect(missing, 'spec rows without a passing case').toEqual([]);
  });

  it('every spec row has a case', () => {
    expect(new Set(MATRIX.map((c) => c.row))).toEqual(new Set(SPEC_ROWS));
  });
});
