/**
 * Cells read as GreptimeDB reads them (src/api/src/helper.rs, `pb_value_to_value_ref`, and
 * protobuf's merge rules as prost applies them): each finding of the differential check of
 * issue #46, one payload each, through the cell texts the CLI and the console print (and the
 * typed decoding, which must agree).
 */
import { describe, expect, it } from 'vitest';
import { decodeWalEntry } from '../../../src/shared/greptime/decode/decode-entry';
import { decodeEntryTable } from '../../../src/shared/greptime/decode/decode-table';
import { entryTable } from '../../../src/shared/greptime/decode/entry-table';
import type { GtColumnSchema, GtValue } from '../../../src/shared/greptime/decode/wal-entry';
import { cellText } from '../../../src/shared/greptime/replay-rows';
import { parseUtcTime } from '../../../src/shared/greptime/row-filter';
import { column, encodeWalEntry, Wire, writeValue } from './wal-entry-encoder';

/** The cell texts of one mutation's rows, by both decoders (which must agree). */
function cellsOf(bytes: Uint8Array): ReadonlyArray<readonly string[]> {
  const text = decodeEntryTable(bytes);
  const typed = decodeWalEntry(bytes);
  if (!text.ok || !typed.ok) throw new Error('not a WalEntry');
  expect(entryTable(typed.entry).mutations).toEqual(text.table.mutations);
  return text.table.mutations[0]!.rows;
}

function oneCell(value: GtValue, under: GtColumnSchema = column('c', 0, 1)): string {
  const bytes = encodeWalEntry({
    mutations: [
      {
        opType: 1,
        sequence: 1n,
        rows: { schema: [under], rows: [[value]] },
        primaryKeyEncoding: null,
      },
    ],
    bulkEntries: [],
  });
  return cellsOf(bytes)[0]![0]!;
}

/** One value whose `Value` message is written by `build` (for orders prost never writes). */
function rawCell(build: (value: Wire) => void, under?: (c: Wire) => void): string {
  const bytes = new Wire()
    .message(1, (m) =>
      m.int(1, 1).message(3, (r) => {
        r.message(1, (c) => (under ? under(c) : c.text(1, 'c').int(3, 1)));
        r.message(2, (row) => row.message(1, build));
      }),
    )
    .done();
  return cellsOf(bytes)[0]![0]!;
}

const decimal = (lo: bigint): GtValue => ({ kind: 'decimal128', hi: lo < 0n ? -1n : 0n, lo });

