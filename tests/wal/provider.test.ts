import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WrongProviderError, isWalError } from '../../src/main/engine/wal/errors';
import {
  formatProvider,
  formatRegionId,
  makeRegionId,
  parseRegionId,
  regionNumberOf,
  regionOfProvider,
  tableIdOf,
} from '../../src/main/engine/wal/provider';

const PREFIX = 'wal/nodes/1/generations/0';

describe('region ids', () => {
  it('lays out tableId << 32 | regionNumber and shows tableId:regionNumber', () => {
    const region = makeRegionId(1024, 7);
    expect(region).toBe((1024n << 32n) | 7n);
    expect(formatRegionId(region)).toBe('1024:7');
    expect(tableIdOf(region)).toBe(1024);
    expect(regionNumberOf(region)).toBe(7);
    expect(formatRegionId(2n ** 64n - 1n)).toBe('4294967295:4294967295');
  });

  it('parses what it shows, and the raw u64', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (table, number) => {
          const region = makeRegionId(table, number);
          expect(parseRegionId(formatRegionId(region))).toBe(region);
          expect(parseRegionId(region.toString())).toBe(region);
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    '',
    '1:',
    ':1',
    '1:2:3',
    'a:b',
    '4294967296:0',
    '0:4294967296',
    '18446744073709551616',
    '-1',
    '1.5',
  ])('rejects %j with InvalidRegionId', (text) => {
    let code = 'none';
    try {
      parseRegionId(text);
    } catch (error) {
      code = isWalError(error) ? error.code : 'untyped';
    }
    expect(code).toBe('InvalidRegionId');
  });

  it('rejects table ids and region numbers that are not u32', () => {
    expect(() => makeRegionId(-1, 0)).toThrow(/not a u32/);
    expect(() => makeRegionId(0, 2 ** 32)).toThrow(/not a u32/);
    expect(() => makeRegionId(1.5, 0)).toThrow(/not a u32/);
  });
});

describe('providers', () => {
  const region = makeRegionId(3, 1);

  it('returns the region of a provider of this prefix', () => {
    expect(regionOfProvider(PREFIX, { prefix: PREFIX, regionId: region })).toBe(region);
    expect(regionOfProvider(PREFIX, { prefix: PREFIX, regionId: region }, region)).toBe(region);
    expect(formatProvider({ prefix: PREFIX, regionId: region })).toBe(
      `prefix ${PREFIX} region 3:1`,
    );
  });

  it('names both sides when the prefix differs', () => {
    const other = 'wal/nodes/2/generations/0';
    try {
      regionOfProvider(PREFIX, { prefix: other, regionId: region });
      expect.fail('accepted a provider of another prefix');
    } catch (error) {
      expect(error).toBeInstanceOf(WrongProviderError);
      const wrong = error as WrongProviderError;
      expect(wrong.code).toBe('WrongProvider');
      expect(wrong.expected).toBe(`prefix ${PREFIX}`);
      expect(wrong.got).toBe(`prefix ${other} region 3:1`);
      expect(wrong.message).toContain(PREFIX);
      expect(wrong.message).toContain(other);
    }
  });

  it('names both regions when the region passed beside it differs', () => {
    const asked = makeRegionId(3, 2);
    expect(() => regionOfProvider(PREFIX, { prefix: PREFIX, regionId: region }, asked)).toThrow(
      `wrong provider: this store serves prefix ${PREFIX} region 3:2, got prefix ${PREFIX} region 3:1`,
    );
  });
});
