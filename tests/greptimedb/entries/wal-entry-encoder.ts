/**
 * A `greptime.v1.WalEntry` encoder written for the tests from the protobuf wire format and the
 * field numbers of spec/greptimedb-entries.md - varints, tags, length prefixes and little-endian
 * floats by hand, never the decoder's library - so a decode test checks the product against an
 * independent reading of the spec. Like prost, it leaves proto3 fields at their default out
 * and always writes a set oneof case.
 */
import type {
  GtColumnSchema,
  GtJson,
  GtValue,
  GtWalEntry,
} from '../../../src/shared/greptime/decode/wal-entry';

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

export class Wire {
  readonly bytes: number[] = [];

  varint(value: bigint | number): this {
    let v = BigInt.asUintN(64, BigInt(value));
    do {
      const low = Number(v & 0x7fn);
      v >>= 7n;
      this.bytes.push(v === 0n ? low : low | 0x80);
    } while (v !== 0n);
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }

  /** A varint field (int32 negatives sign-extended to 10 bytes, as protobuf does). */
  int(field: number, value: bigint | number): this {
    return this.tag(field, VARINT).varint(value);
  }

  len(field: number, body: Uint8Array | number[]): this {
    this.tag(field, LEN).varint(body.length);
    for (const byte of body) this.bytes.push(byte);
    return this;
  }

  text(field: number, value: string): this {
    return this.len(field, [...new TextEncoder().encode(value)]);
  }

  message(field: number, build: (wire: Wire) => void): this {
    const inner = new Wire();
    build(inner);
    return this.len(field, inner.bytes);
  }

  float(field: number, value: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.tag(field, I32);
    for (const byte of b) this.bytes.push(byte);
    return this;
  }

