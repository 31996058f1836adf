/**
 * A differential check of the `WalEntry` decoder against an independent protobuf library:
 * random `greptime.v1.WalEntry` payloads are encoded by protobufjs over the project's own
 * definitions of the messages (proto/wal-entry.proto, written from the spec), read by Cairn's
 * decoder, and compared cell by cell with what GreptimeDB reads each value as (the oracle,
 * oracle-cells.ts, from the same plain objects). A mutation's rows are sometimes sent in two
 * parts - two encodings concatenated, which protobuf reads as one message merged - so the
 * merge rule is checked too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodeEntryTable } from '../../../src/shared/greptime/decode/decode-table';
import { oracleCell, type OracleType, type PbExtension, type PbValue } from './oracle-cells';

const root = protobuf.parse(readFileSync(join(__dirname, 'proto', 'wal-entry.proto'), 'utf8'), {
  keepCase: true,
}).root;
const WalEntry = root.lookupType('greptime.v1.WalEntry');
const Mutation = root.lookupType('greptime.v1.Mutation');

const i64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).map(String);
const u64 = fc.bigInt(0n, 2n ** 64n - 1n).map(String);
const i32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
/** Near the epoch, near a Date's ends, and anywhere. */
const times = fc.oneof(
  i64,
  fc.bigInt(-(10n ** 12n), 10n ** 12n).map(String),
  fc.bigInt(253_402_300_000n, 253_402_400_000n).map(String),
);
const text = fc.string({ unit: 'grapheme', maxLength: 8 });
const jsonBytes = fc
  .tuple(fc.boolean(), fc.jsonValue({ maxDepth: 2 }))
  .map(([bom, json]) =>
    Uint8Array.from([...(bom ? [0xef, 0xbb, 0xbf] : []), ...Buffer.from(JSON.stringify(json))]),
  );

const jsonValue: fc.Arbitrary<PbValue> = fc.letrec<{ json: PbValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant({}),
    fc.boolean().map((boolean) => ({ boolean })),
    i64.map((int) => ({ int })),
    u64.map((uint) => ({ uint })),
    fc.double().map((float) => ({ float })),
    text.map((str) => ({ str })),
    fc.array(tie('json'), { maxLength: 3 }).map((items) => ({ array: { items } })),
    fc
      .array(fc.record({ key: text, value: tie('json') }), { maxLength: 3 })
      .map((entries) => ({ object: { entries } })),
    fc.uint8Array({ maxLength: 4 }).map((variant) => ({ variant })),
  ),
})).json;

const decimalExtension: fc.Arbitrary<PbExtension> = fc
  // decimal128 scales reach 38 digits either way; past that the decoder refuses (decode-bombs).
  .record({ precision: fc.integer({ min: 1, max: 38 }), scale: fc.integer({ min: -38, max: 38 }) })
  .map((decimal_type) => ({ decimal_type }));

/** Data types that hold one value (not a list or struct), by number. */
const LEAF_TYPES = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 30,
  31,
];

function one(name: string, value: fc.Arbitrary<unknown>): fc.Arbitrary<PbValue> {
  return value.map((v) => ({ [name]: v }));
}