describe('cells as GreptimeDB reads them', () => {
  it('writes dates outside years 0000-9999 whole', () => {
    expect(oneCell({ kind: 'date', value: 2_932_897 })).toBe('"+010000-01-01"');
    expect(oneCell({ kind: 'date', value: -719_529 })).toBe('"-000001-12-31"');
    expect(oneCell({ kind: 'date', value: 20454 })).toBe('"2026-01-01"');
    // --since / --until read such a time back.
    const ts = oneCell({ kind: 'timestamp', unit: 's', value: 253_402_300_800n });
    expect(ts).toBe('"+010000-01-01T00:00:00Z"');
    expect(parseUtcTime(cellText(ts))).toBe(253_402_300_800n * 1_000_000_000n);
  });

  it('scales decimals by their type: inside lists and structs, negative scales, the default 10', () => {
    const scale2 = { kind: 'decimal' as const, precision: 10, scale: 2 };
    const list = column('l', 40, 1, { kind: 'list', datatype: 30, extension: scale2 });
    expect(oneCell({ kind: 'list', items: [decimal(12345n), decimal(-5n)] }, list)).toBe(
      '["123.45","-0.05"]',
    );
    const struct = column('s', 41, 1, {
      kind: 'struct',
      fields: [
        { name: 'a', datatype: 30, extension: scale2 },
        { name: 'b', datatype: 30, extension: { kind: 'decimal', precision: 5, scale: -3 } },
      ],
    });
    expect(oneCell({ kind: 'struct', items: [decimal(12345n), decimal(7n)] }, struct)).toBe(
      '["123.45","7000"]',
    );
    const negative = column('d', 30, 1, { kind: 'decimal', precision: 10, scale: -2 });
    expect(oneCell(decimal(123n), negative)).toBe('"12300"');
    // No decimal extension: GreptimeDB's DECIMAL128_DEFAULT_SCALE.
    expect(oneCell(decimal(12345678901n), column('d', 30, 1))).toBe('"1.2345678901"');
    expect(oneCell({ kind: 'list', items: [decimal(1n)] })).toBe('["0.0000000001"]');
  });

  it('writes f32 in its shortest round-trip form and keeps the sign of -0', () => {
    const bits = new DataView(new ArrayBuffer(4));
    bits.setUint32(0, 0x03b2693b);
    const nine = bits.getFloat32(0);
    expect(oneCell({ kind: 'f32', value: nine })).toBe('1.04860595e-36');
    expect(Math.fround(Number(JSON.parse(oneCell({ kind: 'f32', value: nine }))))).toBe(nine);
    expect(oneCell({ kind: 'f32', value: -0 })).toBe('-0');
    expect(oneCell({ kind: 'f64', value: -0 })).toBe('-0');
    expect(oneCell({ kind: 'f64', value: 0 })).toBe('0');
    expect(oneCell({ kind: 'json', value: { kind: 'float', value: -0 } })).toBe('-0');
  });

  it('keeps a leading byte-order mark in binary JSON: not JSON, so shown as its bytes', () => {
    const json = column('j', 11, 1, { kind: 'json' });
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}'));
    expect(oneCell({ kind: 'binary', value: bom }, json)).toBe('"efbbbf7b2261223a317d"');
  });

  it('merges a mutation whose rows come in two parts, and a list value in two parts', () => {
    const bytes = new Wire()
      .message(1, (m) =>
        m
          .int(1, 1)
          .message(3, (r) =>
            r
              .message(1, (c) => c.text(1, 'a').int(2, 3))
              .message(2, (row) => row.message(1, (v) => v.int(3, 1))),
          )
          .message(3, (r) =>
            r
              .message(1, (c) => c.text(1, 'b').int(2, 12))
              .message(2, (row) =>
                row.message(1, (v) => v.int(3, 2)).message(1, (v) => v.text(13, 'x')),
              ),
          ),
      )
      .done();
    const text = decodeEntryTable(bytes);
    expect(text.ok && text.table.mutations[0]!.columns.map((c) => c.key)).toEqual(['a', 'b']);
    expect(cellsOf(bytes)).toEqual([
      ['1', 'null'],
      ['2', '"x"'],
    ]);
    const list = rawCell((v) =>
      v
        .message(40, (l) => l.message(1, (i) => writeValue(i, { kind: 'i32', value: 1 })))
        .message(40, (l) => l.message(1, (i) => writeValue(i, { kind: 'i32', value: 2 }))),
    );
    expect(list).toBe('[1,2]');
    // A different case in between starts the list afresh; a decimal's halves merge.
    expect(
      rawCell((v) =>
        v
          .message(40, (l) => l.message(1, (i) => writeValue(i, { kind: 'i32', value: 1 })))
          .int(3, 5)
          .message(40, (l) => l.message(1, (i) => writeValue(i, { kind: 'i32', value: 2 }))),
      ),
    ).toBe('[2]');
    expect(
      rawCell(
        (v) => v.message(31, (d) => d.int(2, 12345)).message(31, (d) => d.int(1, 0)),
        (c) =>
          c
            .text(1, 'd')
            .int(2, 30)
            .message(4, (e) => e.message(1, (x) => x.int(1, 10).int(2, 2))),
      ),
    ).toBe('"123.45"');
  });

  it('reads DATETIME as microseconds, INTERVAL_DAY_TIME as days and milliseconds, narrows small ints', () => {
    expect(oneCell({ kind: 'datetime', value: 1_767_225_600_000_001n })).toBe(
      '"2026-01-01T00:00:00.000001Z"',
    );
    expect(oneCell({ kind: 'interval_day_time', value: (3n << 32n) | 5n })).toBe(
      '{"days":3,"milliseconds":5}',
    );
    expect(oneCell({ kind: 'interval_day_time', value: (1n << 32n) | 0xffffffffn })).toBe(
      '{"days":1,"milliseconds":-1}',
    );
    expect(rawCell((v) => v.int(1, 300))).toBe('44');
    expect(rawCell((v) => v.int(1, -129))).toBe('127');
    expect(rawCell((v) => v.int(2, 70_000))).toBe('4464');
    expect(rawCell((v) => v.int(5, 300))).toBe('44');
    expect(rawCell((v) => v.int(6, 70_000))).toBe('4464');
  });

  it('keeps a known value case when an unknown field follows it, as prost does', () => {
    expect(rawCell((v) => v.int(3, 7).int(99, 1))).toBe('7');
    expect(rawCell((v) => v.int(99, 1).int(3, 7))).toBe('7');
    expect(rawCell((v) => v.int(99, 1))).toBe('{"kind":99,"hex":"01"}');
    expect(rawCell((v) => v.message(42, (j) => j.text(5, 'x').int(20, 1)))).toBe('"x"');
  });

  it('writes 64-bit integers as JSON strings (the protobuf JSON mapping); CSV and filters keep the digits', () => {
    const big = oneCell({ kind: 'i64', value: -(2n ** 63n) });
    expect(big).toBe('"-9223372036854775808"');
    expect(cellText(big)).toBe('-9223372036854775808');
    expect(oneCell({ kind: 'u64', value: 2n ** 64n - 1n })).toBe('"18446744073709551615"');
    expect(
      oneCell({ kind: 'interval_month_day_nano', months: 1, days: 2, nanoseconds: 2n ** 60n }),
    ).toBe(`{"months":1,"days":2,"nanoseconds":"${2n ** 60n}"}`);
    // Past what a Date holds, a timestamp is its number, as a string.
    expect(oneCell({ kind: 'timestamp', unit: 's', value: 2n ** 62n })).toBe(`"${2n ** 62n}"`);
  });
});
