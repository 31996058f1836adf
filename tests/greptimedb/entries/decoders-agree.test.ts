/**
 * The decoders of the one walk agree: the cell texts written straight from the wire
 * (`decodeEntryTable`, what the CLI and the console's page run) are the texts of the typed
 * decoding (`entryTable` of `decodeWalEntry`), failures included; the check (`checkPayload`,
 * what a replay job runs in the main process) gives `decodePayload`'s verdict with its counts;
 * and 64-bit integers and timestamps either side of what a double holds exactly keep every
 * digit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeWalEntry } from '../../../src/shared/greptime/decode/decode-entry';
import { decodeEntryTable } from '../../../src/shared/greptime/decode/decode-table';
import { checkPayload, decodePayload } from '../../../src/shared/greptime/decode/detect-payload';
import { entryTable } from '../../../src/shared/greptime/decode/entry-table';
import type { GtValue } from '../../../src/shared/greptime/decode/wal-entry';
import type { PayloadCheck } from '../../../src/shared/greptime/entry-table';
import { walEntry } from './wal-entry-arbitraries';
import { column, encodeWalEntry, Wire } from './wal-entry-encoder';

/** What the typed decoder says of the bytes, as tables. */
function typedTables(bytes: Uint8Array) {
  const typed = decodeWalEntry(bytes);
  return typed.ok ? { ok: true, table: entryTable(typed.entry) } : typed;
}

function textTables(bytes: Uint8Array) {
  const text = decodeEntryTable(bytes);
  return text.ok ? { ok: true, table: text.table } : text;
}

/** `decodePayload`'s verdict as the check gives it: a `WalEntry` by its counts. */
function verdictOf(bytes: Uint8Array, onGreptimePrefix: boolean): PayloadCheck {
  const decoded = decodePayload(bytes, onGreptimePrefix);
  if (decoded.kind !== 'wal-entry') return decoded;
  const mutations = decoded.table.mutations;
  return {
    kind: 'wal-entry',
    summary: {
      mutations: mutations.length,
      rows: mutations.reduce((sum, mutation) => sum + mutation.rows.length, 0),
      bulk: decoded.table.bulk.length,
    },
  };
}

const mutated = fc
  .tuple(
    walEntry,
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
    fc.nat(),
  )
  .map(([entry, flips, cut]) => {
    const bytes = Uint8Array.from(encodeWalEntry(entry));
    for (const [at, byte] of flips) if (bytes.length > 0) bytes[at % bytes.length] = byte;
    return cut % 3 === 0 && bytes.length > 0 ? bytes.subarray(0, cut % bytes.length) : bytes;
  });

function oneCell(value: GtValue, datatype = 4): Uint8Array {
  return encodeWalEntry({
    mutations: [
      {
        opType: 1,
        sequence: 1n,
        rows: { schema: [column('c', datatype, 1)], rows: [[value]] },
        primaryKeyEncoding: null,
      },
    ],
    bulkEntries: [],
  });
}

function cellOf(bytes: Uint8Array): string | undefined {
  const decoded = decodeEntryTable(bytes);
  return decoded.ok ? decoded.table.mutations[0]?.rows[0]?.[0] : undefined;
}

/** A nanosecond timestamp's text, worked out with bigint arithmetic alone. */
function nanosText(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const day = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `"${day}.${String(ns % 1_000_000_000n).padStart(9, '0')}Z"`;
}

describe('the decoders of one walk', () => {
  it('write the typed decoding’s cell texts straight from the wire', () => {
    fc.assert(
      fc.property(walEntry, (entry) => {
        const bytes = encodeWalEntry(entry);
        expect(textTables(bytes)).toEqual(typedTables(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('fail truncated and mutated payloads the same way, at the same offset', () => {
    fc.assert(
      fc.property(mutated, (bytes) => {
        expect(textTables(bytes)).toEqual(typedTables(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('check a payload to the verdict decoding gives it, on either kind of prefix', () => {
    fc.assert(
      fc.property(
        fc.oneof(mutated, fc.uint8Array({ maxLength: 40 })),
        fc.boolean(),
        (bytes, gt) => {
          expect(checkPayload(bytes, gt)).toEqual(verdictOf(bytes, gt));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keep every digit of 64-bit values either side of 2^53', () => {
    const cases: Array<[GtValue, number, string]> = [
      [{ kind: 'i64', value: 2n ** 53n - 1n }, 4, '"9007199254740991"'],
      [{ kind: 'i64', value: 2n ** 53n + 1n }, 4, '"9007199254740993"'],
      [{ kind: 'i64', value: -(2n ** 53n) + 1n }, 4, '"-9007199254740991"'],
      [{ kind: 'i64', value: -(2n ** 53n) - 1n }, 4, '"-9007199254740993"'],
      [{ kind: 'i64', value: -(2n ** 63n) }, 4, '"-9223372036854775808"'],
      [{ kind: 'u64', value: 2n ** 53n }, 8, '"9007199254740992"'],
      [{ kind: 'u64', value: 2n ** 64n - 1n }, 8, '"18446744073709551615"'],
      [{ kind: 'datetime', value: -1n }, 14, '"1969-12-31T23:59:59.999999Z"'],
    ];
    for (const ns of [2n ** 53n - 1n, 2n ** 53n + 1n, 1767225600123456789n])
      cases.push([{ kind: 'timestamp', unit: 'ns', value: ns }, 18, nanosText(ns)]);
    // An i64 under a millisecond time index, before 1970 and past what a double holds exactly.
    cases.push([{ kind: 'i64', value: -1n }, 16, '"1969-12-31T23:59:59.999Z"']);
    cases.push([{ kind: 'i64', value: 2n ** 62n }, 16, `"${2n ** 62n}"`]);
    for (const [value, datatype, text] of cases) {
      const bytes = oneCell(value, datatype);
      expect(cellOf(bytes)).toBe(text);
      expect(textTables(bytes)).toEqual(typedTables(bytes));
    }
  });

  it('make cells of a column that comes after a row as the typed decoding does', () => {
    // Rows: a row (an i64) first, then its column, a millisecond time index (prost never
    // writes this order, a payload may).
    const late = new Wire()
      .message(1, (m) =>
        m
          .int(1, 1)
          .message(3, (r) =>
            r
              .message(2, (row) => row.message(1, (v) => v.int(4, 1000)))
              .message(1, (c) => c.text(1, 'ts').int(2, 16).int(3, 2)),
          ),
      )
      .done();
    expect(cellOf(late)).toBe('"1970-01-01T00:00:01.000Z"');
    expect(textTables(late)).toEqual(typedTables(late));
  });

  it('keep each entry’s own columns when consecutive entries change width or names', () => {
    const f = (value: number): GtValue => ({ kind: 'f64', value });
    const entries = [[[f(1), f(2)]], [[f(1), f(2), f(3)]], [[f(1)], [f(4), f(5)]]].map((rows) =>
      encodeWalEntry({
        mutations: [
          {
            opType: 1,
            sequence: 1n,
            rows: { schema: [column('v', 10, 1), column('v', 10, 1)], rows },
            primaryKeyEncoding: null,
          },
        ],
        bulkEntries: [],
      }),
    );
    const keys = entries.map((bytes) => {
      const decoded = decodeEntryTable(bytes);
      return decoded.ok ? decoded.table.mutations[0]!.columns.map((c) => c.key) : [];
    });
    expect(keys).toEqual([
      ['v', 'v#2'],
      ['v', 'v#2', '#3'],
      ['v', 'v#2'],
    ]);
    for (const bytes of entries) expect(textTables(bytes)).toEqual(typedTables(bytes));
  });
});
