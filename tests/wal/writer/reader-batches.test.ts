import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { seqOf } from '../../../src/main/engine/wal/ids';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import type { WalEntry } from '../../../src/main/engine/wal/entry';
import {
  REGION_A,
  REGION_B,
  entriesOf,
  openStore,
  payloadOf,
  providerOf,
  readAll,
  walConfig,
} from '../support/writer-harness';

async function collect(batches: AsyncIterable<readonly WalEntry[]>): Promise<WalEntry[][]> {
  const found: WalEntry[][] = [];
  for await (const batch of batches) found.push([...batch]);
  return found;
}

describe('reader batches', () => {
  it('one batch per segment, the same entries as the per-entry stream, fromId and watermark applied', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io);
    const ids: bigint[] = [];
    for (let object = 0; object < 3; object++) {
      const result = await store.appendBatch([
        ...entriesOf(store, REGION_A, `a${object}.0`, `a${object}.1`, `a${object}.2`),
        ...entriesOf(store, REGION_B, `b${object}`),
      ]);
      ids.push(result.lastEntryIds.get(REGION_A)!);
    }
    const batches = await collect(store.readBatches(providerOf(store, REGION_A), 0n));
    expect(batches.map((batch) => batch.map(payloadOf))).toEqual([
      ['a0.0', 'a0.1', 'a0.2'],
      ['a1.0', 'a1.1', 'a1.2'],
      ['a2.0', 'a2.1', 'a2.2'],
    ]);
    for (const batch of batches) expect(new Set(batch.map((e) => seqOf(e.id))).size).toBe(1);
    expect(batches.flat().map((e) => e.id)).toEqual(
      (await readAll(store, REGION_A)).map((e) => e.id),
    );

    // fromId inside the second segment: that batch starts at it.
    const from = ids[1]! - 1n;
    const fromBatches = await collect(store.readBatches(providerOf(store, REGION_A), from));
    expect(fromBatches.map((batch) => batch.map(payloadOf))).toEqual([
      ['a1.1', 'a1.2'],
      ['a2.0', 'a2.1', 'a2.2'],
    ]);

    // The watermark hides ids at or below it, in batches and in the per-entry stream.
    await store.obsolete(providerOf(store, REGION_A), REGION_A, ids[0]! + 0n);
    const afterObsolete = await collect(store.readBatches(providerOf(store, REGION_A), 0n));
    expect(afterObsolete.flat().map(payloadOf)).toEqual([
      'a1.0',
      'a1.1',
      'a1.2',
      'a2.0',
      'a2.1',
      'a2.2',
    ]);
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(
      afterObsolete.flat().map(payloadOf),
    );
    await store.stop();

    const log = await openReadOnly(io, walConfig());
    const readOnly = await collect(log.readBatches(providerOf(log, REGION_B), 0n));
    expect(readOnly.map((batch) => batch.map(payloadOf))).toEqual([['b0'], ['b1'], ['b2']]);
  });

  it('the per-entry stream hides ids an obsolete call covers while the read is under way', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io);
    const result = await store.appendBatch(entriesOf(store, REGION_A, 'x1', 'x2', 'x3', 'x4'));
    const last = result.lastEntryIds.get(REGION_A)!;
    const seen: string[] = [];
    for await (const entry of store.read(providerOf(store, REGION_A), 0n)) {
      seen.push(payloadOf(entry));
      if (seen.length === 1) await store.obsolete(providerOf(store, REGION_A), REGION_A, last - 1n);
    }
    expect(seen).toEqual(['x1', 'x4']);
    await store.stop();
  });
});
