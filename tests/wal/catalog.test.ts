import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ObjectCatalog, type IndexableObject } from '../../src/main/engine/wal/catalog';
import { ConflictingObjectError } from '../../src/main/engine/wal/errors';
import type { SegmentIndex } from '../../src/main/engine/wal/format';
import { objectKey } from '../../src/main/engine/wal/keys';

const PREFIX = 'cat/nodes/1/generations/0';
const id = (seq: bigint, position: bigint): bigint => (seq << 20n) | position;

function segment(
  regionId: bigint,
  seq: bigint,
  first: bigint,
  last: bigint,
  offset = 52,
  length = 100,
): SegmentIndex {
  return {
    regionId,
    firstId: id(seq, first),
    lastId: id(seq, last),
    entries: Number(last - first + 1n),
    offset,
    length,
    segmentCrc: 0xdeadbeef,
  };
}

function object(
  seq: bigint,
  segments: SegmentIndex[],
  epoch = 1n,
  link: IndexableObject['link'] = null,
): IndexableObject {
  return { seq, epoch, link, size: 200 + segments.reduce((sum, s) => sum + s.length, 0), segments };
}

function rejection(catalog: ObjectCatalog, indexed: IndexableObject): string {
  try {
    catalog.index(indexed);
  } catch (error) {
    expect(error).toBeInstanceOf(ConflictingObjectError);
    expect((error as ConflictingObjectError).key).toBe(objectKey(PREFIX, indexed.seq));
    return (error as ConflictingObjectError).reason;
  }
  return 'accepted';
}

describe('the catalog indexes objects by sequence', () => {
  it('keeps what it indexed: objects, tip, latest ids', () => {
    const catalog = new ObjectCatalog(PREFIX);
    expect(catalog.tip()).toBeNull();
    const first = object(0n, []);
    const second = object(3n, [segment(1n, 3n, 1n, 4n), segment(2n, 3n, 1n, 1n, 152, 20)], 2n, {
      seq: 0n,
      epoch: 1n,
    });
    catalog.index(first);
    catalog.index(second);
    expect(catalog.tip()).toEqual({ seq: 3n, epoch: 2n });
    expect(catalog.object(3n)).toEqual({ ...second, key: objectKey(PREFIX, 3n) });
    expect(catalog.object(0n)).toEqual({ ...first, key: objectKey(PREFIX, 0n) });
    expect(catalog.object(1n)).toBeUndefined();
    expect([...catalog.objects()].map((o) => o.seq)).toEqual([0n, 3n]);
    expect(catalog.objectCount).toBe(2);
    expect(catalog.totalBytes).toBe(first.size + second.size);
    expect(catalog.latestEntryId(1n)).toBe(id(3n, 4n));
    expect(catalog.latestEntryId(2n)).toBe(id(3n, 1n));
    expect(catalog.latestEntryId(9n)).toBe(0n);
  });

  it.each<[string, IndexableObject, RegExp]>([
    ['a sequence indexed twice', object(5n, []), /already indexed/],
    ['a sequence below the tip', object(4n, [segment(1n, 4n, 1n, 1n)]), /below the indexed tip 5/],
    [
      'two segments of one region',
      object(6n, [segment(1n, 6n, 1n, 1n), segment(1n, 6n, 2n, 2n)]),
      /holds region 0:1 twice/,
    ],
    [
      'segments out of region order',
      object(6n, [segment(2n, 6n, 1n, 1n), segment(1n, 6n, 1n, 1n)]),
      /not sorted by region/,
    ],
    [
      'ids of another sequence',
      object(6n, [segment(1n, 7n, 1n, 1n)]),
      /not positions of the object's sequence/,
    ],
    ['a reversed id range', object(6n, [segment(1n, 6n, 3n, 2n)]), /not positions/],
    ['position 0', object(6n, [segment(1n, 6n, 0n, 2n)]), /not positions/],
    ['a sequence of 2^44', object(2n ** 44n, []), /outside/],
  ])('rejects %s with ConflictingObject and changes nothing', (_name, bad, reason) => {
    const catalog = new ObjectCatalog(PREFIX);
    catalog.index(object(5n, [segment(1n, 5n, 1n, 3n)]));
    const before = {
      objects: [...catalog.objects()],
      regions: catalog.regions(),
      tip: catalog.tip(),
    };
    expect(rejection(catalog, bad)).toMatch(reason);
    expect({
      objects: [...catalog.objects()],
      regions: catalog.regions(),
      tip: catalog.tip(),
    }).toEqual(before);
  });

  it('keeps each region strictly increasing along the sequence', () => {
    const catalog = new ObjectCatalog(PREFIX);
    catalog.index(object(1n, [segment(1n, 1n, 1n, 5n)]));
    catalog.index(object(2n, [segment(1n, 2n, 1n, 2n)]));
    const ranges = catalog.objectsForRegion(1n, 0n).map((s) => [s.firstId, s.lastId]);
    expect(ranges).toEqual([
      [id(1n, 1n), id(1n, 5n)],
      [id(2n, 1n), id(2n, 2n)],
    ]);
  });
});

