import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BufferPool } from '../../../src/main/engine/objectio/buffer-pool';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { encodeObject } from '../../../src/main/engine/wal/format';
import { seqOfAnyObjectKey } from '../../../src/main/engine/wal/keys';
import { batchArbitrary } from '../wal-objects';
import { REGION_A, openStore, providerOf } from '../support/writer-harness';

const KIB = 1024;

describe('encodeObject into reused buffers', () => {
  it('writes every byte: the same object into a scribbled, unzeroed buffer as into a fresh one', () => {
    const buffers = new BufferPool(1, 64 * 1024 * KIB);
    fc.assert(
      fc.property(batchArbitrary, (batch) => {
        const fresh = encodeObject(batch);
        // A buffer used before: scribbled over and given back.
        buffers.give(buffers.takeToOverwrite(fresh.bytes.length + 100).fill(0xee));
        const reused = encodeObject(batch, (size) => buffers.takeToOverwrite(size));
        expect(reused.bytes).toEqual(fresh.bytes);
        expect(reused.segments).toEqual(fresh.segments);
        buffers.give(reused.bytes);
      }),
      { numRuns: 150 },
    );
  });
});

/**
 * A store that reads a create's bytes only a few milliseconds after it is asked, as a file
 * write or an upload does, and checks they did not change meanwhile.
 */
class LateReadingIo extends MemoryObjectIo {
  readonly changedWhileCreating: string[] = [];
  readonly objectBuffers = new Set<ArrayBufferLike>();
  objectCreates = 0;
  private calls = 0;

  override async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    const asked = bytes.slice();
    if (seqOfAnyObjectKey(key) !== null) {
      this.objectCreates += 1;
      this.objectBuffers.add(bytes.buffer);
    }
    // Uneven delays: creates finish out of order, commits stay in order.
    await new Promise((resolve) => setTimeout(resolve, (this.calls++ % 4) * 3));
    if (!Buffer.from(bytes).equals(asked)) this.changedWhileCreating.push(key);
    return super.putIfAbsent(key, bytes);
  }
}

describe('writer: object buffers', () => {
  it('encodes into a buffer again only once its object is created, and reads back every entry', async () => {
    const io = new LateReadingIo();
    const store = await openStore(io, { maxBatchBytes: 4 * KIB, maxInFlightCreates: 4 });
    const payloads = Array.from({ length: 300 }, (_, index) =>
      new Uint8Array(200 + ((index * 37) % 900)).fill(index % 251),
    );
    await Promise.all(
      payloads.map((payload) =>
        store.appendBatch([store.entry(payload, 0n, REGION_A, providerOf(store))]),
      ),
    );
    const read: Uint8Array[] = [];
    for await (const entry of store.read(providerOf(store), 0n)) read.push(entry.data.slice());
    await store.stop();

    expect(io.changedWhileCreating).toEqual([]);
    expect(read).toEqual(payloads);
    expect(io.objectCreates).toBeGreaterThan(20);
    expect(io.objectBuffers.size).toBeLessThan(io.objectCreates);
  });
});
