/**
 * Test support for the WAL object format: random batches (fast-check), the entries a batch
 * should decode to, and byte surgery that edits an object and recomputes its CRCs, so a test
 * can build an object whose checksums pass but whose structure is wrong.
 */
import { crc32c } from '@node-rs/crc32';
import fc from 'fast-check';
import {
  FOOTER_COUNT_SIZE,
  FOOTER_ENTRY_AT,
  FOOTER_ENTRY_SIZE,
  HEADER_AT,
  HEADER_BODY_SIZE,
  TRAILER_AT,
  TRAILER_BODY_SIZE,
  TRAILER_SIZE,
  encodeObject,
  type ObjectBatch,
  type SegmentRecord,
} from '../../src/main/engine/wal/format';
import { isWalError } from '../../src/main/engine/wal/errors';
import { MAX_POSITION, MAX_SEQ } from '../../src/main/engine/wal/ids';
import { objectKey } from '../../src/main/engine/wal/keys';

export const PREFIX = 'test/nodes/1/generations/0';
export const keyOf = (seq: bigint): string => objectKey(PREFIX, seq);

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

/** A region's records: distinct positions (not necessarily dense), payloads of 0..48 bytes. */
function recordsOf(seq: bigint): fc.Arbitrary<SegmentRecord[]> {
  const position = fc.oneof(
    fc.bigInt({ min: 1n, max: 40n }),
    fc.bigInt({ min: 1n, max: MAX_POSITION }),
  );
  return fc
    .uniqueArray(position, { minLength: 1, maxLength: 8, comparator: (a, b) => a === b })
    .chain((positions) =>
      fc.tuple(
        ...positions.map((p) =>
          fc.uint8Array({ maxLength: 48 }).map((bytes) => ({ id: (seq << 20n) | p, bytes })),
        ),
      ),
    );
}

/** A batch given as records (the encoder's general input). */
export type RecordsBatch = Omit<ObjectBatch, 'segments'> & {
  readonly segments: ReadonlyMap<bigint, readonly SegmentRecord[]>;
};

export const batchArbitrary: fc.Arbitrary<RecordsBatch> = fc
  .record({
    seq: fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: MAX_SEQ })),
    epoch: fc.oneof(fc.bigInt({ min: 1n, max: 10n }), u64),
    hasLink: fc.boolean(),
    linkFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    linkEpoch: u64,
    regions: fc.uniqueArray(fc.oneof(fc.bigInt({ min: 0n, max: 5n }), u64), {
      maxLength: 4,
      comparator: (a, b) => a === b,
    }),
  })
  .chain(({ seq, epoch, hasLink, linkFraction, linkEpoch, regions }) => {
    const linkSeq = BigInt(Math.floor(Number(seq) * linkFraction)) % seq;
    return fc
      .tuple(
        ...regions.map((region) => recordsOf(seq).map((records) => [region, records] as const)),
      )
      .map((segments) => ({
        seq,
        epoch,
        link: hasLink ? { seq: linkSeq, epoch: linkEpoch } : null,
        segments: new Map(segments),
      }));
  });

/** What decoding must give back: regions ascending, records by id ascending. */
export function expectedSegments(
  batch: RecordsBatch,
): Array<{ regionId: bigint; records: SegmentRecord[] }> {
  return [...batch.segments.entries()]
    .filter(([, records]) => records.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([regionId, records]) => ({
      regionId,
      records: [...records].sort((a, b) => (a.id < b.id ? -1 : 1)),
    }));
}

/** The same batch with map and record order reversed (must encode to the same bytes). */
export function reordered(batch: RecordsBatch): RecordsBatch {
  const segments = [...batch.segments.entries()]
    .reverse()
    .map(([region, records]) => [region, [...records].reverse()] as const);
  return { ...batch, segments: new Map(segments) };
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function trailerAt(bytes: Uint8Array): number {
  return bytes.length - TRAILER_SIZE;
}

/** Where footer entry `i` starts, per the object's own trailer. */
export function footerEntryAt(bytes: Uint8Array, i: number): number {
  const footerOffset = Number(
    viewOf(bytes).getBigUint64(trailerAt(bytes) + TRAILER_AT.footerOffset, true),
  );
  return footerOffset + FOOTER_COUNT_SIZE + i * FOOTER_ENTRY_SIZE;
}

/**
 * Recomputes every CRC after an edit: header, each segment's (over the ranges the footer
 * names, clamped to the object), the footer's and the trailer's.
 */
export function reseal(bytes: Uint8Array): Uint8Array {
  const view = viewOf(bytes);
  view.setUint32(HEADER_AT.crc, crc32c(bytes.subarray(0, HEADER_BODY_SIZE)), true);
  const trailer = trailerAt(bytes);
  const footerOffset = Number(view.getBigUint64(trailer + TRAILER_AT.footerOffset, true));
  const footerLength = view.getUint32(trailer + TRAILER_AT.footerLength, true);
  const footerEnd = Math.min(footerOffset + footerLength, trailer);
  const count = view.getUint32(footerOffset, true);
  for (let i = 0; i < count; i++) {
    const at = footerOffset + FOOTER_COUNT_SIZE + i * FOOTER_ENTRY_SIZE;
    if (at + FOOTER_ENTRY_SIZE > footerEnd) break;
    const offset = Number(view.getBigUint64(at + FOOTER_ENTRY_AT.offset, true));
    const length = Number(view.getBigUint64(at + FOOTER_ENTRY_AT.length, true));
    const segment = bytes.subarray(
      Math.min(offset, bytes.length),
      Math.min(offset + length, bytes.length),
    );
    view.setUint32(at + FOOTER_ENTRY_AT.segmentCrc, crc32c(segment), true);
  }
  view.setUint32(
    trailer + TRAILER_AT.footerCrc,
    crc32c(bytes.subarray(footerOffset, footerEnd)),
    true,
  );
  view.setUint32(
    trailer + TRAILER_AT.crc,
    crc32c(bytes.subarray(trailer, trailer + TRAILER_BODY_SIZE)),
    true,
  );
  return bytes;
}

/** A copy of `bytes` edited by `edit`, with every CRC recomputed. */
export function edited(
  bytes: Uint8Array,
  edit: (view: DataView, bytes: Uint8Array) => void,
): Uint8Array {
  const copy = Uint8Array.from(bytes);
  edit(viewOf(copy), copy);
  return reseal(copy);
}

export const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** The typed error code `encodeObject` refuses `batch` with, 'none' if it encodes. */
export function encodeError(batch: ObjectBatch): string {
  try {
    encodeObject(batch);
  } catch (error) {
    return isWalError(error) ? error.code : 'untyped';
  }
  return 'none';
}
