/**
 * Issue #47 item 3: no small payload takes the decoder down. The bombs of the review - a 32 KB
 * payload of ragged rows (10^8 padded cells asked for), 20,000 columns of one name (key
 * assignment was quadratic), a 40-byte payload with a decimal scale of 10^8 or 6x10^8 - each
 * get a typed answer from all four entry points (typed values, tables, payload detection and
 * the count-only check), fast; and the bounds hold as properties over shapes near them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROW_FIXED_KEYS } from '../../../src/shared/greptime/entry-table';
import { ColumnKeys } from '../../../src/shared/greptime/decode/column-keys';
import { decodeEntryTable } from '../../../src/shared/greptime/decode/decode-table';
import { decodeWalEntry } from '../../../src/shared/greptime/decode/decode-entry';
import { checkPayload, decodePayload } from '../../../src/shared/greptime/decode/detect-payload';
import { MAX_ENTRY_CELLS } from '../../../src/shared/greptime/decode/entry-bounds';
import { Wire } from './wal-entry-encoder';

const DECIMAL128 = 30;

/** One mutation whose `Rows` has `columns` column schemas and rows of the given value counts. */
function rowsPayload(
  rowLengths: readonly number[],
  columns: ReadonlyArray<(column: Wire) => void> = [],
): Uint8Array {
  return new Wire()
    .message(1, (mutation) =>
      mutation.int(1, 1).message(3, (rows) => {
        for (const column of columns) rows.message(1, column);
        for (const length of rowLengths)
          rows.message(2, (row) => {
            // An empty `Value` (no case set) is a null: two bytes each.
            for (let at = 0; at < length; at++) row.len(1, []);
          });
      }),
    )
    .done();
}

/** The failure reason each entry point gives, or 'ok'. */
function verdicts(bytes: Uint8Array): string[] {
  const typed = decodeWalEntry(bytes);
  const table = decodeEntryTable(bytes);
  const payload = decodePayload(bytes, true);
  const check = checkPayload(bytes, true);
  return [
    typed.ok ? 'ok' : typed.failure.reason,
    table.ok ? 'ok' : table.failure.reason,
    payload.kind === 'not-wal-entry' ? payload.failure.reason : payload.kind,
    check.kind === 'not-wal-entry' ? check.failure.reason : check.kind,
  ];
}

describe('decoder bombs', () => {
  it('refuses ragged rows that would pad to 10^8 cells, typed, from a 32 KB payload', () => {
    const bytes = rowsPayload([...Array<number>(10_000).fill(0), 6_000]);
    expect(bytes.length).toBeLessThan(33 * 1024);
    expect(verdicts(bytes)).toEqual(Array(4).fill('entry-too-wide'));
    const table = decodeEntryTable(bytes);
    expect(table.ok ? null : table.failure.detail).toMatch(
      /^Rows: EntryTooWide: .* 60006000 cells/,
    );
  });

  it('names 20,000 columns of one name in linear time, each key unique', () => {
    const name = (column: Wire) => column.text(1, 'v');
    const bytes = rowsPayload([1], Array<(column: Wire) => void>(20_000).fill(name));
    const table = decodeEntryTable(bytes);
    if (!table.ok) throw new Error(table.failure.detail);
    const keys = table.table.mutations[0]!.columns.map((column) => column.key);
    expect(new Set(keys).size).toBe(20_000);
    expect(keys.slice(0, 3)).toEqual(['v', 'v#2', 'v#3']);
    expect(keys.at(-1)).toBe('v#20000');
  });

  it.each([
    [100_000_000, 'decimal-scale'],
    [600_000_000, 'decimal-scale'],
    [-100_000_000, 'decimal-scale'],
    [-39, 'decimal-scale'],
    [39, 'decimal-scale'],
    [-2, 'ok'],
    [38, 'ok'],
    [0, 'ok'],
  ])('a decimal column of scale %d: %s', (scale, verdict) => {
    const decimal = (column: Wire) =>
      column
        .text(1, 'd')
        .int(2, DECIMAL128)
        .message(4, (extension) =>
          extension.message(1, (d) => {
            d.int(1, 38);
            if (scale !== 0) d.int(2, scale);
          }),
        );
    const bytes = new Wire()
      .message(1, (mutation) =>
        mutation.message(3, (rows) =>
          rows
            .message(1, decimal)
            .message(2, (row) =>
              row.message(1, (value) => value.message(31, (d) => d.int(1, 1).int(2, 5))),
            ),
        ),
      )
      .done();
    expect(bytes.length).toBeLessThan(64);
    const want = verdict === 'ok' ? ['ok', 'ok', 'wal-entry', 'wal-entry'] : Array(4).fill(verdict);
    expect(verdicts(bytes)).toEqual(want);
  });

  it('holds the cell cap as a property: too wide exactly when rows x width passes it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4_000 }),
        fc.integer({ min: 1, max: 4_000 }),
        (rows, width) => {
          const bytes = rowsPayload([...Array<number>(rows - 1).fill(0), width]);
          const check = checkPayload(bytes, true);
          const tooWide =
            check.kind === 'not-wal-entry' && check.failure.reason === 'entry-too-wide';
          expect(tooWide).toBe(rows * width > MAX_ENTRY_CELLS);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('makes rows x width cells of a ragged table, no more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 6 }),
        (lengths, schemaColumns) => {
          const named = (column: Wire) => column.text(1, 'c');
          const bytes = rowsPayload(
            lengths,
            Array<(column: Wire) => void>(schemaColumns).fill(named),
          );
          const table = decodeEntryTable(bytes);
          if (!table.ok) throw new Error(table.failure.detail);
          const mutation = table.table.mutations[0]!;
          const width = Math.max(schemaColumns, ...lengths);
          expect(mutation.columns).toHaveLength(lengths.length === 0 ? schemaColumns : width);
          expect(mutation.rows.flat()).toHaveLength(lengths.length * width);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('assigns the keys the quadratic rule assigned, for any names', () => {
    const reference = (names: readonly string[]): string[] => {
      const taken = new Set<string>(ROW_FIXED_KEYS);
      return names.map((name) => {
        let key = name;
        for (let n = 2; taken.has(key); n++) key = `${name}#${n}`;
        taken.add(key);
        return key;
      });
    };
    const name = fc.constantFrom('a', 'a#2', 'a#3', 'b', 'id', 'region', 'a#2#2', '#1');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), (names) => {
        const keys = new ColumnKeys(ROW_FIXED_KEYS);
        expect(names.map((n) => keys.keyOf(n))).toEqual(reference(names));
      }),
      { numRuns: 500 },
    );
  });
});
