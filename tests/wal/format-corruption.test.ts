import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FOOTER_ENTRY_AT,
  HEADER_AT,
  HEADER_SIZE,
  RECORD_HEADER_SIZE,
  TRAILER_AT,
  TRAILER_SIZE,
  checkHeaderForRead,
  decodeHeader,
  decodeObject,
  decodeSegment,
  decodeTrailer,
  encodeObject,
  type EncodedObject,
} from '../../src/main/engine/wal/format';
import {
  CorruptObjectError,
  CorruptSegmentError,
  type CorruptObjectCheck,
} from '../../src/main/engine/wal/errors';
import { batchArbitrary, edited, footerEntryAt, keyOf, text, trailerAt } from './wal-objects';

const SEQ = 12n;
const KEY = keyOf(SEQ);
const A = (1n << 32n) | 1n;
const B = (1n << 32n) | 2n;
const id = (position: bigint): bigint => (SEQ << 20n) | position;

/** Two regions, a link, a few records: every part of the format present. */
const SAMPLE: EncodedObject = encodeObject({
  seq: SEQ,
  epoch: 4n,
  link: { seq: 11n, epoch: 4n },
  segments: new Map([
    [
      A,
      [
        { id: id(1n), bytes: text('first') },
        { id: id(2n), bytes: text('second') },
      ],
    ],
    [B, [{ id: id(1n), bytes: text('other region') }]],
  ]),
});

type Failure =
  | { kind: 'object'; check: CorruptObjectCheck }
  | { kind: 'segment'; check: string; region: bigint }
  | { kind: 'none' };

function failureOf(run: () => unknown): Failure {
  try {
    run();
  } catch (error) {
    if (error instanceof CorruptObjectError) {
      expect(error.key).toBe(error.details.key);
      return { kind: 'object', check: error.check };
    }
    if (error instanceof CorruptSegmentError)
      return { kind: 'segment', check: error.check, region: error.region };
    throw error;
  }
  return { kind: 'none' };
}

const objectCheck = (check: CorruptObjectCheck): Failure => ({ kind: 'object', check });

/** The check a flipped byte at `at` must trip, by the part of the object it lies in. */
function expectedFor(encoded: EncodedObject, at: number): Failure {
  const size = encoded.bytes.length;
  if (at < HEADER_AT.crc) return objectCheck(at < 8 ? 'header-magic' : 'header-crc');
  if (at < HEADER_SIZE) return objectCheck('header-crc');
  const segment = encoded.segments.find((s) => at >= s.offset && at < s.offset + s.length);
  if (segment !== undefined)
    return { kind: 'segment', check: 'segment-crc', region: segment.regionId };
  if (at < size - TRAILER_SIZE) return objectCheck('footer-crc');
  return objectCheck(at < size - TRAILER_SIZE + 8 ? 'trailer-magic' : 'trailer-crc');
}

