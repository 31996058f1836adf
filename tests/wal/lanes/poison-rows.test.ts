/**
 * The failure-matrix row "an encoding or catalog error": every unacknowledged waiter fails,
 * the sequence does not advance past it and the store is poisoned - every operation but stop
 * then fails with the same terminal error, verbatim. Neither error can be met through valid
 * input (admission refuses an entry too large for an object), so each is forced: an entry
 * whose `length` grows past what a record can hold after it was admitted (encoding), and a sequence indexed behind the writer's back while its create runs (catalog).
 */
import { describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { objectKey } from '../../../src/main/engine/wal/keys';
import { openWriter } from '../../../src/main/engine/wal/open';
import { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import { REGION_A, codeOf, laneConfig, payload, providerOf, settle, until } from './lane-kit';

function terminalOf(store: ObjectStoreLogStore): unknown {
  try {
    store.latestEntryId(providerOf(store, REGION_A));
  } catch (error) {
    return error;
  }
  return null;
}

async function expectPoisonedVerbatim(store: ObjectStoreLogStore, cause: string): Promise<void> {
  const terminal = terminalOf(store);
  expect(terminal).toMatchObject({ code: 'Poisoned', terminal: { code: cause } });
  expect(store.state().poisoned?.code).toBe('Poisoned');
  await expect(store.appendBatch([])).rejects.toBe(terminal);
  await expect(store.obsolete(providerOf(store, REGION_A), REGION_A, 0n)).rejects.toBe(terminal);
  expect(() => store.read(providerOf(store, REGION_A), 0n)).toThrow(terminal);
  const report = await store.stop();
  expect(report.terminal).toBe(terminal);
  expect(report.sealed).toBe(false);
}

describe('the "encoding or catalog error" row of the failure matrix', () => {
  it('an encoding error fails every waiter of the batch and poisons the store', async () => {
    const io = new MemoryObjectIo();
    const store = await ObjectStoreLogStore.open(io, laneConfig({ flushIntervalMs: 1000 }), {
      probe: false,
    });
    const seq = store.state().nextSeq;
    // A record length is a u32. Admission refuses an entry above it (EntryTooLarge, nothing
    // admitted), so the bytes are made to grow past it after admission: the encoder meets it
    // at seal (and the bytes are never copied).
    let claimed = 8;
    const growing = Object.defineProperty(new Uint8Array(1), 'length', { get: () => claimed });
    const before = settle(
      store.appendBatch([
        store.entry(payload('fine', 8), 0n, REGION_A, providerOf(store, REGION_A)),
      ]),
    );
    const failed = settle(
      store.appendBatch([store.entry(growing, 0n, REGION_A, providerOf(store, REGION_A))]),
    );
    claimed = 2 ** 32;
    const outcome = await failed;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(codeOf(outcome.error)).toBe('EntryTooLarge');
    const earlier = await before;
    expect(earlier.ok).toBe(false);
    await expectPoisonedVerbatim(store, 'EntryTooLarge');
    await expect(io.head(objectKey(store.prefix, seq))).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('a catalog error (the sequence indexed twice) fails the waiters and poisons the store', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const session = await openWriter(io, laneConfig(), { probe: false });
    const store = ObjectStoreLogStore.fromSession(session, { fenceDeadlineMs: 2000 });
    const seq = session.nextSeq;
    io.inject({
      op: 'putIfAbsent',
      key: new RegExp(`${objectKey(session.prefix, seq)}$`),
      kind: 'delay',
      delayMs: 60,
      count: 1,
    });
    const pending = settle(
      store.appendBatch([
        store.entry(payload('doomed', 8), 0n, REGION_A, providerOf(store, REGION_A)),
      ]),
    );
    await until(() => store.state().createsInFlight.length === 1, 'the create in flight');
    // Someone indexes the same sequence meanwhile: the commit after the fence must refuse it.
    session.catalog.index({
      seq,
      epoch: session.epoch,
      link: session.catalog.tip(),
      size: 1,
      segments: [],
    });
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error).toMatchObject({
        code: 'Poisoned',
        terminal: { code: 'ConflictingObject' },
      });
    await expectPoisonedVerbatim(store, 'ConflictingObject');
  });
});