describe('per-region state', () => {
  it('raises the watermark, never lowers it; the latest id is never below it', () => {
    const catalog = new ObjectCatalog(PREFIX);
    catalog.index(object(1n, [segment(7n, 1n, 1n, 3n)]));
    expect(catalog.watermark(7n)).toBe(0n);
    expect(catalog.raiseWatermark(7n, id(1n, 2n))).toBe(id(1n, 2n));
    expect(catalog.raiseWatermark(7n, id(1n, 1n))).toBe(id(1n, 2n));
    expect(catalog.latestEntryId(7n)).toBe(id(1n, 3n));
    expect(catalog.raiseWatermark(8n, 99n)).toBe(99n);
    // Known by its watermark only (collected whole): its latest id is the watermark.
    expect(catalog.latestEntryId(8n)).toBe(99n);
    expect(catalog.indexedEntryId(8n)).toBe(0n);
    expect(catalog.region(8n)).toMatchObject({
      entries: 0,
      firstId: 0n,
      latestId: 99n,
      watermark: 99n,
      objects: 0,
    });
  });

  it('records holes once per segment', () => {
    const catalog = new ObjectCatalog(PREFIX);
    catalog.index(object(1n, [segment(7n, 1n, 1n, 3n)]));
    const hole = {
      regionId: 7n,
      key: objectKey(PREFIX, 1n),
      seq: 1n,
      firstId: id(1n, 1n),
      lastId: id(1n, 3n),
    };
    expect(catalog.recordHole(hole)).toBe(true);
    expect(catalog.recordHole(hole)).toBe(false);
    expect(catalog.holes(7n)).toEqual([hole]);
    expect(catalog.region(7n)?.holes).toBe(1);
    expect(catalog.holes(8n)).toEqual([]);
  });

  it('summarises regions: entries, first and latest id, objects spanned, bytes', () => {
    const catalog = new ObjectCatalog(PREFIX);
    catalog.index(object(1n, [segment(1n, 1n, 1n, 3n, 52, 60), segment(2n, 1n, 1n, 1n, 112, 20)]));
    catalog.index(object(4n, [segment(1n, 4n, 1n, 2n, 52, 40)]));
    expect(catalog.regions()).toEqual([
      {
        regionId: 1n,
        entries: 5,
        firstId: id(1n, 1n),
        latestId: id(4n, 2n),
        watermark: 0n,
        objects: 2,
        bytes: 100,
        holes: 0,
      },
      {
        regionId: 2n,
        entries: 1,
        firstId: id(1n, 1n),
        latestId: id(1n, 1n),
        watermark: 0n,
        objects: 1,
        bytes: 20,
        holes: 0,
      },
    ]);
  });
});

/** A random chain: ascending sequences with gaps, each object holding some of 4 regions. */
const chainArbitrary = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 1, max: 5 }),
      regions: fc.subarray([1n, 2n, 3n, 4n]),
      first: fc.integer({ min: 1, max: 10 }),
      count: fc.integer({ min: 1, max: 10 }),
    }),
    { maxLength: 40 },
  )
  .map((steps) => {
    let seq = 0n;
    return steps.map((step) => {
      seq += BigInt(step.gap);
      const segments = step.regions.map((region, i) =>
        segment(
          region,
          seq,
          BigInt(step.first),
          BigInt(step.first + step.count - 1),
          52 + i * 50,
          50,
        ),
      );
      return object(seq, segments);
    });
  });

