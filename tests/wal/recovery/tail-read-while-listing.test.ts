import { describe, expect, it } from 'vitest';
import { fixedLink } from '../../../src/main/engine/objectio/link';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { ListedObject } from '../../../src/main/engine/wal/recovery/listing';
import { readIndexesWhileListing } from '../../../src/main/engine/wal/recovery/tail-read';
import { keyAt, objectBytes } from './prefix-builder';

async function storeOf(count: number): Promise<{ io: MemoryObjectIo; listed: ListedObject[] }> {
  const io = new MemoryObjectIo();
  const listed: ListedObject[] = [];
  for (let seq = 0n; seq < BigInt(count); seq++) {
    const bytes = objectBytes({ seq, epoch: 1n, link: seq === 0n ? null : [seq - 1n, 1n] });
    await io.putIfAbsent(keyAt(seq), bytes);
    listed.push({ key: keyAt(seq), seq, size: bytes.length });
  }
  return { io, listed };
}

async function* pagesOf(
  pages: readonly (readonly ListedObject[])[],
  failAfter?: Error,
): AsyncIterable<readonly ListedObject[]> {
  for (const page of pages) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield page;
  }
  if (failAfter) throw failAfter;
}

describe('tail reads while the listing pages', () => {
  it('reads every object of pages in any order and returns them ascending by sequence', async () => {
    const { io, listed } = await storeOf(9);
    const pages = [listed.slice(6), listed.slice(0, 2), [], listed.slice(2, 6)];
    const { listed: sorted, scan } = await readIndexesWhileListing(io, pagesOf(pages), {
      slots: fixedLink(3),
    });
    expect(sorted.map((o) => o.seq)).toEqual(listed.map((o) => o.seq));
    expect(scan.objects.map((o) => o.seq)).toEqual(listed.map((o) => o.seq));
    expect(scan.objects[4]).toMatchObject({
      key: keyAt(4n),
      epoch: 1n,
      link: { seq: 3n, epoch: 1n },
    });
    expect(scan.missing).toEqual([]);
  });

  it('reports objects gone when read as missing, and fails on the lowest corrupt object', async () => {
    const { io, listed } = await storeOf(6);
    await io.delete(keyAt(1n));
    const gone = await readIndexesWhileListing(io, pagesOf([listed]), { slots: fixedLink(4) });
    expect(gone.scan.missing.map((o) => o.seq)).toEqual([1n]);

    const broken = await storeOf(6);
    for (const seq of [4n, 2n]) {
      const bytes = (await broken.io.get(keyAt(seq))).bytes;
      bytes[bytes.length - 1]! ^= 0xff;
      await broken.io.delete(keyAt(seq));
      await broken.io.putIfAbsent(keyAt(seq), bytes);
    }
    const pages = [broken.listed.slice(3), broken.listed.slice(0, 3)];
    await expect(
      readIndexesWhileListing(broken.io, pagesOf(pages), { slots: fixedLink(4) }),
    ).rejects.toMatchObject({
      code: 'CorruptObject',
      key: keyAt(2n),
      check: 'trailer-crc',
    });
  });

  it('a listing failure is thrown once the reads in flight are done', async () => {
    const { io, listed } = await storeOf(4);
    const failure = new Error('listing broke');
    await expect(
      readIndexesWhileListing(io, pagesOf([listed.slice(0, 2)], failure), { slots: fixedLink(2) }),
    ).rejects.toBe(failure);
  });
});
