/** The pure half of garbage collection: the boundary rule, the delete list, and the sealed directory across restarts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectionBoundary,
  isWhollyObsolete,
  planDeletes,
  type CollectableObject,
} from '../../../src/main/engine/wal/gc';
import {
  addSealRecord,
  normalizeSealedDirectory,
  sealedDirectoryBytes,
} from '../../../src/main/engine/wal/sealed-directory';
import type { SealRecord } from '../../../src/main/engine/wal/session';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import { PREFIX, openStore } from '../support/writer-harness';
import { storedSeqs } from './gc-support';

const A = (1n << 32n) | 1n;
const B = (1n << 32n) | 2n;
const id = (seq: bigint, position: bigint): bigint => (seq << 20n) | position;
const object = (seq: bigint, ...segments: Array<[bigint, bigint]>): CollectableObject => ({
  seq,
  segments: segments.map(([regionId, lastPosition]) => ({
    regionId,
    lastId: id(seq, lastPosition),
  })),
});

describe('the collection boundary', () => {
  const chain = [
    object(64n),
    object(65n, [A, 3n]),
    object(66n, [A, 2n], [B, 5n]),
    object(67n, [B, 1n]),
  ];

  it("is the first chain object not wholly at or below its regions' watermarks", () => {
    expect(collectionBoundary(chain, new Map(), 0n)).toBe(65n);
    expect(collectionBoundary(chain, new Map([[A, id(65n, 3n)]]), 0n)).toBe(66n);
    // B is still needed in 66 though A is not.
    expect(collectionBoundary(chain, new Map([[A, id(66n, 9n)]]), 0n)).toBe(66n);
    expect(
      collectionBoundary(
        chain,
        new Map([
          [A, id(66n, 2n)],
          [B, id(66n, 5n)],
        ]),
        0n,
      ),
    ).toBe(67n);
  });

  it('never passes the tip, never falls, and an empty chain keeps it', () => {
    const all = new Map([
      [A, id(99n, 1n)],
      [B, id(99n, 1n)],
    ]);
    expect(collectionBoundary(chain, all, 0n)).toBe(67n);
    expect(collectionBoundary(chain, new Map(), 66n)).toBe(66n);
    expect(collectionBoundary([], all, 12n)).toBe(12n);
  });

  it('a region without a watermark keeps its objects; a start object is wholly obsolete', () => {
    expect(isWhollyObsolete(object(70n), new Map())).toBe(true);
    expect(isWhollyObsolete(object(70n, [A, 1n]), new Map([[B, id(80n, 1n)]]))).toBe(false);
  });

  it('property: every chain object below the boundary is wholly obsolete, the boundary is a chain sequence at most the tip', () => {
    const chainArb = fc
      .array(
        fc.array(fc.tuple(fc.constantFrom(A, B), fc.integer({ min: 1, max: 4 })), { maxLength: 2 }),
        { minLength: 1, maxLength: 12 },
      )
      .map((objects) =>
        objects.map((segments, at) => {
          const unique = new Map(
            segments.map(([region, position]) => [region, BigInt(position)] as const),
          );
          return object(BigInt(100 + at * 2), ...[...unique].sort(([a], [b]) => (a < b ? -1 : 1)));
        }),
      );
    fc.assert(
      fc.property(
        chainArb,
        fc.integer({ min: 90, max: 130 }),
        fc.integer({ min: 90, max: 130 }),
        (objects, wa, wb) => {
          const watermarks = new Map([
            [A, id(BigInt(wa), 2n)],
            [B, id(BigInt(wb), 2n)],
          ]);
          const boundary = collectionBoundary(objects, watermarks, 0n);
          const tip = objects[objects.length - 1]!.seq;
          expect(boundary <= tip).toBe(true);
          expect(objects.some((o) => o.seq === boundary)).toBe(true);
          for (const o of objects)
            if (o.seq < boundary) expect(isWhollyObsolete(o, watermarks)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the delete list', () => {
  it('is every listed object below the boundary, chain or orphan, ascending, with its bytes', () => {
    const listed = [
      { key: 'k/70', seq: 70n, size: 7 },
      { key: 'k/3', seq: 3n, size: 1 },
      { key: 'k/65', seq: 65n, size: 5 },
      { key: 'k/66', seq: 66n, size: 6 },
    ];
    const plan = planDeletes(listed, 66n);
    expect(plan.deletes.map((o) => o.seq)).toEqual([3n, 65n]);
    expect(plan.bytes).toBe(6);
    expect(plan.boundary).toBe(66n);
  });
});

describe('the sealed directory across restarts', () => {
  /** One restart: the epoch's seal is added, then a GC pass moves the boundary to its start object. */
  function restart(
    directory: SealRecord[],
    epoch: bigint,
    budget: number,
    collect: boolean,
  ): { directory: SealRecord[]; boundary: bigint } {
    const startSeq = epoch * 64n;
    const boundary = collect ? startSeq : 0n;
    const sealed = addSealRecord(
      directory,
      { firstEpoch: epoch, lastEpoch: epoch, lastSeq: startSeq, reason: 'stopped' },
      { boundary: 0n, budget },
    );
    return { directory: normalizeSealedDirectory(sealed, boundary), boundary };
  }

  it('a thousand restarts with collection stay within a small budget; without it they fill it', () => {
    const budget = 2048;
    let directory: SealRecord[] = [];
    for (let epoch = 1n; epoch <= 1000n; epoch++) {
      directory = restart(directory, epoch, budget, true).directory;
      expect(sealedDirectoryBytes(directory)).toBeLessThanOrEqual(budget);
    }
    expect(directory.length).toBeLessThanOrEqual(2);
    let uncollected: SealRecord[] = [];
    expect(() => {
      for (let epoch = 1n; epoch <= 1000n; epoch++)
        uncollected = restart(uncollected, epoch, budget, false).directory;
    }).toThrow(expect.objectContaining({ code: 'SegmentDirectoryFull' }) as Error);
  });
});

describe('a thousand real restarts on a small directory budget', () => {
  it('with a pass after each open the directory and the prefix stay small', async () => {
    const io = new MemoryObjectIo();
    const budget = 1024;
    let epoch = 0n;
    for (let restart = 0; restart < 1000; restart++) {
      const store = await openStore(io, {}, { maxDirectoryBytes: budget, gcAfterObsolete: false });
      epoch = store.epoch;
      await store.gc();
      await store.stop();
    }
    expect(epoch).toBe(1000n);
    expect((await storedSeqs(io)).length).toBeLessThanOrEqual(2);
    const control = (await readControl(registerStoreOf(io, PREFIX)))!.control;
    expect(control.segments.length).toBeLessThanOrEqual(2);
    expect(sealedDirectoryBytes(control.segments)).toBeLessThanOrEqual(budget);
  }, 60_000);
});