  double(field: number, value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.tag(field, I64);
    for (const byte of b) this.bytes.push(byte);
    return this;
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const INT_FIELDS: Record<string, number> = {
  i8: 1,
  i16: 2,
  i32: 3,
  i64: 4,
  u8: 5,
  u16: 6,
  u32: 7,
  u64: 8,
  date: 14,
  datetime: 15,
  interval_year_month: 24,
  interval_day_time: 25,
};
const UNIT_OFFSET = { s: 0, ms: 1, us: 2, ns: 3 } as const;

function writeJson(w: Wire, json: GtJson): void {
  if (json === null) return;
  switch (json.kind) {
    case 'boolean':
      w.int(1, json.value ? 1 : 0);
      return;
    case 'int':
      w.int(2, json.value);
      return;
    case 'uint':
      w.int(3, json.value);
      return;
    case 'float':
      w.double(4, json.value);
      return;
    case 'str':
      w.text(5, json.value);
      return;
    case 'array':
      w.message(6, (a) => json.items.forEach((item) => a.message(1, (i) => writeJson(i, item))));
      return;
    case 'object':
      w.message(7, (o) =>
        json.entries.forEach((entry) =>
          o.message(1, (e) => {
            e.text(1, entry.key);
            e.message(2, (v) => writeJson(v, entry.value));
          }),
        ),
      );
      return;
    case 'variant':
      w.len(8, json.bytes);
      return;
    case 'unknown':
      w.int(json.field, 0);
  }
}

export function writeValue(w: Wire, value: GtValue): void {
  if (value === null) return;
  switch (value.kind) {
    case 'bool':
      w.int(11, value.value ? 1 : 0);
      return;
    case 'f32':
      w.float(9, value.value);
      return;
    case 'f64':
      w.double(10, value.value);
      return;
    case 'binary':
      w.len(12, value.value);
      return;
    case 'string':
      w.text(13, value.value);
      return;
    case 'timestamp':
      w.int(16 + UNIT_OFFSET[value.unit], value.value);
      return;
    case 'time':
      w.int(20 + UNIT_OFFSET[value.unit], value.value);
      return;
    case 'interval_month_day_nano':
      w.message(26, (m) => {
        if (value.months !== 0) m.int(1, value.months);
        if (value.days !== 0) m.int(2, value.days);
        if (value.nanoseconds !== 0n) m.int(3, value.nanoseconds);
      });
      return;
    case 'decimal128':
      w.message(31, (m) => {
        if (value.hi !== 0n) m.int(1, value.hi);
        if (value.lo !== 0n) m.int(2, value.lo);
      });
      return;
    case 'list':
      w.message(40, (m) => value.items.forEach((item) => m.message(1, (i) => writeValue(i, item))));
      return;
    case 'struct':
      w.message(41, (m) => value.items.forEach((item) => m.message(2, (i) => writeValue(i, item))));
      return;
    case 'json':
      w.message(42, (m) => writeJson(m, value.value));
      return;
    case 'unknown':
      w.tag(value.field, value.wireType);
      for (const byte of value.bytes) w.bytes.push(byte);
      return;
    default:
      w.int(INT_FIELDS[value.kind]!, value.value);
  }
}

type Extension = NonNullable<GtColumnSchema['extension']>;

/** A list's or struct's extension (the case's message), nested extensions included. */
function writeExtension(e: Wire, extension: Extension): void {
  const nested = (w: Wire, field: number, inner: Extension | null): void => {
    if (inner !== null) w.message(field, (x) => writeCase(x, inner));
  };
  if (extension.kind === 'list')
    e.message(4, (l) => {
      if (extension.datatype !== 0) l.int(1, extension.datatype);
      nested(l, 2, extension.extension);
    });
  else if (extension.kind === 'struct')
    e.message(5, (s) =>
      extension.fields.forEach((field) =>
        s.message(1, (f) => {
          if (field.name !== '') f.text(1, field.name);
          if (field.datatype !== 0) f.int(2, field.datatype);
          nested(f, 3, field.extension);
        }),
      ),
    );
}

/** A `ColumnDataTypeExtension`'s set case. */
export function writeCase(e: Wire, extension: Extension): void {
  if (extension.kind === 'decimal')
    e.message(1, (d) => {
      if (extension.precision !== 0) d.int(1, extension.precision);
      if (extension.scale !== 0) d.int(2, extension.scale);
    });
  else if (extension.kind === 'json') e.int(2, 0);
  else if (extension.kind === 'other') e.message(extension.field, () => undefined);
  else writeExtension(e, extension);
}

function writeColumn(w: Wire, column: GtColumnSchema): void {
  if (column.name !== '') w.text(1, column.name);
  if (column.datatype !== 0) w.int(2, column.datatype);
  if (column.semanticType !== 0) w.int(3, column.semanticType);
  const extension = column.extension;
  if (extension !== null) w.message(4, (e) => writeCase(e, extension));
  if (column.options.length > 0)
    w.message(5, (o) =>
      column.options.forEach(([key, value]) =>
        o.message(1, (entry) => entry.text(1, key).text(2, value)),
      ),
    );
}

export function encodeWalEntry(entry: GtWalEntry): Uint8Array {
  const w = new Wire();
  for (const mutation of entry.mutations)
    w.message(1, (m) => {
      if (mutation.opType !== 0) m.int(1, mutation.opType);
      if (mutation.sequence !== 0n) m.int(2, mutation.sequence);
      const rows = mutation.rows;
      if (rows !== null)
        m.message(3, (r) => {
          rows.schema.forEach((column) => r.message(1, (c) => writeColumn(c, column)));
          rows.rows.forEach((row) =>
            r.message(2, (values) =>
              row.forEach((value) => values.message(1, (v) => writeValue(v, value))),
            ),
          );
        });
      if (mutation.primaryKeyEncoding !== null) {
        const encoding = mutation.primaryKeyEncoding;
        m.message(4, (h) => {
          if (encoding !== 0) h.int(1, encoding);
        });
      }
    });
  for (const bulk of entry.bulkEntries)
    w.message(2, (b) => {
      if (bulk.sequence !== 0n) b.int(1, bulk.sequence);
      if (bulk.maxTs !== 0n) b.int(2, bulk.maxTs);
      if (bulk.minTs !== 0n) b.int(3, bulk.minTs);
      if (bulk.timestampIndex !== 0) b.int(4, bulk.timestampIndex);
      const ipc = bulk.arrowIpc;
      if (ipc !== null)
        b.message(5, (a) => {
          if (ipc.schemaBytes > 0) a.len(1, new Uint8Array(ipc.schemaBytes).fill(1));
          if (ipc.dataHeaderBytes > 0) a.len(2, new Uint8Array(ipc.dataHeaderBytes).fill(2));
          if (ipc.payloadBytes > 0) a.len(3, new Uint8Array(ipc.payloadBytes).fill(3));
        });
    });
  return w.done();
}

/** A column of the metrics table most tests use. */
export function column(
  name: string,
  datatype: number,
  semanticType: number,
  extension: GtColumnSchema['extension'] = null,
): GtColumnSchema {
  return { name, datatype, semanticType, extension, options: [] };
}
