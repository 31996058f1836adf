/**
 * `compareKeys` orders keys as S3 does (UTF-8 bytes) without encoding them: the same sign as
 * comparing the encoded bytes, for any strings - astral characters (surrogate pairs) against
 * U+E000..U+FFFF included, where UTF-16 order and byte order disagree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/main/engine/objectio/sorted-listing';

const byBytes = (a: string, b: string): number =>
  Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));

describe('compareKeys', () => {
  it('agrees with UTF-8 byte order on any two strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareKeys(a, b))).toBe(byBytes(a, b));
      }),
      { numRuns: 5_000 },
    );
  });

  it('puts an astral character after U+FFFF and U+E000, as the bytes do', () => {
    for (const [low, high] of [
      ['a\uffff', 'a\u{10000}'],
      ['\ue000', '\u{1f600}'],
      ['objects/1', 'objects/1\u{1f600}'],
      ['', 'a'],
    ] as const) {
      expect(compareKeys(low, high)).toBe(-1);
      expect(compareKeys(high, low)).toBe(1);
      expect(byBytes(low, high)).toBe(-1);
    }
    expect(compareKeys('same', 'same')).toBe(0);
  });
});