function modelLocations(objects: IndexableObject[], region: bigint, fromId: bigint) {
  return objects.flatMap((o) =>
    o.segments
      .filter((s) => s.regionId === region && s.lastId >= fromId)
      .map((s) => ({ ...s, key: objectKey(PREFIX, o.seq), seq: o.seq })),
  );
}

describe('queries agree with a naive model', () => {
  it('objectsForRegion finds every segment with ids at or above fromId, in order, in pages', () => {
    fc.assert(
      fc.property(
        chainArbitrary,
        fc.bigInt({ min: 1n, max: 4n }),
        fc.bigInt({ min: 0n, max: 250n << 20n }),
        fc.integer({ min: 1, max: 4 }),
        (objects, region, fromId, page) => {
          const catalog = new ObjectCatalog(PREFIX);
          for (const o of objects) catalog.index(o);
          const expected = modelLocations(objects, region, fromId);
          expect(catalog.objectsForRegion(region, fromId)).toEqual(expected);
          const paged = [];
          let from = fromId;
          for (;;) {
            const found = catalog.objectsForRegion(region, from, page);
            if (found.length === 0) break;
            paged.push(...found);
            from = found[found.length - 1]!.lastId + 1n;
          }
          expect(paged).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('dropBelow forgets collected objects and keeps latest ids and the rest intact', () => {
    fc.assert(
      fc.property(chainArbitrary, fc.bigInt({ min: 0n, max: 220n }), (objects, boundary) => {
        const catalog = new ObjectCatalog(PREFIX);
        for (const o of objects) catalog.index(o);
        const latest = [1n, 2n, 3n, 4n].map((r) => catalog.latestEntryId(r));
        const kept = objects.filter((o) => o.seq >= boundary);
        const dropped = objects.filter((o) => o.seq < boundary);
        expect(catalog.dropBelow(boundary)).toEqual({
          objects: dropped.length,
          bytes: dropped.reduce((sum, o) => sum + o.size, 0),
        });
        expect([...catalog.objects()]).toEqual(
          kept.map((o) => ({ ...o, key: objectKey(PREFIX, o.seq) })),
        );
        expect([1n, 2n, 3n, 4n].map((r) => catalog.latestEntryId(r))).toEqual(latest);
        for (const region of [1n, 2n, 3n, 4n]) {
          expect(catalog.objectsForRegion(region, 0n)).toEqual(modelLocations(kept, region, 0n));
          expect(catalog.region(region)?.entries ?? 0).toBe(
            modelLocations(kept, region, 0n).reduce((sum, s) => sum + s.entries, 0),
          );
        }
        const next = (objects[objects.length - 1]?.seq ?? 0n) + 1n;
        catalog.index(object(next, [segment(1n, next, 1n, 1n)]));
        expect(catalog.object(next)?.segments).toHaveLength(1);
      }),
      { numRuns: 150 },
    );
  });
});

describe('memory', () => {
  it('prints the rough cost per object and per segment (not asserted)', () => {
    const objects = 100_000;
    const regionsPerObject = 4;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage();
    const catalog = new ObjectCatalog(PREFIX);
    for (let i = 1; i <= objects; i++) {
      const seq = BigInt(i);
      const segments = Array.from({ length: regionsPerObject }, (_, r) =>
        segment(BigInt(r + (i % 50) * 4), seq, 1n, 8n, 52 + r * 100, 100),
      );
      catalog.index(
        object(
          seq,
          segments.sort((a, b) => (a.regionId < b.regionId ? -1 : 1)),
        ),
      );
    }
    gc?.();
    const after = process.memoryUsage();
    const used = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    const perObjectBudget = 400 + regionsPerObject * 100;
    console.log(
      `catalog: ${objects} objects x ${regionsPerObject} segments: ${(used / 1024 / 1024).toFixed(1)} MiB, ` +
        `${(used / objects).toFixed(0)} B per object with its segments (budget ${perObjectBudget} B)${gc === undefined ? ', no gc exposed' : ''}`,
    );
    expect(catalog.objectCount).toBe(objects);
  });
});
