/**
 * Regression: with ackFence 'none', committing a batch shifted the pipeline while the indexer
 * iterated it, so the batch behind each commit was marked indexed but never committed and its
 * appenders waited forever. Many appenders and size-capped batches keep several creates in
 * flight, which is what exposed it.
 */
import { describe, expect, it } from 'vitest';
import { START_GAP } from '../../../src/main/engine/wal/actor';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { REGION_A, entriesOf, openStore, readAll } from '../support/writer-harness';

describe.each(['none', 'register'] as const)(
  'pipelined durable appends with ackFence %s',
  (ackFence) => {
    it('acknowledges every append and reads each back once', async () => {
      const io = new FaultyObjectIo(new MemoryObjectIo());
      // The first data object (the start object is 64 on an empty prefix) lands last, so the
      // batches behind it are already created when it is indexed: the indexer meets a run of them.
      io.inject({ op: 'putIfAbsent', key: /0065\.wal$/, kind: 'delay', delayMs: 150, count: 1 });
      const store = await openStore(io, { ackFence, maxBatchBytes: 4096, flushIntervalMs: 10 });
      const payloads = Array.from(
        { length: 400 },
        (_, index) => `entry-${index}-${'x'.repeat(200)}`,
      );
      const acks = await Promise.all(
        payloads.map((payload) => store.appendBatch(entriesOf(store, REGION_A, payload))),
      );
      expect(acks).toHaveLength(400);
      expect(store.state().nextSeq).toBeGreaterThan(START_GAP + 4n);
      const read = await readAll(store, REGION_A);
      expect(read.map((entry) => new TextDecoder().decode(entry.data)).sort()).toEqual(
        [...payloads].sort(),
      );
      expect(store.metrics().indexedObjects).toBeGreaterThan(4);
      await store.stop();
    });
  },
);
