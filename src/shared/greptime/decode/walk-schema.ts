/**
 * A `ColumnSchema` of a WAL entry's `Rows`, read for the walk (walk-entry.ts): its name, data
 * type, semantic type, options and type extensions (decimal, list, struct), each field as
 * greptimedb-entries.md numbers it, failing as the walk fails. A schema's columns repeat entry
 * after entry, so the last ones read are kept by place and their bytes compared. Pure but for
 * that cache, which changes no result.
 */
import { EntryReader, MAX_VALUE_DEPTH, WIRE } from './entry-reader';
import { checkDecimalScale } from './entry-bounds';
import type { GtColumnExtension, GtColumnSchema, GtStructField } from './wal-entry';

const V = WIRE.varint;
const LD = WIRE.delimited;

/** `DecimalTypeExtension`, merged into `into` (a field written twice merges, as protobuf does). */
function readDecimalType(
  d: EntryReader,
  end: number,
  into: GtColumnExtension | null,
): GtColumnExtension {
  const decimal =
    into?.kind === 'decimal' ? { ...into } : { kind: 'decimal' as const, precision: 0, scale: 0 };
  d.fields(end, (field, tag) => {
    if (field !== 1 && field !== 2) return false;
    d.expect(tag, V);
    decimal[field === 1 ? 'precision' : 'scale'] = d.int32();
    return true;
  });
  checkDecimalScale(d, decimal.scale);
  return decimal;
}

/** `ListTypeExtension`: the items' datatype and their own extension. */
function readListType(
  d: EntryReader,
  end: number,
  into: GtColumnExtension | null,
  depth: number,
): GtColumnExtension {
  let datatype = into?.kind === 'list' ? into.datatype : 0;
  let extension = into?.kind === 'list' ? into.extension : null;
  d.fields(end, (field, tag) => {
    if (field === 1) {
      d.expect(tag, V);
      datatype = d.int32();
    } else if (field === 2) extension = readExtension(d, d.nested(tag, end), extension, depth + 1);
    else return false;
    return true;
  });
  return { kind: 'list', datatype, extension };
}

/** `StructField`: name, datatype, extension. */
function readStructField(d: EntryReader, end: number, depth: number): GtStructField {
  let name = '';
  let datatype = 0;
  let extension: GtColumnExtension | null = null;
  d.fields(end, (field, tag) => {
    if (field === 1) {
      d.expect(tag, LD);
      name = d.string();
    } else if (field === 2) {
      d.expect(tag, V);
      datatype = d.int32();
    } else if (field === 3) extension = readExtension(d, d.nested(tag, end), extension, depth + 1);
    else return false;
    return true;
  });
  return { name, datatype, extension };
}

/** `StructTypeExtension`: its fields, appended to those of a part read before. */
function readStructType(
  d: EntryReader,
  end: number,
  into: GtColumnExtension | null,
  depth: number,
): GtColumnExtension {
  const fields: GtStructField[] = into?.kind === 'struct' ? [...into.fields] : [];
  d.fields(end, (field, tag) => {
    if (field !== 1) return false;
    fields.push(readStructField(d, d.nested(tag, end), depth));
    return true;
  });
  return { kind: 'struct', fields };
}

/**
 * `ColumnDataTypeExtension` (a oneof), merged into what an earlier part of the same field
 * read when it set the same case; list and struct extensions nest, bounded like values.
 */
function readExtension(
  d: EntryReader,
  end: number,
  into: GtColumnExtension | null,
  depth: number,
): GtColumnExtension | null {
  if (depth > MAX_VALUE_DEPTH)
    d.fail('too-deep', `type extensions nest past ${MAX_VALUE_DEPTH} levels`);
  let extension = into;
  d.fields(end, (field, tag) => {
    if (field === 1) extension = readDecimalType(d, d.nested(tag, end), extension);
    else if (field === 4) extension = readListType(d, d.nested(tag, end), extension, depth);
    else if (field === 5) extension = readStructType(d, d.nested(tag, end), extension, depth);
    else if (field === 2 || field === 3 || field === 6 || field === 7) {
      // json_type (2) says the binary column holds JSON; the other known cases by number.
      d.skip(tag, end);
      extension = field === 2 ? { kind: 'json' } : { kind: 'other', field };
    } else return false; // a case this reader does not know leaves the one set, as in prost
    return true;
  });
  return extension;
}

/** `ColumnOptions.options`, a map<string, string>: its entries in wire order. */
function readOptions(d: EntryReader, end: number, into: Array<readonly [string, string]>): void {
  d.fields(end, (field, tag) => {
    if (field !== 1) return false;
    const entry = ['', ''];
    d.fields(d.nested(tag, end), (inner, innerTag) => {
      if (inner !== 1 && inner !== 2) return false;
      d.expect(innerTag, LD);
      entry[inner - 1] = d.string();
      return true;
    });
    into.push([entry[0]!, entry[1]!]);
    return true;
  });
}

function readColumnSchema(d: EntryReader, end: number): GtColumnSchema {
  d.message = 'ColumnSchema';
  let name = '';
  let datatype = 0;
  let semanticType = 0;
  let extension: GtColumnExtension | null = null;
  const options: Array<readonly [string, string]> = [];
  while (d.pos < end) {
    const tag = d.tag();
    switch (tag >>> 3) {
      case 1:
        d.expect(tag, LD);
        name = d.string();
        break;
      case 2:
        d.expect(tag, V);
        datatype = d.int32();
        break;
      case 3:
        d.expect(tag, V);
        semanticType = d.int32();
        break;
      case 4:
        extension = readExtension(d, d.nested(tag, end), extension, 0);
        break;
      case 5:
        readOptions(d, d.nested(tag, end), options);
        break;
      default:
        d.skip(tag, end);
    }
  }
  d.close(end);
  return { name, datatype, semanticType, extension, options };
}

/**
 * The columns last read, by their place in a schema, with their bytes: consecutive entries
 * mostly repeat their schema, and the same bytes read the same (a column that read without
 * failing reads so again), so they are compared instead of read again.
 */
const lastColumns: Array<{ readonly bytes: Uint8Array; readonly column: GtColumnSchema }> = [];
const MAX_KEPT_COLUMNS = 64;

function sameBytes(known: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (known.length !== end - start) return false;
  for (let at = 0; at < known.length; at++) if (known[at] !== bytes[start + at]) return false;
  return true;
}

export function columnAt(d: EntryReader, end: number, index: number): GtColumnSchema {
  const start = d.pos;
  const known = lastColumns[index];
  if (known !== undefined && sameBytes(known.bytes, d.bytes, start, end)) {
    d.pos = end;
    return known.column;
  }
  const column = readColumnSchema(d, end);
  if (index < MAX_KEPT_COLUMNS) lastColumns[index] = { bytes: d.bytes.slice(start, end), column };
  return column;
}
