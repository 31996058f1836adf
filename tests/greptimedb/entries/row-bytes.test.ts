/**
 * `--rows` written straight from the wire (row-bytes/) prints the bytes the tables printed
 * (`rowLine` / `csvLine` over `decodePayload`'s tables, the formatter before it): random
 * entries of every value kind, strings with escapes, unicode and formula-leading text, schemas
 * changing under one CSV header; a payload it leaves to the tables (ragged rows, bulk entries,
 * damage, an implausible one on a Cairn prefix) leaves the output as it was; and the CSV
 * header's column pass names the columns the tables name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePayload } from '../../../src/shared/greptime/decode/detect-payload';
import type {
  GtColumnSchema,
  GtMutation,
  GtValue,
} from '../../../src/shared/greptime/decode/wal-entry';
import type { GtColumnView } from '../../../src/shared/greptime/entry-table';
import {
  ColumnUnion,
  csvLine,
  rowLine,
  rowsOfEntry,
} from '../../../src/shared/greptime/replay-rows';
import { ByteOut } from '../../../src/shared/greptime/row-bytes/byte-out';
import { entryColumns } from '../../../src/shared/greptime/row-bytes/entry-columns';
import { RowBytesWriter } from '../../../src/shared/greptime/row-bytes/row-writer';
import { schemaColumn, value, walEntry } from './wal-entry-arbitraries';
import { encodeWalEntry } from './wal-entry-encoder';

const REGION = (7n << 32n) | 3n;
const decoder = new TextDecoder();

/** Text a spreadsheet or JSON treats specially, beside any string. */
const awkward = fc.constantFrom(
  '=SUM(A1:A9)',
  '+1',
  '-2',
  '@cmd',
  '\t=1',
  '\r=1',
  'a,b',
  '=a,b',
  'say "hi"',
  'back\\slash',
  'line\nbreak',
  'ünïcödé ✓',
  '日本語',
  '😀 emoji',
  '',
  '\u2028\u2029',
  '\u0000\u001f\u007f',
);
const cell: fc.Arbitrary<GtValue> = fc.oneof(
  value,
  fc.oneof(awkward, fc.string({ unit: 'binary', maxLength: 8 })).map((text) => ({
    kind: 'string' as const,
    value: text,
  })),
  fc.double().map((number) => ({ kind: 'f64' as const, value: number })),
  fc.bigInt(-(2n ** 62n), 2n ** 62n).map((ms) => ({
    kind: 'timestamp' as const,
    unit: 'ms' as const,
    value: ms,
  })),
);

/** A mutation whose rows hold exactly a value per column: what the fast writer writes. */
function fullMutation(schema: readonly GtColumnSchema[]): fc.Arbitrary<GtMutation> {
  return fc.record({
    opType: fc.integer({ min: 0, max: 3 }),
    sequence: fc.oneof(fc.bigInt(0n, 2n ** 20n), fc.bigInt(2n ** 53n - 4n, 2n ** 64n - 8n)),
    rows: fc.record({
      schema: fc.constant([...schema]),
      rows: fc.array(fc.array(cell, { minLength: schema.length, maxLength: schema.length }), {
        maxLength: 4,
      }),
    }),
    primaryKeyEncoding: fc.constant(null),
  });
}

