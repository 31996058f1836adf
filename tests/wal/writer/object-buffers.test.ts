import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { ObjectBuffers } from '../../../src/main/engine/wal/actor/object-buffers';
import { encodeObject } from '../../../src/main/engine/wal/format';
import { seqOfAnyObjectKey } from '../../../src/main/engine/wal/keys';
import { batchArbitrary } from '../wal-objects';
import { REGION_A, openStore, providerOf } from '../support/writer-harness';

const KIB = 1024;

/** Bytes taken from `buffers`, then scribbled over as a used object would be, and given back. */
function used(buffers: ObjectBuffers, size: number): Uint8Array {
  const bytes = buffers.take(size);
  bytes.fill(0xee);
  buffers.give(bytes);
  return bytes;
}

describe('ObjectBuffers', () => {
  it('answers exactly the size asked, all zero, fresh or reused', () => {
    const buffers = new ObjectBuffers(2, 1024 * KIB);
    const fresh = buffers.take(1000);
    expect(fresh.length).toBe(1000);
    expect(fresh.every((byte) => byte === 0)).toBe(true);

    const given = used(buffers, 3000);
    const reused = buffers.take(2000);
    expect(reused.buffer).toBe(given.buffer);
    expect(reused.length).toBe(2000);
    expect(reused.every((byte) => byte === 0)).toBe(true);
  });

  it('takes the smallest idle buffer that holds the size, and a new one when none does', () => {
    const buffers = new ObjectBuffers(2, 1024 * KIB);
    const small = buffers.take(64 * KIB);
    const large = buffers.take(512 * KIB);
    buffers.give(large);
    buffers.give(small);

    expect(buffers.take(10).buffer).toBe(small.buffer);
    const bigger = buffers.take(600 * KIB);
    expect(bigger.buffer).not.toBe(large.buffer);
    expect(buffers.take(300 * KIB).buffer).toBe(large.buffer);
  });

  it('hands a buffer given twice to one batch only', () => {
    const buffers = new ObjectBuffers(4, 1024 * KIB);
    const bytes = buffers.take(100);
    buffers.give(bytes);
    buffers.give(bytes);
    expect(buffers.take(100).buffer).toBe(bytes.buffer);
    expect(buffers.take(100).buffer).not.toBe(bytes.buffer);
  });

  it('keeps no buffer above its largest capacity', () => {
    const buffers = new ObjectBuffers(2, 128 * KIB);
    const huge = buffers.take(256 * KIB);
    buffers.give(huge);

    const next = buffers.take(100);
    expect(next.buffer).not.toBe(huge.buffer);
    expect(next.length).toBe(100);
  });

  it('holds at most `keep` idle buffers, keeping the larger ones', () => {
    const buffers = new ObjectBuffers(2, 1024 * KIB);
    const sizes = [64 * KIB, 128 * KIB, 256 * KIB];
    const taken = sizes.map((size) => buffers.take(size));
    for (const bytes of taken) buffers.give(bytes);

    expect(buffers.take(1).buffer).toBe(taken[1]!.buffer);
    expect(buffers.take(1).buffer).toBe(taken[2]!.buffer);
    expect(buffers.take(1).buffer).not.toBe(taken[0]!.buffer);
  });
});

describe('encodeObject into reused buffers', () => {
  it('writes the same bytes as into a fresh buffer', () => {
    const buffers = new ObjectBuffers(1, 64 * 1024 * KIB);
    fc.assert(
      fc.property(batchArbitrary, (batch) => {
        const fresh = encodeObject(batch);
        used(buffers, fresh.bytes.length + 100);
        const reused = encodeObject(batch, (size) => buffers.take(size));
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
