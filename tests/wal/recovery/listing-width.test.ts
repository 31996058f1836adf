/**
 * A listing in key ranges on a connection's link lists at most half the link's width of ranges
 * at once (between 2 and 16), read again as each range ends: the reads of the newest objects
 * share the link with it, and a progressive open shows those first. The keys are still every
 * key, each once.
 */
import { describe, expect, it } from 'vitest';
import { LinkedObjectIo, type IoSlots } from '../../../src/main/engine/objectio/link';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { ListOptions, ListPage } from '../../../src/main/engine/objectio/object-io';
import { objectKey } from '../../../src/main/engine/wal/keys';
import { listObjectsInRanges } from '../../../src/main/engine/wal/recovery/parallel-listing';

const PREFIX = 'wal/nodes/0/generations/0';
const KEYS = 120;

/** A store whose range pages (more than one key asked) are counted while in flight. */
class CountingStore extends MemoryObjectIo {
  inFlight = 0;
  most = 0;

  override async listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    const probe = options?.pageSize === 1;
    if (!probe) this.most = Math.max(this.most, ++this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return await super.listPage(prefix, options);
    } finally {
      if (!probe) this.inFlight -= 1;
    }
  }
}

/** Slots granted at once, of a width the test sets. */
function slotsOfWidth(width: number): IoSlots & { width: number } {
  return { width, acquire: async () => ({ release: () => undefined }) };
}

async function storeWithKeys(): Promise<CountingStore> {
  const store = new CountingStore();
  for (let seq = 0n; seq < BigInt(KEYS); seq++)
    await store.putIfAbsent(objectKey(PREFIX, seq), new Uint8Array([1]));
  return store;
}

async function listed(io: LinkedObjectIo, onPage: () => void = () => undefined) {
  const keys: string[] = [];
  for await (const page of listObjectsInRanges(io, PREFIX, 0n, { pageSize: 2 })) {
    keys.push(...page.map((object) => object.key));
    onPage();
  }
  return keys.sort();
}

const every = Array.from({ length: KEYS }, (_, at) => objectKey(PREFIX, BigInt(at))).sort();

describe('range listing on a link', () => {
  it.each([
    [6, 3],
    [3, 2],
    [40, 16],
  ])('a link %i wide lists %i ranges at once, every key once', async (width, ranges) => {
    const store = await storeWithKeys();
    const keys = await listed(new LinkedObjectIo(store, slotsOfWidth(width)));
    expect(keys).toEqual(every);
    expect(store.most).toBe(ranges);
  });

  it('follows the link as it widens', async () => {
    const store = await storeWithKeys();
    const slots = slotsOfWidth(4);
    let pages = 0;
    let mostWhileNarrow = 0;
    const keys = await listed(new LinkedObjectIo(store, slots), () => {
      pages += 1;
      if (pages < 5) mostWhileNarrow = store.most;
      if (pages === 5) slots.width = 12;
    });
    expect(keys).toEqual(every);
    expect(mostWhileNarrow).toBe(2);
    expect(store.most).toBe(6);
  });
});
