/**
 * The `WalEntry` decoder against entries made by the tests' own encoder (wal-entry-encoder.ts,
 * written from the wire format): a metrics entry decodes to exactly its rows and cell texts,
 * every value kind has its exact text, unknown fields, enum values and value kinds are kept by
 * number, and each kind of malformed payload is a typed failure at its byte offset.
 * Properties (round trip, truncation, mutation) are in decode-entry-properties.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { decodeWalEntry } from '../../../src/shared/greptime/decode/decode-entry';
import { entryTable, keyedColumns } from '../../../src/shared/greptime/decode/entry-table';
import type {
  GtColumnSchema,
  GtMutation,
  GtValue,
  GtWalEntry,
} from '../../../src/shared/greptime/decode/wal-entry';
import { column, encodeWalEntry, Wire } from './wal-entry-encoder';

const STRING = 12;
const FLOAT64 = 10;
const TS_MS = 16;
const TAG = 0;
const FIELD = 1;
const TIME_INDEX = 2;

const metrics: GtColumnSchema[] = [
  column('host', STRING, TAG),
  column('ts', TS_MS, TIME_INDEX),
  column('cpu', FLOAT64, FIELD),
];

function put(sequence: bigint, rows: GtValue[][], schema = metrics): GtMutation {
  return { opType: 1, sequence, rows: { schema, rows }, primaryKeyEncoding: null };
}

const str = (value: string): GtValue => ({ kind: 'string', value });
const ms = (value: bigint): GtValue => ({ kind: 'timestamp', unit: 'ms', value });
const f64 = (value: number): GtValue => ({ kind: 'f64', value });

describe('decodeWalEntry', () => {
  it('decodes a metrics entry to exactly its mutations, rows and cell texts', () => {
    const entry: GtWalEntry = {
      mutations: [
        put(100n, [
          [str('web-1'), ms(1767225600123n), f64(12.5)],
          [str('web-2'), ms(1767225600124n), null],
        ]),
        {
          opType: 0,
          sequence: 102n,
          rows: { schema: metrics.slice(0, 2), rows: [[str('web-1'), ms(1767225600000n)]] },
          primaryKeyEncoding: null,
        },
      ],
      bulkEntries: [],
    };
    const decoded = decodeWalEntry(encodeWalEntry(entry));
    expect(decoded).toEqual({ ok: true, entry });
    expect(entryTable(entry)).toEqual({
      mutations: [
        {
          op: 'PUT',
          sequence: 100n,
          columns: [
            { name: 'host', key: 'host', datatype: 'STRING', semantic: 'TAG' },
            { name: 'ts', key: 'ts', datatype: 'TIMESTAMP_MILLISECOND', semantic: 'TIMESTAMP' },
            { name: 'cpu', key: 'cpu', datatype: 'FLOAT64', semantic: 'FIELD' },
          ],
          rows: [
            ['"web-1"', '"2026-01-01T00:00:00.123Z"', '12.5'],
            ['"web-2"', '"2026-01-01T00:00:00.124Z"', 'null'],
          ],
        },
        {
          op: 'DELETE',
          sequence: 102n,
          columns: [
            { name: 'host', key: 'host', datatype: 'STRING', semantic: 'TAG' },
            { name: 'ts', key: 'ts', datatype: 'TIMESTAMP_MILLISECOND', semantic: 'TIMESTAMP' },
          ],
          rows: [['"web-1"', '"2026-01-01T00:00:00.000Z"']],
        },
      ],
      bulk: [],
    });
  });

  it('writes every kind of cell exactly: 64-bit digits, units, decimals, hex, JSON', () => {
    const cells: Array<[GtValue, GtColumnSchema | undefined, string]> = [
      [{ kind: 'i64', value: -9223372036854775808n }, undefined, '"-9223372036854775808"'],
      [{ kind: 'u64', value: 18446744073709551615n }, undefined, '"18446744073709551615"'],
      [{ kind: 'i8', value: -7 }, undefined, '-7'],
      [{ kind: 'f32', value: Math.fround(0.1) }, undefined, '0.1'],
      [{ kind: 'f64', value: Number.NaN }, undefined, '"NaN"'],
      [{ kind: 'timestamp', unit: 's', value: -1n }, undefined, '"1969-12-31T23:59:59Z"'],
      [
        { kind: 'timestamp', unit: 'ns', value: 1767225600123456789n },
        undefined,
        '"2026-01-01T00:00:00.123456789Z"',
      ],
      [{ kind: 'timestamp', unit: 'us', value: 5n }, undefined, '"1970-01-01T00:00:00.000005Z"'],
      [{ kind: 'i64', value: 1000n }, column('t', 15, 2), '"1970-01-01T00:16:40Z"'],
      [{ kind: 'date', value: 20454 }, undefined, '"2026-01-01"'],
      [{ kind: 'time', unit: 'ms', value: 3_723_004n }, undefined, '"01:02:03.004"'],
      [
        { kind: 'decimal128', hi: -1n, lo: -12345n },
        column('d', 30, 1, { kind: 'decimal', precision: 10, scale: 2 }),
        '"-123.45"',
      ],
      [
        { kind: 'decimal128', hi: 0n, lo: 5n },
        column('d', 30, 1, { kind: 'decimal', precision: 10, scale: 3 }),
        '"0.005"',
      ],
      [{ kind: 'binary', value: Uint8Array.of(0, 0xab) }, column('b', 11, 1), '"00ab"'],
      [
        { kind: 'binary', value: new TextEncoder().encode('{"a":1}') },
        column('j', 11, 1, { kind: 'json' }),
        '"{\\"a\\":1}"',
      ],
      [
        { kind: 'interval_month_day_nano', months: 1, days: -2, nanoseconds: 3n },
        undefined,
        '{"months":1,"days":-2,"nanoseconds":"3"}',
      ],
      [{ kind: 'list', items: [{ kind: 'i32', value: 1 }, null] }, undefined, '[1,null]'],
      [
        {
          kind: 'json',
          value: {
            kind: 'object',
            entries: [{ key: 'n', value: { kind: 'uint', value: 2n ** 63n } }],
          },
        },
        undefined,
        '{"n":9223372036854775808}',
      ],
      [
        { kind: 'unknown', field: 99, wireType: 0, bytes: Uint8Array.of(5) },
        undefined,
        '{"kind":99,"hex":"05"}',
      ],
      [null, undefined, 'null'],
    ];
    for (const [value, under, text] of cells) {
      const schema = [under ?? column('c', 0, 1)];
      const entry: GtWalEntry = { mutations: [put(1n, [[value]], schema)], bulkEntries: [] };
      const decoded = decodeWalEntry(encodeWalEntry(entry));
      expect(decoded).toEqual({ ok: true, entry });
      expect(entryTable(entry).mutations[0]!.rows[0]).toEqual([text]);
    }
  });

  it('keeps unknown fields, enum values and value kinds by number, never failing on them', () => {
    const w = new Wire()
      .message(1, (m) =>
        m
          .int(1, 7) // an op type the spec does not name
          .int(9, 1) // an unknown Mutation field
          .message(3, (r) =>
            r
              .message(1, (c) => c.text(1, 'x').int(2, 77).int(3, 9))
              .message(2, (row) => row.message(1, (v) => v.int(60, 3))),
          ),
      )
      .message(15, (u) => u.int(1, 1)); // an unknown WalEntry field
    const decoded = decodeWalEntry(w.done());
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const table = entryTable(decoded.entry);
    expect(table.mutations[0]).toMatchObject({
      op: 7,
      columns: [{ name: 'x', datatype: 77, semantic: 9 }],
      rows: [['{"kind":60,"hex":"03"}']],
    });
  });

  it('names columns like the fixed keys or each other apart, and keeps values past the schema', () => {
    const schema = [
      column('region', STRING, TAG),
      column('v', FLOAT64, FIELD),
      column('v', FLOAT64, FIELD),
    ];
    const entry: GtWalEntry = {
      mutations: [put(1n, [[str('eu'), f64(1), f64(2), f64(3)]], schema)],
      bulkEntries: [],
    };
    const table = entryTable(entry);
    expect(table.mutations[0]!.columns.map((c) => c.key)).toEqual(['region#2', 'v', 'v#2', '#4']);
    expect(table.mutations[0]!.rows[0]).toEqual(['"eu"', '1', '2', '3']);
    // Names that collide with a numbered key, and many columns of one name (linear, not n^2).
    const keys = keyedColumns(
      ['a#2', 'a', 'a', 'a'].map((name) => ({ name, datatype: 'FLOAT64', semantic: 'FIELD' })),
    ).map((c) => c.key);
    expect(keys).toEqual(['a#2', 'a', 'a#3', 'a#4']);
    const many = keyedColumns(
      Array.from({ length: 20_000 }, () => ({ name: 'x', datatype: 'FLOAT64', semantic: 'FIELD' })),
    );
    expect(new Set(many.map((c) => c.key)).size).toBe(20_000);
    expect(many[19_999]!.key).toBe('x#20000');
  });

  it('summarises bulk entries', () => {
    const entry: GtWalEntry = {
      mutations: [],
      bulkEntries: [
        {
          sequence: 9n,
          maxTs: 20n,
          minTs: -3n,
          timestampIndex: 2,
          arrowIpc: { schemaBytes: 3, dataHeaderBytes: 4, payloadBytes: 5 },
        },
      ],
    };
    expect(decodeWalEntry(encodeWalEntry(entry))).toEqual({ ok: true, entry });
  });

  it.each([
    ['a truncated varint', Uint8Array.of(0x0a, 0x02, 0x10, 0x80), 'truncated', 2],
    ['a length past the end', Uint8Array.of(0x0a, 0xff, 0xff, 0xff, 0xff, 0x07), 'truncated', 0],
    [
      'a varint of 11 bytes',
      Uint8Array.of(0x0a, 12, 0x10, ...new Array<number>(10).fill(0xff), 0x01),
      'invalid-varint',
      2,
    ],
    ['a known field with the wrong wire type', Uint8Array.of(0x08, 0x01), 'wrong-wire-type', 0],
    ['field number 0', Uint8Array.of(0x00), 'invalid-tag', 0],
    ['trailing garbage after a mutation', Uint8Array.of(0x0a, 0x00, 0xff), 'truncated', 2],
    ['wire type 7', Uint8Array.of(0x0f), 'invalid-tag', 0],
  ] as const)('%s is a typed failure at its offset', (_, bytes, reason, offset) => {
    const decoded = decodeWalEntry(bytes);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.failure).toMatchObject({ reason, offset });
  });

  it('fails a nested message whose field runs past its declared end', () => {
    // Mutation of 2 bytes whose sequence varint continues into the bytes after it.
    const bytes = Uint8Array.of(0x0a, 0x02, 0x10, 0x81, 0x01, 0x0a, 0x00);
    const decoded = decodeWalEntry(bytes);
    expect(decoded).toMatchObject({ ok: false, failure: { reason: 'truncated', offset: 2 } });
  });

  it('refuses a string that is not UTF-8 and values nested too deep', () => {
    const badText = new Wire().message(1, (m) =>
      m.message(3, (r) => r.message(1, (c) => c.len(1, [0xc3, 0x28]))),
    );
    expect(decodeWalEntry(badText.done())).toMatchObject({
      ok: false,
      failure: { reason: 'invalid-utf8' },
    });
    let deep: GtValue = { kind: 'i32', value: 1 };
    for (let level = 0; level < 80; level++) deep = { kind: 'list', items: [deep] };
    const entry: GtWalEntry = {
      mutations: [put(1n, [[deep]], [column('l', 40, 1)])],
      bulkEntries: [],
    };
    expect(decodeWalEntry(encodeWalEntry(entry))).toMatchObject({
      ok: false,
      failure: { reason: 'too-deep' },
    });
  });
});
