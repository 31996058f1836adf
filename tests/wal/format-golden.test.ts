/**
 * Pins object format version 1: the fixture made by `tests/fixtures/make-golden.ts` must keep
 * its exact bytes, decode to exactly these entries, and be what today's encoder produces for
 * the same batch. If this fails, the format changed: that is a new version, not a fix here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeIndexFromTail,
  decodeObject,
  encodeObject,
  TAIL_WINDOW_BYTES,
} from '../../src/main/engine/wal/format';
import { formatRegionId } from '../../src/main/engine/wal/provider';

const FIXTURE = join(__dirname, '..', 'fixtures', 'wal-v1-golden.wal');
const KEY = 'golden/nodes/1/generations/0/objects/00000000000000000007.wal';
const SHA256 = '3d703fa78bd596f27b100289f82542d8254ce21a91a271abc93691f4663fbc31';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const utf8 = (value: string): string => hex(new TextEncoder().encode(value));
const PATTERN = hex(Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256));

/** Region (shown form), entry id, payload (hex). */
const EXPECTED: ReadonlyArray<readonly [string, bigint, string]> = [
  ['4096:1', 7340033n, utf8('alpha')],
  ['4096:1', 7340034n, utf8('beta')],
  ['4096:1', 7340035n, ''],
  ['4096:2', 7340033n, '00ff7f80'],
  ['8192:0', 7340033n, utf8('ζ utf8 ✓')],
  ['8192:0', 7340034n, PATTERN],
];

describe('format v1 golden fixture', () => {
  const bytes = new Uint8Array(readFileSync(FIXTURE));

  it('keeps its exact bytes', () => {
    expect(bytes.length).toBe(660);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(SHA256);
    expect(hex(bytes.subarray(0, 12))).toBe('434149524e57414c01000000');
    expect(hex(bytes.subarray(bytes.length - 64, bytes.length - 56))).toBe(
      hex(new TextEncoder().encode('CAIRNTRL')),
    );
  });

  it('decodes to the known identity, layout and entries', () => {
    const decoded = decodeObject(bytes, KEY);
    expect(decoded.header).toEqual({
      version: 1,
      flags: 0,
      seq: 7n,
      epoch: 3n,
      link: { seq: 5n, epoch: 2n },
    });
    expect(decoded.trailer).toEqual({
      seq: 7n,
      epoch: 3n,
      link: { seq: 5n, epoch: 2n },
      footerOffset: 448,
      footerLength: 148,
      footerCrc: 0x65351ea1,
    });
    expect(
      decoded.segments.map((s) => [
        formatRegionId(s.index.regionId),
        s.index.offset,
        s.index.length,
        s.index.entries,
      ]),
    ).toEqual([
      ['4096:1', 52, 45, 3],
      ['4096:2', 97, 16, 1],
      ['8192:0', 113, 335, 2],
    ]);
    const entries = decoded.segments.flatMap((s) =>
      s.records.map((r) => [formatRegionId(s.index.regionId), r.id, hex(r.bytes)] as const),
    );
    expect(entries).toEqual(EXPECTED);
    expect(
      decodeIndexFromTail(
        bytes.subarray(Math.max(0, bytes.length - TAIL_WINDOW_BYTES)),
        bytes.length,
        KEY,
      ).segments,
    ).toEqual(decoded.segments.map((s) => s.index));
  });

  it('is what the encoder produces for the same batch today', () => {
    const segments = new Map<bigint, Array<{ id: bigint; bytes: Uint8Array }>>();
    for (const [region, id, payload] of EXPECTED) {
      const [table, number] = region.split(':').map(BigInt) as [bigint, bigint];
      const regionId = (table << 32n) | number;
      segments.set(regionId, [
        ...(segments.get(regionId) ?? []),
        { id, bytes: new Uint8Array(Buffer.from(payload, 'hex')) },
      ]);
    }
    expect(
      hex(encodeObject({ seq: 7n, epoch: 3n, link: { seq: 5n, epoch: 2n }, segments }).bytes),
    ).toBe(hex(bytes));
  });
});
