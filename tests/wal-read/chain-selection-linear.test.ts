/**
 * Chain selection is linear in the objects, in both formats (issue #40): 20,000 objects whose
 * oldest link names a missing object (as after a partial delete) are judged reading each
 * object's link a bounded number of times - counted, not timed. The old GreptimeDB walk
 * re-read the whole chain for every candidate (n^2/2 link reads); the count's budget throws
 * as soon as a judgement goes past it, so a quadratic one fails at once. The same prefixes
 * judged right: no tip while the broken link matters, the newest object as tip once its
 * reclaim boundary lies above it.
 */
import { describe, expect, it } from 'vitest';
import { selectGtChain } from '../../src/main/engine/greptimedb/chain';
import type { GtScannedObject } from '../../src/main/engine/greptimedb/scan';
import type { ObjectLink } from '../../src/main/engine/wal/format';
import { objectKey } from '../../src/main/engine/wal/keys';
import { selectChain, type ScannedObject } from '../../src/main/engine/wal/recovery';

const OBJECTS = 20_000;
/** Link reads allowed per object: a linear judgement needs a handful (the Cairn judgement reads each link about ten times). */
const READS_PER_OBJECT = 16;
const PREFIX = 'p';

class LinkReads {
  count = 0;
  constructor(private readonly budget: number) {}

  read(link: ObjectLink | null): ObjectLink | null {
    this.count += 1;
    if (this.count > this.budget)
      throw new Error(`chain selection read more than ${this.budget} links: not linear`);
    return link;
  }
}

/** Objects 1..n, each linking to the one before; object 1 links to 0, which is missing. */
function objectsOf<T extends { link: ObjectLink | null }>(
  reads: LinkReads,
  make: (seq: bigint) => Omit<T, 'link'>,
): T[] {
  const objects: T[] = [];
  for (let at = 1; at <= OBJECTS; at++) {
    const seq = BigInt(at);
    const link: ObjectLink = { seq: seq - 1n, epoch: 1n };
    const object = make(seq) as T;
    Object.defineProperty(object, 'link', { get: () => reads.read(link), enumerable: true });
    objects.push(object);
  }
  return objects;
}

function gtObjects(reads: LinkReads, reclaimBoundaryOfNewest = 0n): GtScannedObject[] {
  return objectsOf<GtScannedObject>(reads, (seq) => ({
    seq,
    epoch: 1n,
    reclaimBoundary: seq === BigInt(OBJECTS) ? reclaimBoundaryOfNewest : 0n,
    key: objectKey(PREFIX, seq),
    size: 90,
    layout: 'chain-header',
    writerInstance: null,
    lastModifiedMs: null,
    segments: [],
  }));
}

function cairnObjects(reads: LinkReads): ScannedObject[] {
  return objectsOf<ScannedObject>(reads, (seq) => ({
    seq,
    epoch: 1n,
    key: objectKey(PREFIX, seq),
    size: 100,
    segments: [],
  }));
}

describe('chain selection over 20,000 objects with a missing oldest link', () => {
  it('GreptimeDB: no complete object, judged in linear link reads', () => {
    const reads = new LinkReads(OBJECTS * READS_PER_OBJECT);
    const selection = selectGtChain(gtObjects(reads));
    expect(selection.tip).toBeNull();
    expect(selection.chain).toEqual([]);
    expect(selection.orphans).toHaveLength(OBJECTS);
    expect(reads.count).toBeLessThanOrEqual(OBJECTS * READS_PER_OBJECT);
  });

  it('GreptimeDB: the newest object is complete above its reclaim boundary, the rest below or off', () => {
    const reads = new LinkReads(OBJECTS * READS_PER_OBJECT);
    const boundary = BigInt(OBJECTS - 100);
    const selection = selectGtChain(gtObjects(reads, boundary));
    expect(selection.tip?.seq).toBe(BigInt(OBJECTS));
    expect(selection.chain.map((o) => o.seq)).toEqual(
      Array.from({ length: 101 }, (_, at) => boundary + BigInt(at)),
    );
    expect(selection.reclaimBoundary).toBe(boundary);
    expect(selection.belowBoundary).toHaveLength(OBJECTS - 101);
    expect(selection.orphans).toEqual([]);
  });

  it('Cairn: no complete object, one broken link, judged in linear link reads', () => {
    const reads = new LinkReads(OBJECTS * READS_PER_OBJECT);
    const selection = selectChain(cairnObjects(reads), { boundary: 0n, segments: [] });
    expect(selection.tip).toBeNull();
    expect(selection.brokenLinks).toBe(1);
    expect(selection.orphans).toHaveLength(OBJECTS);
    expect(reads.count).toBeLessThanOrEqual(OBJECTS * READS_PER_OBJECT);
  });

  it('Cairn: with the boundary above the missing object, the whole chain is complete', () => {
    const reads = new LinkReads(OBJECTS * READS_PER_OBJECT);
    const selection = selectChain(cairnObjects(reads), { boundary: 1n, segments: [] });
    expect(selection.tip?.seq).toBe(BigInt(OBJECTS));
    expect(selection.chain).toHaveLength(OBJECTS);
    expect(reads.count).toBeLessThanOrEqual(OBJECTS * READS_PER_OBJECT);
  });
});
