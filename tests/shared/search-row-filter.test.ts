/**
 * The filter pushed into a payload's decoding keeps exactly the rows replay's filter keeps: for
 * random payloads (nulls, non-ASCII strings, short and long rows, a column named like a row
 * line's fixed key) and random conditions of every operator on columns, fixed keys and keys no
 * column has, with or without a time range, `filterEntryRows` gives the rows
 * `rowsOfEntry` + `rowMatches` give, cell for cell.
 */
import { tableFromIPC } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bulkRowsDecoder } from '../../src/shared/greptime/bulk/decode-bulk';
import { decodeEntryTable } from '../../src/shared/greptime/decode/decode-table';
import { filterEntryRows } from '../../src/shared/greptime/decode/row-filter';
import type { GtValue } from '../../src/shared/greptime/decode/wal-entry';
import { rowsOfEntry } from '../../src/shared/greptime/replay-rows';
import {
  rowMatches,
  type RowCondition,
  type RowFilter,
} from '../../src/shared/greptime/row-filter';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';

const SCHEMA = [
  column('host', 12, 0),
  column('region', 12, 0),
  column('ts', 16, 2),
  column('cpu', 10, 1),
  column('n', 4, 1),
];
const T0 = 1767225600000n;
const decoder = bulkRowsDecoder({ tableFromIPC });
const bulkDecoder = () => decoder;
const HOSTS = ['web-1', 'web-2', 'wéb-1', 'db', ''];
const UNITS = [
  ['s', 1_000_000_000n],
  ['ms', 1_000_000n],
  ['us', 1_000n],
  ['ns', 1n],
] as const;

const value = (at: number): fc.Arbitrary<GtValue> => {
  switch (at) {
    case 0:
    case 1:
      return fc.constantFrom(...HOSTS).map((text) => ({ kind: 'string', value: text }));
    case 2:
      // Every unit (the filter's fast path reads them as nanoseconds), and values past the
      // years a cell's text holds (the text is then the number, never inside a range).
      return fc.oneof(
        fc
          .tuple(fc.integer({ min: 0, max: 5 }), fc.constantFrom(...UNITS))
          .map(([n, [unit, scale]]): GtValue => ({
            kind: 'timestamp',
            unit,
            value: ((T0 + BigInt(n) * 1000n) * 1_000_000n) / scale,
          })),
        fc
          .constantFrom(2n ** 62n, -(2n ** 62n), 2n ** 53n + 1n)
          .map((value): GtValue => ({ kind: 'timestamp', unit: 'ns', value })),
      );
    case 3:
      return fc.integer({ min: -3, max: 3 }).map((n) => ({ kind: 'f64', value: n / 2 }));
    default:
      return fc.bigInt({ min: -3n, max: 3n }).map((n) => ({ kind: 'i64', value: n }));
  }
};

const row = fc
  .integer({ min: 2, max: 6 })
  .chain((width) =>
    fc.tuple(...Array.from({ length: width }, (_, at) => fc.option(value(at % 5), { nil: null }))),
  );

const condition: fc.Arbitrary<RowCondition> = fc.record({
  key: fc.constantFrom(
    'host',
    'region',
    'region#2',
    'cpu',
    'n',
    'ts',
    'op',
    'sequence',
    'id',
    'missing',
    '#6',
  ),
  op: fc.constantFrom('=' as const, '!=' as const, '~' as const, '<' as const, '>' as const),
  value: fc.constantFrom('web-1', 'wéb-1', '', '^w', '1', '-1', '0.5', '1:1', 'PUT', '7'),
});

const filter: fc.Arbitrary<RowFilter> = fc.record({
  conditions: fc.array(condition, { maxLength: 3 }),
  since: fc.option(fc.constantFrom(T0 * 1_000_000n, (T0 + 2000n) * 1_000_000n), { nil: null }),
  until: fc.option(fc.constantFrom((T0 + 3000n) * 1_000_000n), { nil: null }),
});

describe('a filter pushed into the decoding', () => {
  it('keeps the rows replay keeps, cell for cell', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(row, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 }),
        filter,
        (mutations, chosen) => {
          const payload = encodeWalEntry({
            mutations: mutations.map((rows, at) => ({
              opType: at % 2,
              sequence: BigInt(at * 10),
              rows: { schema: SCHEMA, rows },
              primaryKeyEncoding: null,
            })),
            bulkEntries: [],
          });
          const decoded = decodeEntryTable(payload);
          if (!decoded.ok) throw new Error('the test payload does not decode');
          const expected = rowsOfEntry(7n, (1n << 20n) | 1n, decoded.table).filter((r) =>
            rowMatches(r, chosen),
          );
          const filtered = filterEntryRows(payload, 7n, (1n << 20n) | 1n, chosen, bulkDecoder);
          if (!filtered.ok) throw new Error('the filter failed a sound payload');
          expect(filtered.hits).toEqual(expected);
          expect(filtered.rows).toBe(mutations.reduce((sum, rows) => sum + rows.length, 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names why a payload is not a WalEntry', () => {
    const filtered = filterEntryRows(
      new Uint8Array([0x0a, 0x05, 0x01]),
      1n,
      1n,
      { conditions: [], since: null, until: null },
      bulkDecoder,
    );
    expect(filtered).toMatchObject({ ok: false, failure: { reason: 'truncated' } });
  });
});
