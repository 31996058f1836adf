import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  HEADER_SIZE,
  MIN_OBJECT_SIZE,
  TAIL_WINDOW_BYTES,
  decodeFooter,
  decodeHeader,
  decodeIndexFromTail,
  decodeObject,
  decodeSegment,
  decodeTrailer,
  encodeObject,
  encodeStartObject,
  footerRange,
  segmentRange,
} from '../../src/main/engine/wal/format';
import {
  batchArbitrary,
  encodeError,
  expectedSegments,
  keyOf,
  reordered,
  text,
} from './wal-objects';

function sliceRange(
  bytes: Uint8Array,
  range: { start: number; end?: number } | { suffix: number },
): Uint8Array {
  if ('suffix' in range) return bytes.subarray(Math.max(0, bytes.length - range.suffix));
  return bytes.subarray(range.start, (range.end ?? bytes.length - 1) + 1);
}

describe('object format round trip', () => {
  it('decodes exactly the entries it encoded, with the identity of the batch', () => {
    fc.assert(
      fc.property(batchArbitrary, (batch) => {
        const encoded = encodeObject(batch);
        const decoded = decodeObject(encoded.bytes, keyOf(batch.seq));
        for (const part of [decoded.header, decoded.trailer]) {
          expect({ seq: part.seq, epoch: part.epoch, link: part.link }).toEqual({
            seq: batch.seq,
            epoch: batch.epoch,
            link: batch.link,
          });
        }
        expect(decoded.trailer).toEqual(encoded.trailer);
        expect(decoded.segments.map((s) => s.index)).toEqual(encoded.segments);
        expect(
          decoded.segments.map((s) => ({ regionId: s.index.regionId, records: s.records })),
        ).toEqual(expectedSegments(batch));
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic: the same batch in any order encodes to the same bytes', () => {
    fc.assert(
      fc.property(batchArbitrary, (batch) => {
        expect(encodeObject(reordered(batch)).bytes).toEqual(encodeObject(batch).bytes);
        expect(encodeObject(batch).bytes).toEqual(encodeObject(batch).bytes);
      }),
      { numRuns: 100 },
    );
  });

  it('serves each reader its part: tail for recovery, header and one segment for a read', () => {
    fc.assert(
      fc.property(batchArbitrary, (batch) => {
        const { bytes, trailer, segments } = encodeObject(batch);
        const key = keyOf(batch.seq);
        const tail = sliceRange(bytes, { suffix: TAIL_WINDOW_BYTES });
        expect(decodeIndexFromTail(tail, bytes.length, key)).toEqual({ trailer, segments });
        expect(decodeFooter(sliceRange(bytes, footerRange(trailer)), trailer, key)).toEqual(
          segments,
        );
        expect(decodeHeader(bytes.subarray(0, HEADER_SIZE), key).seq).toBe(batch.seq);
        for (const [i, segment] of segments.entries()) {
          expect(decodeSegment(sliceRange(bytes, segmentRange(segment)), segment, key)).toEqual(
            expectedSegments(batch)[i]?.records,
          );
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a start object has no segments and takes the minimum size', () => {
    const start = encodeStartObject({ seq: 64n, epoch: 2n, link: { seq: 10n, epoch: 1n } });
    expect(start.bytes.length).toBe(MIN_OBJECT_SIZE);
    expect(start.segments).toEqual([]);
    const decoded = decodeObject(start.bytes, keyOf(64n));
    expect(decoded.segments).toEqual([]);
    expect(decoded.trailer).toMatchObject({
      seq: 64n,
      epoch: 2n,
      link: { seq: 10n, epoch: 1n },
      footerOffset: HEADER_SIZE,
      footerLength: 4,
    });
    expect(encodeStartObject({ seq: 0n, epoch: 1n, link: null }).bytes.length).toBe(
      MIN_OBJECT_SIZE,
    );
  });

  it('regions without records get no segment', () => {
    const withEmpty = encodeObject({
      seq: 3n,
      epoch: 1n,
      link: null,
      segments: new Map([
        [1n, []],
        [2n, [{ id: (3n << 20n) | 1n, bytes: text('x') }]],
      ]),
    });
    const without = encodeObject({
      seq: 3n,
      epoch: 1n,
      link: null,
      segments: new Map([[2n, [{ id: (3n << 20n) | 1n, bytes: text('x') }]]]),
    });
    expect(withEmpty.bytes).toEqual(without.bytes);
  });

  it('reads a footer that starts before the 64 KiB tail with one more range read', () => {
    const seq = 9n;
    const segments = new Map(
      Array.from(
        { length: 1400 },
        (_, i) =>
          [BigInt(i), [{ id: (seq << 20n) | 1n, bytes: new Uint8Array([i % 256]) }]] as const,
      ),
    );
    const { bytes, trailer } = encodeObject({ seq, epoch: 1n, link: null, segments });
    expect(trailer.footerLength).toBeGreaterThan(TAIL_WINDOW_BYTES);
    const key = keyOf(seq);
    const fromTail = decodeIndexFromTail(
      sliceRange(bytes, { suffix: TAIL_WINDOW_BYTES }),
      bytes.length,
      key,
    );
    expect(fromTail.segments).toBeNull();
    const index = decodeFooter(
      sliceRange(bytes, footerRange(fromTail.trailer)),
      fromTail.trailer,
      key,
    );
    expect(index).toHaveLength(1400);
    expect(decodeTrailer(sliceRange(bytes, { suffix: 64 }), bytes.length, key)).toEqual(trailer);
  });

  it('records are views into the given bytes, not copies', () => {
    const { bytes } = encodeObject({
      seq: 1n,
      epoch: 1n,
      link: null,
      segments: new Map([[1n, [{ id: (1n << 20n) | 1n, bytes: text('abc') }]]]),
    });
    const record = decodeObject(bytes, keyOf(1n)).segments[0]?.records[0];
    expect(record?.bytes.buffer).toBe(bytes.buffer);
  });

  it.each([
    [
      'an id of another sequence',
      {
        seq: 2n,
        epoch: 1n,
        link: null,
        segments: new Map([[1n, [{ id: (3n << 20n) | 1n, bytes: text('x') }]]]),
      },
      'UnencodableBatch',
    ],
    [
      'position 0',
      {
        seq: 2n,
        epoch: 1n,
        link: null,
        segments: new Map([[1n, [{ id: 2n << 20n, bytes: text('x') }]]]),
      },
      'UnencodableBatch',
    ],
    [
      'a duplicate id',
      {
        seq: 2n,
        epoch: 1n,
        link: null,
        segments: new Map([
          [
            1n,
            [
              { id: (2n << 20n) | 1n, bytes: text('x') },
              { id: (2n << 20n) | 1n, bytes: text('y') },
            ],
          ],
        ]),
      },
      'UnencodableBatch',
    ],
    [
      'a link that does not precede',
      { seq: 2n, epoch: 1n, link: { seq: 2n, epoch: 1n }, segments: new Map() },
      'UnencodableBatch',
    ],
    [
      'a sequence of 2^44',
      { seq: 2n ** 44n, epoch: 1n, link: null, segments: new Map() },
      'UnencodableBatch',
    ],
    [
      'an epoch above u64',
      { seq: 1n, epoch: 2n ** 64n, link: null, segments: new Map() },
      'UnencodableBatch',
    ],
    [
      'a region id above u64',
      {
        seq: 1n,
        epoch: 1n,
        link: null,
        segments: new Map([[2n ** 64n, [{ id: (1n << 20n) | 1n, bytes: text('x') }]]]),
      },
      'UnencodableBatch',
    ],
  ] as const)('refuses to encode %s', (_name, batch, code) => {
    expect(encodeError(batch)).toBe(code);
  });
});
