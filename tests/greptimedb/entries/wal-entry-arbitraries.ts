/**
 * fast-check arbitraries of `greptime.v1.WalEntry` values and entries as the spec allows them
 * (every value kind, unknown kinds and enum values, decimal and JSON extensions, bulk entries),
 * for the decoders' property tests; the tests' own encoder writes them.
 */
import fc from 'fast-check';
import type {
  GtColumnSchema,
  GtJson,
  GtMutation,
  GtValue,
  GtWalEntry,
} from '../../../src/shared/greptime/decode/wal-entry';

const i64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n);
const u64 = fc.bigInt(0n, 2n ** 64n - 1n);
const text = fc.string({ unit: 'binary', maxLength: 12 });
const unit = fc.constantFrom('s' as const, 'ms' as const, 'us' as const, 'ns' as const);

const json: fc.Arbitrary<GtJson> = fc.letrec<{ json: GtJson }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.record({ kind: fc.constant('boolean' as const), value: fc.boolean() }),
    fc.record({ kind: fc.constant('int' as const), value: i64 }),
    fc.record({ kind: fc.constant('uint' as const), value: u64 }),
    fc.record({ kind: fc.constant('float' as const), value: fc.double() }),
    fc.record({ kind: fc.constant('str' as const), value: text }),
    fc.record({
      kind: fc.constant('array' as const),
      items: fc.array(tie('json'), { maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant('object' as const),
      entries: fc.array(fc.record({ key: text, value: tie('json') }), { maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('variant' as const), bytes: fc.uint8Array({ maxLength: 4 }) }),
    fc.record({ kind: fc.constant('unknown' as const), field: fc.integer({ min: 9, max: 200 }) }),
  ),
})).json;

export const value: fc.Arbitrary<GtValue> = fc.letrec<{ value: GtValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.record({ kind: fc.constant('bool' as const), value: fc.boolean() }),
    // i8, i16, u8 and u16 within their width: GreptimeDB narrows the rest (a decode test).
    fc.record({ kind: fc.constant('i8' as const), value: fc.integer({ min: -128, max: 127 }) }),
    fc.record({
      kind: fc.constant('i16' as const),
      value: fc.integer({ min: -32768, max: 32767 }),
    }),
    fc.record({ kind: fc.constant('u8' as const), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('u16' as const), value: fc.integer({ min: 0, max: 65535 }) }),
    fc.record({
      kind: fc.constantFrom('i32' as const, 'date' as const, 'interval_year_month' as const),
      value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    }),
    fc.record({
      kind: fc.constant('u32' as const),
      value: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    }),
    fc.record({
      kind: fc.constantFrom('i64' as const, 'datetime' as const, 'interval_day_time' as const),
      value: i64,
    }),
    fc.record({ kind: fc.constant('u64' as const), value: u64 }),
    fc.record({ kind: fc.constant('f32' as const), value: fc.float() }),
    fc.record({ kind: fc.constant('f64' as const), value: fc.double() }),
    fc.record({ kind: fc.constant('binary' as const), value: fc.uint8Array({ maxLength: 6 }) }),
    fc.record({ kind: fc.constant('string' as const), value: text }),
    fc.record({ kind: fc.constantFrom('timestamp' as const, 'time' as const), unit, value: i64 }),
    fc.record({
      kind: fc.constant('interval_month_day_nano' as const),
      months: fc.integer({ min: -1000, max: 1000 }),
      days: fc.integer({ min: -1000, max: 1000 }),
      nanoseconds: i64,
    }),
    fc.record({ kind: fc.constant('decimal128' as const), hi: i64, lo: i64 }),
    fc.record({
      kind: fc.constantFrom('list' as const, 'struct' as const),
      items: fc.array(tie('value'), { maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('json' as const), value: json }),
    fc.record({
      kind: fc.constant('unknown' as const),
      field: fc.constantFrom(27, 28, 29, 30, 32, 39, 43, 500),
      wireType: fc.constant(0),
      bytes: fc.integer({ min: 0, max: 127 }).map((n) => Uint8Array.of(n)),
    }),
  ),
})).value;

type Extension = GtColumnSchema['extension'];

const decimalExtension = fc.record({
  kind: fc.constant('decimal' as const),
  precision: fc.integer({ min: 0, max: 38 }),
  scale: fc.integer({ min: -38, max: 38 }),
});
const leafExtension: fc.Arbitrary<Extension> = fc.oneof(
  fc.constant(null),
  decimalExtension,
  fc.constant({ kind: 'json' as const }),
  fc.record({ kind: fc.constant('other' as const), field: fc.constantFrom(3, 6, 7) }),
);
const datatype = fc.integer({ min: 0, max: 50 });

/** Extensions a column may carry: a list's or struct's nest one level. */
const extension: fc.Arbitrary<Extension> = fc.oneof(
  leafExtension,
  fc.record({ kind: fc.constant('list' as const), datatype, extension: leafExtension }),
  fc.record({
    kind: fc.constant('struct' as const),
    fields: fc.array(fc.record({ name: text, datatype, extension: leafExtension }), {
      maxLength: 3,
    }),
  }),
);

export const schemaColumn: fc.Arbitrary<GtColumnSchema> = fc.record({
  name: text,
  datatype,
  semanticType: fc.integer({ min: 0, max: 3 }),
  extension,
  options: fc.array(fc.tuple(text, text), { maxLength: 2 }),
});

const mutation: fc.Arbitrary<GtMutation> = fc.record({
  opType: fc.integer({ min: 0, max: 3 }),
  sequence: u64,
  rows: fc.option(
    fc.record({
      schema: fc.array(schemaColumn, { maxLength: 3 }),
      rows: fc.array(fc.array(value, { maxLength: 3 }), { maxLength: 3 }),
    }),
  ),
  primaryKeyEncoding: fc.option(fc.integer({ min: 0, max: 2 })),
});

export const walEntry: fc.Arbitrary<GtWalEntry> = fc.record({
  mutations: fc.array(mutation, { maxLength: 3 }),
  bulkEntries: fc.array(
    fc.record({
      sequence: u64,
      maxTs: i64,
      minTs: i64,
      timestampIndex: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      arrowIpc: fc.option(
        fc.record({
          schemaBytes: fc.nat(8),
          dataHeaderBytes: fc.nat(8),
          payloadBytes: fc.nat(8),
        }),
      ),
    }),
    { maxLength: 2 },
  ),
});