/** Entries whose mutations share one of two schemas (names may repeat or clash with fixed keys). */
const schema = fc.array(
  fc.oneof(
    schemaColumn,
    fc.constantFrom('host', 'ts', 'region', 'op', 'host', '=x', 'a"b').map((name) => ({
      name,
      datatype: 12,
      semanticType: 0,
      extension: null,
      options: [],
    })),
  ),
  { minLength: 1, maxLength: 5 },
);
const wellFormed = fc
  .tuple(schema, schema)
  .chain(([a, b]) =>
    fc.array(fc.array(fc.oneof(fullMutation(a), fullMutation(b)), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map((entries) => entries.map((mutations) => encodeWalEntry({ mutations, bulkEntries: [] })));

/** The lines the tables give: `rowLine`, or `csvLine` under `header`. */
function tableLines(
  payload: Uint8Array,
  id: bigint,
  gt: boolean,
  header: readonly GtColumnView[] | null,
): string {
  const decoded = decodePayload(payload, gt);
  if (decoded.kind !== 'wal-entry') return '';
  return rowsOfEntry(REGION, id, decoded.table)
    .map((row) => `${header === null ? rowLine(row) : csvLine(row, header)}\n`)
    .join('');
}

/** The header's columns as the tables give them, and as the column pass does. */
function headers(payloads: readonly Uint8Array[], gt: boolean) {
  const tables = new ColumnUnion();
  const walked = new ColumnUnion();
  for (const payload of payloads) {
    const decoded = decodePayload(payload, gt);
    if (decoded.kind === 'wal-entry') tables.add(decoded.table);
    const columns = entryColumns(payload, gt);
    if (columns === null) {
      if (decoded.kind === 'wal-entry') walked.add(decoded.table);
    } else for (const each of columns) walked.addColumns(each);
  }
  return { tables: tables.columns(), walked: walked.columns() };
}

/** Each payload written by the fast writer, or by the tables when it leaves one: the output. */
function written(payloads: readonly Uint8Array[], gt: boolean, header: GtColumnView[] | null) {
  const out = new ByteOut();
  const writer = new RowBytesWriter(out, header);
  let fast = 0;
  payloads.forEach((payload, at) => {
    const before = out.pos;
    if (writer.entry(REGION, BigInt(at + 1) << 20n, payload, gt)) fast += 1;
    else {
      expect(out.pos).toBe(before);
      out.text(tableLines(payload, BigInt(at + 1) << 20n, gt, header));
    }
  });
  return { text: decoder.decode(out.take()), fast };
}

function expected(payloads: readonly Uint8Array[], gt: boolean, header: GtColumnView[] | null) {
  return payloads.map((p, at) => tableLines(p, BigInt(at + 1) << 20n, gt, header)).join('');
}

describe('rows written straight from the wire', () => {
  it('are the bytes of the NDJSON lines the tables give, every value kind', () => {
    fc.assert(
      fc.property(wellFormed, fc.boolean(), (payloads, gt) => {
        const { text, fast } = written(payloads, gt, null);
        expect(text).toBe(expected(payloads, gt, null));
        // On GreptimeDB's prefixes every such payload is written without its tables.
        if (gt) expect(fast).toBe(payloads.length);
      }),
      { numRuns: 150 },
    );
  });

  it('are the bytes of the CSV lines under the header of every column met', () => {
    fc.assert(
      fc.property(wellFormed, fc.boolean(), (payloads, gt) => {
        const { tables, walked } = headers(payloads, gt);
        expect(walked).toEqual(tables);
        expect(written(payloads, gt, tables).text).toBe(expected(payloads, gt, tables));
      }),
      { numRuns: 150 },
    );
  });

  it('leave what they cannot write to the tables, writing nothing of it', () => {
    const mixed = fc.array(
      fc.oneof(
        walEntry.map(encodeWalEntry),
        wellFormed.map((payloads) => payloads[0]!),
        fc.uint8Array({ maxLength: 30 }),
      ),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(mixed, fc.boolean(), fc.boolean(), (payloads, gt, csv) => {
        const { tables, walked } = headers(payloads, gt);
        expect(walked).toEqual(tables);
        const header = csv ? tables : null;
        expect(written(payloads, gt, header).text).toBe(expected(payloads, gt, header));
      }),
      { numRuns: 150 },
    );
  });

  it('write the edges of each kind written without its text as the tables do', () => {
    const col = (name: string, datatype: number): GtColumnSchema => ({
      name,
      datatype,
      semanticType: 1,
      extension: null,
      options: [],
    });
    const schema = [
      col('i', 4),
      col('u', 8),
      col('t', 16),
      col('n', 3),
      col('s', 12),
      col('d', 10),
    ];
    const edges: GtValue[][] = [
      [-5n, 2n ** 53n + 1n, -1n, -7, '=1+2', -0],
      [
        -(2n ** 53n) + 1n,
        2n ** 64n - 1n,
        -62_198_755_200_000n,
        2 ** 31 - 1,
        '\t\r"a,b"',
        Number.NaN,
      ],
      [0n, 0n, 253_402_300_800_000n, 0, '\u0001\u007f\\', Number.POSITIVE_INFINITY],
      [2n ** 63n - 1n, 10n, 8_700_000_000_000_000n, -(2 ** 31), 'é,"', 1e21],
    ].map(([i, u, t, n, s, d]) => [
      { kind: 'i64', value: i as bigint },
      { kind: 'u64', value: u as bigint },
      { kind: 'i64', value: t as bigint },
      { kind: 'i32', value: n as number },
      { kind: 'string', value: s as string },
      { kind: 'f64', value: d as number },
    ]);
    const payload = encodeWalEntry({
      mutations: [
        { opType: 1, sequence: 5n, rows: { schema, rows: edges }, primaryKeyEncoding: null },
      ],
      bulkEntries: [],
    });
    const { tables } = headers([payload], true);
    for (const header of [null, tables]) {
      const { text, fast } = written([payload], true, header);
      expect(fast).toBe(1);
      expect(text).toBe(expected([payload], true, header));
    }
  });

  it('write a payload whose rows run past the first output buffer', () => {
    const rows: GtValue[][] = Array.from({ length: 3000 }, (_, at) => [
      { kind: 'string', value: `host-${at}-${'x'.repeat(40)}` },
      { kind: 'f64', value: at / 7 },
    ]);
    const payload = encodeWalEntry({
      mutations: [
        {
          opType: 1,
          sequence: 1n,
          rows: {
            schema: [
              { name: 'host', datatype: 12, semanticType: 0, extension: null, options: [] },
              { name: 'v', datatype: 10, semanticType: 1, extension: null, options: [] },
            ],
            rows,
          },
          primaryKeyEncoding: null,
        },
      ],
      bulkEntries: [],
    });
    const { text, fast } = written([payload], true, null);
    expect(fast).toBe(1);
    expect(text.length).toBeGreaterThan(200_000);
    expect(text).toBe(expected([payload], true, null));
  });
});
