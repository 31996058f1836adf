import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeGtFooter,
  decodeGtHeader,
  decodeGtIndexFromTail,
  decodeGtObject,
  decodeGtSegment,
} from '../../src/main/engine/greptimedb/decode';
import { CorruptObjectError, CorruptSegmentError } from '../../src/main/engine/wal/errors';
import { encodeGtObject, gtObjectKey, gtVector, type GtObjectSpec } from './gt-encoder';

const KEY7 = gtObjectKey('datanodes/1/epochs/2', 7n);
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString();

function checkOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CorruptObjectError || error instanceof CorruptSegmentError)
      return error.check;
    throw error;
  }
  return 'ok';
}

describe('GreptimeDB v1 test vector', () => {
  it('decodes to exactly its five entries', () => {
    const decoded = decodeGtObject(gtVector(), KEY7);
    expect(decoded.header).toEqual({
      seq: 7n,
      epoch: 3n,
      link: { seq: 6n, epoch: 2n },
      reclaimBoundary: 5n,
    });
    expect(
      decoded.records.map((s) => [s.index.regionId, s.records.map((r) => [r.id, text(r.bytes)])]),
    ).toEqual([
      [
        (1n << 32n) | 1n,
        [
          [1n, 'a'],
          [2n, 'bb'],
          [3n, 'ccc'],
        ],
      ],
      [
        (2n << 32n) | 1n,
        [
          [10n, 'x'],
          [11n, 'yy'],
        ],
      ],
    ]);
    expect(decoded.trailer).toMatchObject({ footerOffset: 147, footerLength: 100 });
  });

  it('the test encoder writes the vector byte for byte', () => {
    const spec: GtObjectSpec = {
      seq: 7n,
      epoch: 3n,
      prev: { seq: 6n, epoch: 2n },
      reclaimBoundary: 5n,
      segments: [
        {
          regionId: (1n << 32n) | 1n,
          entries: ['a', 'bb', 'ccc'].map((p, i) => ({
            id: BigInt(i + 1),
            payload: Buffer.from(p),
          })),
        },
        {
          regionId: (2n << 32n) | 1n,
          entries: [
            { id: 10n, payload: Buffer.from('x') },
            { id: 11n, payload: Buffer.from('yy') },
          ],
        },
      ],
    };
    expect(Buffer.from(encodeGtObject(spec)).equals(Buffer.from(gtVector()))).toBe(true);
  });
});

/** Damage applied to the vector, and the check that must name it. */
const DAMAGE: ReadonlyArray<readonly [string, (b: Buffer) => Buffer, string]> = [
  ['header magic', (b) => (b.write('XX', 0), b), 'header-magic'],
  ['header version', (b) => (b.writeUInt16BE(2, 8), b), 'header-version'],
  ['header byte', (b) => ((b[20] = (b[20] ?? 0) ^ 1), b), 'header-crc'],
  ['trailer magic', (b) => (b.write('X', b.length - 1), b), 'trailer-magic'],
  [
    'footer offset below the header',
    (b) => (b.writeBigUInt64BE(10n, b.length - 32), b),
    'footer-bounds',
  ],
  ['footer byte', (b) => ((b[150] = (b[150] ?? 0) ^ 1), b), 'footer-crc'],
  ['segment byte', (b) => ((b[70] = (b[70] ?? 0) ^ 1), b), 'object-crc'],
  ['object too short', (b) => b.subarray(0, 60), 'object-size'],
];