describe('every corruption is detected with its check', () => {
  it('a byte flipped anywhere trips the check of the part it lies in', () => {
    fc.assert(
      fc.property(
        batchArbitrary,
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.integer({ min: 1, max: 255 }),
        (batch, where, mask) => {
          const encoded = encodeObject(batch);
          const at = Math.floor(where * encoded.bytes.length);
          const bytes = Uint8Array.from(encoded.bytes);
          bytes[at] = (bytes[at] ?? 0) ^ mask;
          expect(failureOf(() => decodeObject(bytes, keyOf(batch.seq)))).toEqual(
            expectedFor(encoded, at),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every single byte of the sample object is covered', () => {
    for (let at = 0; at < SAMPLE.bytes.length; at++) {
      const bytes = Uint8Array.from(SAMPLE.bytes);
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      expect(
        failureOf(() => decodeObject(bytes, KEY)),
        `byte ${at}`,
      ).toEqual(expectedFor(SAMPLE, at));
    }
  });

  it('a truncated or extended object fails structurally', () => {
    fc.assert(
      fc.property(batchArbitrary, fc.integer({ min: 1, max: 200 }), (batch, cut) => {
        const { bytes } = encodeObject(batch);
        const truncated = bytes.subarray(0, Math.max(0, bytes.length - cut));
        expect(failureOf(() => decodeObject(truncated, keyOf(batch.seq))).kind).toBe('object');
      }),
      { numRuns: 100 },
    );
    const extended = new Uint8Array(SAMPLE.bytes.length + 1);
    extended.set(SAMPLE.bytes);
    expect(failureOf(() => decodeObject(extended, KEY))).toEqual(objectCheck('trailer-magic'));
    expect(
      failureOf(() => decodeObject(SAMPLE.bytes.subarray(0, SAMPLE.bytes.length - 1), KEY)),
    ).toEqual(objectCheck('trailer-magic'));
    expect(failureOf(() => decodeObject(SAMPLE.bytes.subarray(0, 100), KEY))).toEqual(
      objectCheck('object-size'),
    );
  });

  it('a tail read against the wrong object size fails footer-bounds', () => {
    const tail = SAMPLE.bytes.subarray(SAMPLE.bytes.length - 100);
    expect(failureOf(() => decodeTrailer(tail, SAMPLE.bytes.length + 10, KEY))).toEqual(
      objectCheck('footer-bounds'),
    );
    expect(failureOf(() => decodeTrailer(tail.subarray(50), SAMPLE.bytes.length, KEY))).toEqual(
      objectCheck('object-size'),
    );
  });

  it('an object under another sequence key fails seq-mismatch; a foreign key fails object-key', () => {
    expect(failureOf(() => decodeObject(SAMPLE.bytes, keyOf(SEQ + 1n)))).toEqual(
      objectCheck('seq-mismatch'),
    );
    expect(failureOf(() => decodeObject(SAMPLE.bytes, 'test/objects/12.wal'))).toEqual(
      objectCheck('object-key'),
    );
  });

  const footerEntry = (bytes: Uint8Array, i: number, field: keyof typeof FOOTER_ENTRY_AT): number =>
    footerEntryAt(bytes, i) + FOOTER_ENTRY_AT[field];
  const trailerField = (bytes: Uint8Array, field: keyof typeof TRAILER_AT): number =>
    trailerAt(bytes) + TRAILER_AT[field];

  it.each<[string, (view: DataView, bytes: Uint8Array) => void, CorruptObjectCheck]>([
    [
      'hasLink 2 in the trailer',
      (v, b) => v.setUint32(trailerField(b, 'hasLink'), 2, true),
      'trailer-link',
    ],
    [
      'a trailer link to itself',
      (v, b) => v.setBigUint64(trailerField(b, 'linkSeq'), SEQ, true),
      'trailer-link',
    ],
    [
      'link fields without hasLink',
      (v, b) => v.setUint32(trailerField(b, 'hasLink'), 0, true),
      'trailer-link',
    ],
    [
      'a footer offset off by one',
      (v, b) =>
        v.setBigUint64(
          trailerField(b, 'footerOffset'),
          BigInt(SAMPLE.trailer.footerOffset + 1),
          true,
        ),
      'footer-bounds',
    ],
    [
      'a footer offset inside the header',
      (v, b) => {
        v.setBigUint64(trailerField(b, 'footerOffset'), 10n, true);
        v.setUint32(trailerField(b, 'footerLength'), SAMPLE.bytes.length - TRAILER_SIZE - 10, true);
      },
      'footer-bounds',
    ],
    [
      'a footer length that is not whole entries',
      (v, b) => {
        v.setBigUint64(
          trailerField(b, 'footerOffset'),
          BigInt(SAMPLE.trailer.footerOffset - 1),
          true,
        );
        v.setUint32(trailerField(b, 'footerLength'), SAMPLE.trailer.footerLength + 1, true);
      },
      'footer-length',
    ],
    [
      'a segment count the footer cannot hold',
      (v) => v.setUint32(SAMPLE.trailer.footerOffset, 3, true),
      'footer-count',
    ],
    [
      'two segments of one region',
      (v, b) => v.setBigUint64(footerEntry(b, 1, 'regionId'), A, true),
      'segments-order',
    ],
    [
      'regions out of order',
      (v, b) => v.setBigUint64(footerEntry(b, 1, 'regionId'), 0n, true),
      'segments-order',
    ],
    [
      'a gap between segments',
      (v, b) =>
        v.setBigUint64(footerEntry(b, 0, 'length'), BigInt(SAMPLE.segments[0]!.length - 1), true),
      'segments-tile',
    ],
    [
      'a segment not starting after the header',
      (v, b) => v.setBigUint64(footerEntry(b, 0, 'offset'), 0n, true),
      'segments-tile',
    ],
    [
      'segments that overrun the footer',
      (v, b) =>
        v.setBigUint64(footerEntry(b, 1, 'length'), BigInt(SAMPLE.segments[1]!.length + 1), true),
      'segments-tile',
    ],
    [
      'ids of another sequence in the footer',
      (v, b) => v.setBigUint64(footerEntry(b, 0, 'firstId'), ((SEQ - 1n) << 20n) | 1n, true),
      'segment-ids',
    ],
    [
      'more entries than ids',
      (v, b) => v.setUint32(footerEntry(b, 0, 'entries'), 5, true),
      'segment-ids',
    ],
    ['zero entries', (v, b) => v.setUint32(footerEntry(b, 1, 'entries'), 0, true), 'segment-ids'],
    ['header version 2', (v) => v.setUint16(HEADER_AT.version, 2, true), 'header-version'],
    ['header flags', (v) => v.setUint16(HEADER_AT.flags, 1, true), 'header-flags'],
    ['hasLink 3 in the header', (v) => v.setUint32(HEADER_AT.hasLink, 3, true), 'header-link'],
    [
      'a header of another epoch',
      (v) => v.setBigUint64(HEADER_AT.epoch, 5n, true),
      'header-trailer-mismatch',
    ],
    [
      'a header of another sequence',
      (v) => v.setBigUint64(HEADER_AT.seq, SEQ + 1n, true),
      'header-trailer-mismatch',
    ],
    [
      'a header without the link',
      (v) => {
        v.setUint32(HEADER_AT.hasLink, 0, true);
        v.setBigUint64(HEADER_AT.linkSeq, 0n, true);
        v.setBigUint64(HEADER_AT.linkEpoch, 0n, true);
      },
      'header-trailer-mismatch',
    ],
  ])('with valid checksums, %s fails %s', (_name, edit, check) => {
    expect(failureOf(() => decodeObject(edited(SAMPLE.bytes, edit), KEY))).toEqual(
      objectCheck(check),
    );
  });

  it.each<[string, (view: DataView) => void]>([
    ['a record length past the segment', (v) => v.setUint32(HEADER_SIZE + 8, 999, true)],
    ['a record length short of the segment', (v) => v.setUint32(HEADER_SIZE + 8, 4, true)],
    ['records out of id order', (v) => v.setBigUint64(HEADER_SIZE, id(3n), true)],
    [
      'a record id outside the footer range',
      (v) => v.setBigUint64(HEADER_SIZE + RECORD_HEADER_SIZE + 5, id(9n), true),
    ],
  ])('with valid checksums, %s fails segment-framing for that region only', (_name, edit) => {
    const bytes = edited(SAMPLE.bytes, (view) => edit(view));
    expect(failureOf(() => decodeObject(bytes, KEY))).toEqual({
      kind: 'segment',
      check: 'segment-framing',
      region: A,
    });
    const other = SAMPLE.segments[1]!;
    expect(
      decodeSegment(bytes.subarray(other.offset, other.offset + other.length), other, KEY),
    ).toHaveLength(1);
  });

  it('a segment read of the wrong length fails segment-length', () => {
    const segment = SAMPLE.segments[0]!;
    expect(
      failureOf(() =>
        decodeSegment(
          SAMPLE.bytes.subarray(segment.offset, segment.offset + segment.length - 1),
          segment,
          KEY,
        ),
      ),
    ).toEqual({
      kind: 'segment',
      check: 'segment-length',
      region: A,
    });
  });

  it('a segment read whose header is corrupt or disagrees fails that segment (segment-header)', () => {
    const header = (bytes: Uint8Array): Uint8Array => bytes.subarray(0, HEADER_SIZE);
    expect(() => checkHeaderForRead(header(SAMPLE.bytes), SAMPLE.trailer, B, KEY)).not.toThrow();
    const flipped = Uint8Array.from(SAMPLE.bytes);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    const otherEpoch = edited(SAMPLE.bytes, (v) => v.setBigUint64(HEADER_AT.epoch, 9n, true));
    for (const [bytes, check] of [
      [flipped, 'header-crc'],
      [otherEpoch, 'header-trailer-mismatch'],
    ] as const) {
      try {
        checkHeaderForRead(header(bytes), SAMPLE.trailer, B, KEY);
        expect.fail('accepted a bad header');
      } catch (error) {
        expect(error).toBeInstanceOf(CorruptSegmentError);
        expect(error).toMatchObject({
          key: KEY,
          region: B,
          check: 'segment-header',
          detail: check,
        });
      }
    }
  });

  it('a header read short of 52 bytes fails object-size', () => {
    expect(failureOf(() => decodeHeader(SAMPLE.bytes.subarray(0, HEADER_SIZE - 1), KEY))).toEqual(
      objectCheck('object-size'),
    );
  });

  it('errors name the key and the check', () => {
    const bytes = Uint8Array.from(SAMPLE.bytes);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    expect(() => decodeObject(bytes, KEY)).toThrow(
      `corrupt WAL object ${KEY}: trailer-crc check failed`,
    );
  });
});