/** A value of the leaf data type `datatype`, as GreptimeDB writes it (small ints too wide at times). */
function leafValue(datatype: number): fc.Arbitrary<PbValue> {
  switch (datatype) {
    case 0:
      return one('bool_value', fc.boolean());
    case 1:
      return one('i8_value', fc.integer({ min: -300, max: 300 }));
    case 2:
      return one('i16_value', fc.integer({ min: -70_000, max: 70_000 }));
    case 3:
      return one('i32_value', i32);
    case 4:
      return one('i64_value', i64);
    case 5:
      return one('u8_value', fc.integer({ min: 0, max: 600 }));
    case 6:
      return one('u16_value', fc.integer({ min: 0, max: 140_000 }));
    case 7:
      return one('u32_value', u32);
    case 8:
      return one('u64_value', u64);
    case 9:
      return one('f32_value', fc.float());
    case 10:
      return one('f64_value', fc.double());
    case 11:
    case 31:
      return fc.oneof(
        one('binary_value', fc.oneof(fc.uint8Array({ maxLength: 6 }), jsonBytes)),
        one('json_value', jsonValue),
      );
    case 12:
      return one('string_value', text);
    case 13:
      return one('date_value', fc.oneof(i32, fc.integer({ min: -800_000, max: 3_000_000 })));
    case 14:
      return one('datetime_value', times);
    case 15:
    case 16:
    case 17:
    case 18: {
      const names = ['second', 'millisecond', 'microsecond', 'nanosecond'];
      return fc.oneof(
        one(`timestamp_${names[datatype - 15]}_value`, times),
        one('i64_value', times),
      );
    }
    case 19:
    case 20:
    case 21:
    case 22: {
      const names = ['second', 'millisecond', 'microsecond', 'nanosecond'];
      return one(
        `time_${names[datatype - 19]}_value`,
        fc.oneof(i64, fc.bigInt(-10n, 100_000n * 10n ** 9n).map(String)),
      );
    }
    case 23:
      return one('interval_year_month_value', i32);
    case 24:
      return one('interval_day_time_value', i64);
    case 25:
      return one(
        'interval_month_day_nano_value',
        fc.record({ months: i32, days: i32, nanoseconds: i64 }),
      );
    default:
      return one(
        'decimal128_value',
        fc.record({ hi: fc.oneof(i64, fc.constantFrom('0', '-1')), lo: i64 }),
      );
  }
}

interface ColumnModel {
  readonly schema: Record<string, unknown>;
  readonly type: OracleType;
  readonly value: fc.Arbitrary<PbValue>;
}

const leafColumn: fc.Arbitrary<{ type: OracleType; value: fc.Arbitrary<PbValue> }> = fc
  .tuple(fc.constantFrom(...LEAF_TYPES), fc.option(decimalExtension), fc.boolean())
  .map(([datatype, decimal, json]) => {
    const extension =
      datatype === 30
        ? (decimal ?? undefined)
        : datatype === 11 && json
          ? { json_type: 0 }
          : undefined;
    return { type: { datatype, extension }, value: leafValue(datatype) };
  });

/** A column: a leaf type, or a list or struct of leaves with their extensions. */
const columnModel: fc.Arbitrary<ColumnModel> = fc
  .tuple(
    text,
    fc.integer({ min: 0, max: 2 }),
    fc.oneof(
      { arbitrary: leafColumn, weight: 4 },
      {
        arbitrary: leafColumn.map(({ type, value }) => ({
          type: {
            datatype: 40,
            extension: {
              list_type: { datatype: type.datatype, datatype_extension: type.extension },
            },
          },
          value: fc.array(fc.oneof(value, fc.constant({})), { maxLength: 3 }).map((items) => ({
            list_value: { items },
          })),
        })),
        weight: 1,
      },
      {
        arbitrary: fc
          .array(fc.tuple(text, leafColumn), { minLength: 1, maxLength: 3 })
          .map((fields) => ({
            type: {
              datatype: 41,
              extension: {
                struct_type: {
                  fields: fields.map(([name, f]) => ({
                    name,
                    datatype: f.type.datatype,
                    datatype_extension: f.type.extension,
                  })),
                },
              },
            },
            value: fc
              .tuple(...fields.map(([, f]) => f.value))
              .map((items) => ({ struct_value: { items } })),
          })),
        weight: 1,
      },
    ),
  )
  .map(([name, semantic, { type, value }]) => ({
    schema: {
      column_name: name,
      datatype: type.datatype,
      semantic_type: semantic,
      datatype_extension: type.extension,
    },
    type,
    value,
  }));

/** Any value at all (a cell that does not match its column, or null), now and then. */
const strayValue: fc.Arbitrary<PbValue> = fc
  .constantFrom(...LEAF_TYPES)
  .chain(leafValue)
  .chain((value) => fc.oneof(fc.constant(value), fc.constant({})));