describe('damage to a GreptimeDB object', () => {
  for (const [what, damage, check] of DAMAGE) {
    it(`${what} -> ${check}`, () => {
      expect(checkOf(() => decodeGtObject(damage(Buffer.from(gtVector())), KEY7))).toBe(check);
    });
  }

  it('a reclaim boundary above the sequence is refused', () => {
    const bytes = encodeGtObject({
      seq: 3n,
      epoch: 1n,
      prev: null,
      reclaimBoundary: 4n,
      segments: [],
    });
    expect(checkOf(() => decodeGtHeader(bytes, gtObjectKey('p', 3n)))).toBe('header-reclaim');
  });

  it('a header whose sequence is not the key is refused', () => {
    expect(checkOf(() => decodeGtHeader(gtVector(), gtObjectKey('p', 8n)))).toBe('seq-mismatch');
  });

  it('a segment is checked against its footer entry: CRC, header, framing', () => {
    const bytes = gtVector();
    const { segments } = decodeGtIndexFromTail(bytes, bytes.length, KEY7);
    const index = segments?.[0];
    if (index === undefined) throw new Error('no segment');
    const segment = Buffer.from(bytes.subarray(index.offset, index.offset + index.length));
    expect(decodeGtSegment(segment, index, KEY7).map((r) => r.id)).toEqual([1n, 2n, 3n]);
    expect(checkOf(() => decodeGtSegment(segment, { ...index, segmentCrc: 0 }, KEY7))).toBe(
      'segment-crc',
    );
    expect(checkOf(() => decodeGtSegment(segment.subarray(1), index, KEY7))).toBe('segment-length');
  });

  it('segment ids, counts and order are checked from the footer', () => {
    const two = (ids: bigint[]): GtObjectSpec => ({
      seq: 1n,
      epoch: 1n,
      prev: null,
      reclaimBoundary: 0n,
      segments: [{ regionId: 5n, entries: ids.map((id) => ({ id, payload: Buffer.from('p') })) }],
    });
    expect(checkOf(() => decodeGtObject(encodeGtObject(two([2n, 1n])), gtObjectKey('p', 1n)))).toBe(
      'segment-ids',
    );
    const unordered = encodeGtObject({
      ...two([1n]),
      segments: [
        { regionId: 9n, entries: [{ id: 1n, payload: Buffer.from('a') }] },
        { regionId: 5n, entries: [{ id: 1n, payload: Buffer.from('b') }] },
      ],
    });
    expect(checkOf(() => decodeGtObject(unordered, gtObjectKey('p', 1n)))).toBe('segments-order');
  });

  it('footer entries that do not tile the body, or a segment header that disagrees, are refused', () => {
    const vector = Buffer.from(gtVector());
    const refooter = (edit: (footer: Buffer) => void): Buffer => {
      const bytes = Buffer.from(vector);
      const footer = bytes.subarray(147, 247);
      edit(footer);
      bytes.writeUInt32BE(crc32(footer), bytes.length - 16);
      return bytes;
    };
    // The second segment said to start one byte late: a gap in the tiling.
    const gap = refooter((f) => f.writeBigUInt64BE(0x6dn, 4 + 48 + 28));
    expect(checkOf(() => decodeGtIndexFromTail(gap, gap.length, KEY7))).toBe('segments-tile');
    // A segment shorter than its own header.
    const short = refooter((f) => f.writeBigUInt64BE(11n, 4 + 36));
    expect(checkOf(() => decodeGtIndexFromTail(short, short.length, KEY7))).toBe('segments-tile');
    const { segments } = decodeGtIndexFromTail(vector, vector.length, KEY7);
    const first = segments?.[0];
    if (first === undefined) throw new Error('no segment');
    const segment = Buffer.from(vector.subarray(first.offset, first.offset + first.length));
    const recount = (edit: (b: Buffer) => void): [Buffer, number] => {
      const copy = Buffer.from(segment);
      edit(copy);
      return [copy, crc32(copy)];
    };
    const [wrongCount, wrongCountCrc] = recount((b) => b.writeUInt32BE(2, 8));
    expect(
      checkOf(() => decodeGtSegment(wrongCount, { ...first, segmentCrc: wrongCountCrc }, KEY7)),
    ).toBe('segment-header');
    const [lengthy, lengthyCrc] = recount((b) => b.writeUInt32BE(1000, 12 + 8));
    expect(
      checkOf(() => decodeGtSegment(lengthy, { ...first, segmentCrc: lengthyCrc }, KEY7)),
    ).toBe('segment-framing');
  });

  it('a chain start with a predecessor epoch, or a predecessor not below the object, is refused', () => {
    const noPrev = Buffer.from(
      encodeGtObject({ seq: 3n, epoch: 1n, prev: null, reclaimBoundary: 0n, segments: [] }),
    );
    noPrev.writeBigUInt64BE(9n, 34);
    noPrev.writeUInt32BE(crc32(noPrev.subarray(0, 50)), 50);
    expect(checkOf(() => decodeGtHeader(noPrev, gtObjectKey('p', 3n)))).toBe('header-link');
    const ahead = encodeGtObject({
      seq: 3n,
      epoch: 1n,
      prev: { seq: 3n, epoch: 1n },
      reclaimBoundary: 0n,
      segments: [],
    });
    expect(checkOf(() => decodeGtHeader(ahead, gtObjectKey('p', 3n)))).toBe('header-link');
  });

  it('the smallest object (no segment) is 90 bytes and decodes', () => {
    const start = encodeGtObject({
      seq: 4n,
      epoch: 5n,
      prev: null,
      reclaimBoundary: 0n,
      segments: [],
    });
    expect(start.length).toBe(90);
    expect(decodeGtObject(start, gtObjectKey('p', 4n)).segments).toEqual([]);
  });

  it('a footer that declares more segments than its bytes is refused without allocating them', () => {
    const bytes = gtVector();
    const footer = Buffer.from(bytes.subarray(147, 247));
    footer.writeUInt32BE(0xffffffff, 0);
    const trailer = {
      footerOffset: 147,
      footerLength: 100,
      footerCrc: crc32(footer),
      objectCrc: 0,
    };
    expect(checkOf(() => decodeGtFooter(footer, trailer, KEY7))).toBe('footer-length');
  });
});

