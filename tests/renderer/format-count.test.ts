/**
 * The long tables' counts and ids as they render: one cached number format writes what
 * `toLocaleString()` wrote, and a plain id carries its text, class and decimal title.
 */
import { describe, expect, it } from 'vitest';
import { plainEntryId, plainRegionId } from '../../src/renderer/src/components/plain-id';
import { formatCount, formatDateTime } from '../../src/renderer/src/views/format';

describe('formatCount', () => {
  it('writes what toLocaleString() writes, numbers and bigints', () => {
    for (const count of [0, 7, 999, 1000, 100_001, 123_456_789, 2 ** 53 - 1])
      expect(formatCount(count)).toBe(count.toLocaleString());
    expect(formatCount(18_446_744_073_709_551_615n)).toBe(
      18_446_744_073_709_551_615n.toLocaleString(),
    );
  });
});

describe('formatDateTime', () => {
  it('writes what Date.toLocaleString() writes', () => {
    for (const ms of [0, 1_733_486_400_000, 1_796_558_327_123, 4_102_444_799_999])
      expect(formatDateTime(new Date(ms))).toBe(new Date(ms).toLocaleString());
  });
});

describe('plain ids', () => {
  it('an entry id: seq:position, its decimal on hover; 0 reads none', () => {
    expect(plainEntryId((65n << 20n) | 1n)).toEqual({
      className: 'mono',
      title: `Entry id 65:1 = ${(65n << 20n) | 1n} (decimal u64)`,
      children: '65:1',
    });
    expect(plainEntryId(0n)).toEqual({
      className: 'mono muted',
      title: 'no entry (0)',
      children: 'none',
    });
  });

  it('a region id: table:region, its decimal on hover', () => {
    expect(plainRegionId((1024n << 32n) | 7n)).toEqual({
      className: 'mono',
      title: `Region 1024:7 = ${(1024n << 32n) | 7n} (decimal u64)`,
      children: '1024:7',
    });
  });
});
