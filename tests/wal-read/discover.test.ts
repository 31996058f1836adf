/**
 * The prefix walk's bounds and order: every prefix of both layouts found once; depth, folder
 * and prefix bounds each stop the walk and say `truncated`; a prefix is handed out before the
 * walk has listed every folder (deepest first); a listing failure is thrown, typed.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ListOptions } from '../../src/main/engine/objectio/object-io';
import { BackendError } from '../../src/main/engine/objectio/errors';
import { DEFAULT_DISCOVERY_LIMITS, walkPrefixes } from '../../src/main/engine/wal-read/discover';

const bytes = new Uint8Array([1]);

async function bucket(nodes: number, greptime: number): Promise<MemoryObjectIo> {
  const io = new MemoryObjectIo();
  for (let node = 0; node < nodes; node++)
    await io.putIfAbsent(`wal/nodes/${node}/generations/0/objects/00000000000000000000.wal`, bytes);
  for (let node = 0; node < greptime; node++)
    await io.putIfAbsent(`dn/${node}/epochs/1/objects/00000000000000000000.wal`, bytes);
  return io;
}

class CountingListings extends MemoryObjectIo {
  listings = 0;
  failOn: string | null = null;
  override async listPage(prefix: string, options?: ListOptions) {
    this.listings += 1;
    if (prefix === this.failOn) throw new BackendError(prefix, 'memory', 'listing refused');
    return super.listPage(prefix, options);
  }
}

describe('walkPrefixes', () => {
  it('finds every prefix of both layouts once, without listing Cairn node folders', async () => {
    const io = await bucket(30, 5);
    const found: string[] = [];
    const walk = await walkPrefixes(io, '', (prefix) => found.push(prefix));
    expect(walk.truncated).toBe(false);
    expect(walk.prefixes).toHaveLength(35);
    expect([...found].sort()).toEqual(walk.prefixes);
    expect(walk.prefixes).toContain('wal/nodes/7/generations/0');
    expect(walk.prefixes).toContain('dn/4/epochs/1');
  });

  it('hands out the first prefix before it has listed every folder', async () => {
    const inner = await bucket(200, 0);
    const io = new CountingListings();
    for await (const page of inner.list(''))
      for (const object of page.objects) await io.putIfAbsent(object.key, bytes);
    let listingsAtFirst = -1;
    await walkPrefixes(io, '', () => {
      if (listingsAtFirst < 0) listingsAtFirst = io.listings;
    });
    expect(listingsAtFirst).toBeGreaterThan(0);
    expect(listingsAtFirst).toBeLessThan(20);
    // root, wal/, wal/nodes/ and one generations/ per node: node folders are never listed.
    expect(io.listings).toBe(3 + 200);
  });

  it('stops at each bound and says so', async () => {
    const io = await bucket(40, 10);
    const byPrefixes = await walkPrefixes(io, '', undefined, {
      ...DEFAULT_DISCOVERY_LIMITS,
      maxPrefixes: 12,
    });
    expect(byPrefixes).toMatchObject({ truncated: true });
    expect(byPrefixes.prefixes).toHaveLength(12);
    const byFolders = await walkPrefixes(io, '', undefined, {
      ...DEFAULT_DISCOVERY_LIMITS,
      maxFolders: 5,
    });
    expect(byFolders.truncated).toBe(true);
    expect(byFolders.prefixes.length).toBeLessThan(50);
    const byDepth = await walkPrefixes(io, '', undefined, {
      ...DEFAULT_DISCOVERY_LIMITS,
      maxDepth: 1,
    });
    expect(byDepth.truncated).toBe(true);
    expect(byDepth.prefixes).toEqual([]);
  });

  it('throws a listing failure, typed', async () => {
    const io = new CountingListings();
    await io.putIfAbsent('dn/1/epochs/1/objects/00000000000000000000.wal', bytes);
    io.failOn = 'dn/1/';
    await expect(walkPrefixes(io, '')).rejects.toMatchObject({ code: 'Backend' });
  });
});