const payloads = fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 6 });
const objectSpec: fc.Arbitrary<GtObjectSpec> = fc
  .record({
    seq: fc.bigInt({ min: 1n, max: (1n << 44n) - 1n }),
    epoch: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    regions: fc.uniqueArray(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { maxLength: 4 }),
    payloads: fc.array(payloads, { minLength: 4, maxLength: 4 }),
  })
  .map(({ seq, epoch, regions, payloads: lists }) => ({
    seq,
    epoch,
    prev: { seq: seq - 1n, epoch },
    reclaimBoundary: seq / 2n,
    segments: [...regions]
      .sort((a, b) => (a < b ? -1 : 1))
      .map((regionId, r) => ({
        regionId,
        entries: (lists[r] ?? []).map((payload, i) => ({
          id: (seq << 20n) | BigInt(i + 1),
          payload,
        })),
      })),
  }));

describe('GreptimeDB decoder under fuzzing', () => {
  it('decodes every encoded object to what was encoded', () => {
    fc.assert(
      fc.property(objectSpec, (spec) => {
        const decoded = decodeGtObject(encodeGtObject(spec), gtObjectKey('p', spec.seq));
        expect(
          decoded.records.map((s) => ({
            regionId: s.index.regionId,
            entries: s.records.map((r) => ({ id: r.id, payload: Buffer.from(r.bytes) })),
          })),
        ).toEqual(
          spec.segments.map((s) => ({
            regionId: s.regionId,
            entries: s.entries.map((e) => ({ id: e.id, payload: Buffer.from(e.payload) })),
          })),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('mutated or random bytes give a typed corruption error or a correct decode, nothing else', () => {
    const mutated = fc.tuple(
      objectSpec,
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.option(fc.nat()),
    );
    fc.assert(
      fc.property(mutated, ([spec, flips, cut]) => {
        const bytes = Buffer.from(encodeGtObject(spec));
        for (const [at, xor] of flips)
          bytes[at % bytes.length] = (bytes[at % bytes.length] ?? 0) ^ xor;
        const damaged = cut === null ? bytes : bytes.subarray(0, cut % bytes.length);
        expect(checkOf(() => decodeGtObject(damaged, gtObjectKey('p', spec.seq)))).not.toBe('ok');
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        expect(typeof checkOf(() => decodeGtObject(bytes, gtObjectKey('p', 1n)))).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});
