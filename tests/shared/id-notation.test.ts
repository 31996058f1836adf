import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatEntryId,
  formatRegionId,
  idFieldsOf,
  parseEntryId,
  parseRegionId,
} from '../../src/shared/id-notation';

const MAX_U64 = (1n << 64n) - 1n;

describe('entry ids as seq:position', () => {
  it.each([
    [(65n << 20n) | 1n, '65:1'],
    [0n, '0:0'],
    [1n, '0:1'],
    [MAX_U64, '17592186044415:1048575'],
  ])('shows %s as %s', (id, text) => {
    expect(formatEntryId(id)).toBe(text);
  });

  it.each([
    ['65:1', (65n << 20n) | 1n],
    [' 65:1 ', (65n << 20n) | 1n],
    [String((65n << 20n) | 1n), (65n << 20n) | 1n],
    ['0', 0n],
    [String(MAX_U64), MAX_U64],
  ])('reads %j', (text, id) => {
    expect(parseEntryId(text)).toBe(id);
  });

  it.each([
    ['', 'empty'],
    ['65:', 'no position'],
    ['-1', 'negative'],
    ['65:1048576', 'position at 2^20'],
    ['17592186044416:1', 'seq at 2^44'],
    [String(MAX_U64 + 1n), 'above u64'],
    ['0x41', 'hex'],
    ['65.1', 'dot'],
  ])('rejects %j (%s)', (text) => {
    expect(parseEntryId(text)).toBeNull();
  });

  it('reads back what it shows, for every u64', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_U64 }), (id) => {
        expect(parseEntryId(formatEntryId(id))).toBe(id);
        expect(parseEntryId(String(id))).toBe(id);
      }),
    );
  });
});

describe('region ids as table:region', () => {
  it('shows and reads the two forms', () => {
    const region = (1024n << 32n) | 7n;
    expect(formatRegionId(region)).toBe('1024:7');
    expect(parseRegionId('1024:7')).toBe(region);
    expect(parseRegionId(String(region))).toBe(region);
  });

  it.each(['4294967296:0', '0:4294967296', '1:', 'a:b', String(MAX_U64 + 1n)])(
    'rejects %j',
    (text) => {
      expect(parseRegionId(text)).toBeNull();
    },
  );

  it('reads back what it shows, for every u64', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_U64 }), (region) => {
        expect(parseRegionId(formatRegionId(region))).toBe(region);
      }),
    );
  });
});

describe('id fields as scripts read them', () => {
  it('prints an entry id field as seq:position with its decimal beside it', () => {
    expect(idFieldsOf('id', 1_572_864_017n)).toEqual({ id: '1500:17', idU64: '1572864017' });
    expect(idFieldsOf('latestId', (65n << 20n) | 1n)).toEqual({
      latestId: '65:1',
      latestIdU64: String((65n << 20n) | 1n),
    });
  });

  it('prints a region id field as table:region with its decimal beside it', () => {
    expect(idFieldsOf('region', 4_415_226_380_288n)).toEqual({
      region: '1028:0',
      regionU64: '4415226380288',
    });
  });

  it('leaves fields that hold no id alone', () => {
    for (const field of ['seq', 'epoch', 'boundary', 'size'])
      expect(idFieldsOf(field, 7n)).toBeNull();
  });
});
