/**
 * The writer hands the encoder each region as a run of positions (payloads from a first id),
 * not as records: the same entries must give the same bytes either way, and a run that leaves
 * its sequence's positions is refused before anything is written.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  encodeObject,
  type ObjectBatch,
  type PositionRun,
  type SegmentRecord,
} from '../../src/main/engine/wal/format';
import { MAX_POSITION, MAX_SEQ } from '../../src/main/engine/wal/ids';
import { encodeError } from './wal-objects';

const identity = { epoch: 3n, link: null } as const;

function recordsOfRun(run: PositionRun): SegmentRecord[] {
  return run.payloads.map((bytes, i) => ({ id: run.firstId + BigInt(i), bytes }));
}

const runsArbitrary = fc
  .record({
    seq: fc.oneof(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: MAX_SEQ })),
    regions: fc.uniqueArray(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), {
      minLength: 1,
      maxLength: 4,
      comparator: (a, b) => a === b,
    }),
  })
  .chain(({ seq, regions }) =>
    fc
      .tuple(
        ...regions.map((region) =>
          fc
            .record({
              // Runs near the top of the position range, where the low half is largest.
              first: fc.oneof(
                fc.bigInt({ min: 1n, max: 40n }),
                fc.bigInt({ min: MAX_POSITION - 40n, max: MAX_POSITION }),
              ),
              payloads: fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 40 }),
            })
            .filter(({ first, payloads }) => first + BigInt(payloads.length - 1) <= MAX_POSITION)
            .map(
              ({ first, payloads }) =>
                [region, { firstId: (seq << 20n) | first, payloads }] as const,
            ),
        ),
      )
      .map((runs) => ({ seq, runs })),
  );

describe('object format: position runs', () => {
  it('encode to the same bytes, index and trailer as the same entries given as records', () => {
    fc.assert(
      fc.property(runsArbitrary, ({ seq, runs }) => {
        const asRuns = encodeObject({ seq, ...identity, segments: new Map(runs) });
        const asRecords = encodeObject({
          seq,
          ...identity,
          segments: new Map(runs.map(([region, run]) => [region, recordsOfRun(run)])),
        });
        expect(asRuns.bytes).toEqual(asRecords.bytes);
        expect(asRuns.segments).toEqual(asRecords.segments);
        expect(asRuns.trailer).toEqual(asRecords.trailer);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a run that leaves its sequence or starts at position 0', () => {
    const payloads = [new Uint8Array([1]), new Uint8Array([2])];
    const seq = 7n;
    const batchOf = (firstId: bigint): ObjectBatch => ({
      seq,
      ...identity,
      segments: new Map([[1n, { firstId, payloads }]]),
    });
    expect(encodeError(batchOf((seq << 20n) | MAX_POSITION))).toBe('UnencodableBatch');
    expect(encodeError(batchOf(seq << 20n))).toBe('UnencodableBatch');
    expect(encodeError(batchOf(((seq + 1n) << 20n) | 1n))).toBe('UnencodableBatch');
    expect(encodeError(batchOf((seq << 20n) | (MAX_POSITION - 1n)))).toBe('none');
  });

  it('gives a region with an empty run no segment', () => {
    const encoded = encodeObject({
      seq: 2n,
      ...identity,
      segments: new Map<bigint, PositionRun>([
        [1n, { firstId: (2n << 20n) | 1n, payloads: [] }],
        [2n, { firstId: (2n << 20n) | 1n, payloads: [new Uint8Array([9])] }],
      ]),
    });
    expect(encoded.segments.map((s) => s.regionId)).toEqual([2n]);
  });
});