interface MutationModel {
  readonly parts: ReadonlyArray<{ schema: Array<Omit<ColumnModel, 'value'>>; rows: PbValue[][] }>;
  readonly op: number;
  readonly sequence: string;
}

const mutationModel: fc.Arbitrary<MutationModel> = fc
  .tuple(
    fc.array(columnModel, { minLength: 1, maxLength: 4 }),
    fc.integer({ min: 0, max: 3 }),
    fc.nat(),
    fc.integer({ min: 0, max: 1 }),
    u64,
  )
  .chain(([columns, rowCount, split, op, sequence]) => {
    const row = fc.tuple(
      ...columns.map((c) =>
        fc.oneof({ arbitrary: c.value, weight: 8 }, { arbitrary: strayValue, weight: 1 }),
      ),
    );
    return fc.array(row, { minLength: rowCount, maxLength: rowCount }).map((rows) => {
      // Sometimes two parts: the second with some of the columns and rows.
      const plain = columns.map(({ schema, type }) => ({ schema, type }));
      const cut = split % (columns.length + 1);
      const rowCut = split % (rows.length + 1);
      const parts =
        split % 3 === 0
          ? [{ schema: plain, rows }]
          : [
              { schema: plain.slice(0, cut), rows: rows.slice(0, rowCut) },
              { schema: plain.slice(cut), rows: rows.slice(rowCut) },
            ];
      return { parts, op, sequence };
    });
  });

function rowsOf(part: MutationModel['parts'][number]): Record<string, unknown> {
  return {
    schema: part.schema.map((c) => c.schema),
    rows: part.rows.map((values) => ({ values })),
  };
}

/** The mutation's bytes: one message, or two encodings of its parts concatenated (merged). */
function encodeMutation(m: MutationModel): Uint8Array {
  const [first, ...rest] = m.parts;
  const head = Mutation.encode(
    Mutation.fromObject({ op_type: m.op, sequence: m.sequence, rows: rowsOf(first!) }),
  ).finish();
  const tails = rest.map((part) =>
    Mutation.encode(Mutation.fromObject({ rows: rowsOf(part) })).finish(),
  );
  return Buffer.concat([head, ...tails]);
}

function encodeEntry(mutations: readonly MutationModel[]): Uint8Array {
  const writer = protobuf.Writer.create();
  for (const m of mutations) writer.uint32((1 << 3) | 2).bytes(encodeMutation(m));
  return writer.finish();
}

describe('the WalEntry decoder against protobufjs and GreptimeDB’s reading', () => {
  it('reads every cell of random payloads as GreptimeDB does', () => {
    // A plain message through protobufjs's own round trip: the definitions load and encode.
    const sample = WalEntry.encode(
      WalEntry.fromObject({ mutations: [{ op_type: 1, sequence: '7' }] }),
    ).finish();
    expect(decodeEntryTable(sample).ok).toBe(true);
    fc.assert(
      fc.property(fc.array(mutationModel, { minLength: 1, maxLength: 2 }), (mutations) => {
        const decoded = decodeEntryTable(encodeEntry(mutations));
        if (!decoded.ok) throw new Error(`${decoded.failure.reason}: ${decoded.failure.detail}`);
        expect(decoded.table.mutations).toHaveLength(mutations.length);
        mutations.forEach((m, at) => {
          const table = decoded.table.mutations[at]!;
          const columns = m.parts.flatMap((part) => part.schema);
          const rows = m.parts.flatMap((part) => part.rows);
          expect(table.op).toBe(m.op === 1 ? 'PUT' : 'DELETE');
          expect(table.sequence).toBe(BigInt(m.sequence));
          expect(table.columns.map((c) => c.name)).toEqual(
            columns.map((c) => c.schema.column_name),
          );
          const expected = rows.map((values) =>
            columns.map((column, i) => oracleCell(values[i] ?? null, column.type)),
          );
          expect(table.rows).toEqual(expected);
        });
      }),
      { numRuns: 300 },
    );
  });
});
