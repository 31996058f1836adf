/**
 * GC's deletes in batches: 2,500 objects below the boundary go in three requests, ascending,
 * every one of them and nothing else; a key refused in the first batch is reported with its
 * error, counted as remaining, and no later batch starts.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { deleteAscending, listObjectsBelow } from '../../../src/main/engine/wal/gc';
import { objectKey } from '../../../src/main/engine/wal/keys';
import { GcProbeIo, storedSeqs } from './gc-support';

const PREFIX = 'wal/nodes/7/generations/0';

async function storeOf(objects: number): Promise<GcProbeIo> {
  const io = new GcProbeIo(new MemoryObjectIo());
  for (let seq = 0; seq < objects; seq++)
    await io.putIfAbsent(objectKey(PREFIX, BigInt(seq)), new Uint8Array(seq % 7));
  return io;
}

describe('GC batch deletes', () => {
  it('deletes 2,500 objects below the boundary in three requests, ascending', async () => {
    const io = await storeOf(2_600);
    const below = await listObjectsBelow(io, PREFIX, 2_500n);
    const seen: bigint[] = [];
    const outcome = await deleteAscending(io, below, { onDeleted: (o) => seen.push(o.seq) });
    expect(io.deleteRequests).toBe(3);
    expect(outcome.error).toBeNull();
    expect(outcome.remaining).toBe(0);
    expect(outcome.deleted.map((o) => o.seq)).toEqual(below.map((o) => o.seq));
    expect(seen).toEqual(below.map((o) => o.seq));
    expect(outcome.bytes).toBe(below.reduce((sum, o) => sum + o.size, 0));
    expect(await storedSeqs(io, PREFIX)).toEqual(
      Array.from({ length: 100 }, (_, i) => BigInt(2_500 + i)),
    );
  });

  it('stops after a batch with a refused key, reporting it and leaving the rest', async () => {
    const io = await storeOf(1_500);
    io.inject({ op: 'delete', key: /\/0+10\.wal$/, kind: 'backend' });
    const below = await listObjectsBelow(io, PREFIX, null);
    const failed: bigint[] = [];
    const outcome = await deleteAscending(io, below, { onFailed: (o) => failed.push(o.seq) });
    expect(io.deleteRequests).toBe(1);
    expect(failed).toEqual([10n]);
    expect(outcome.error?.message).toContain('injected fault on delete');
    expect(outcome.deleted).toHaveLength(999);
    expect(outcome.remaining).toBe(501);
    expect((await storedSeqs(io, PREFIX)).slice(0, 2)).toEqual([10n, 1_000n]);
  });
});
