/**
 * Decodes a WAL entry's payload as GreptimeDB's region engine writes it: one protobuf
 * `greptime.v1.WalEntry` (spec: greptimedb-entries.md; the message definitions are written
 * here from it, field number by field number). The result is typed and never thrown: the
 * entry, or why the payload is not one (truncated, a bad varint or tag, a known field with
 * the wrong wire type, a string that is not UTF-8, values nested too deep) with the byte
 * offset of the field that failed. Unknown fields are skipped, unknown enum values kept as
 * numbers. Nothing is allocated from a declared length before its bytes are there. Pure.
 */
import type { EntryDecodeFailure, GtBulkSummary } from '../entry-table';
import { EntryReader, WIRE } from './entry-reader';
import { readValue } from './decode-value';
import type {
  GtColumnExtension,
  GtColumnSchema,
  GtMutation,
  GtRows,
  GtValue,
  GtWalEntry,
} from './wal-entry';

const V = WIRE.varint;
const LD = WIRE.delimited;

export type WalEntryDecoding =
  | { readonly ok: true; readonly entry: GtWalEntry }
  | { readonly ok: false; readonly failure: EntryDecodeFailure };

function readExtension(d: EntryReader, end: number): GtColumnExtension | null {
  let extension: GtColumnExtension | null = null;
  d.fields(end, (field, tag) => {
    if (field === 1) {
      const decimal = { precision: 0, scale: 0 };
      d.fields(d.nested(tag, end), (inner, innerTag) => {
        if (inner !== 1 && inner !== 2) return false;
        d.expect(innerTag, V);
        decimal[inner === 1 ? 'precision' : 'scale'] = d.r.int32();
        return true;
      });
      extension = { kind: 'decimal', ...decimal };
    } else {
      // json_type (2) says the binary column holds JSON; later cases are named by number.
      d.skip(tag, end);
      extension = field === 2 ? { kind: 'json' } : { kind: 'other', field };
    }
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
        datatype = d.r.int32();
        break;
      case 3:
        d.expect(tag, V);
        semanticType = d.r.int32();
        break;
      case 4:
        extension = readExtension(d, d.nested(tag, end));
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

function readRow(d: EntryReader, end: number): GtValue[] {
  d.message = 'Row';
  const values: GtValue[] = [];
  while (d.pos < end) {
    const tag = d.tag();
    if (tag >>> 3 === 1) values.push(readValue(d, d.nested(tag, end)));
    else d.skip(tag, end);
  }
  d.close(end);
  return values;
}

function readRows(d: EntryReader, end: number): GtRows {
  const schema: GtColumnSchema[] = [];
  const rows: GtValue[][] = [];
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    if (field === 1) schema.push(readColumnSchema(d, d.nested(tag, end)));
    else if (field === 2) rows.push(readRow(d, d.nested(tag, end)));
    else d.skip(tag, end);
    d.message = 'Rows';
  }
  d.close(end);
  return { schema, rows };
}

function readWriteHint(d: EntryReader, end: number): number {
  let encoding = 0;
  d.fields(end, (field, tag) => {
    if (field !== 1) return false;
    d.expect(tag, V);
    encoding = d.r.int32();
    return true;
  });
  return encoding;
}

function readMutation(d: EntryReader, end: number): GtMutation {
  let opType = 0;
  let sequence = 0n;
  let rows: GtRows | null = null;
  let primaryKeyEncoding: number | null = null;
  while (d.pos < end) {
    d.message = 'Mutation';
    const tag = d.tag();
    switch (tag >>> 3) {
      case 1:
        d.expect(tag, V);
        opType = d.r.int32();
        break;
      case 2:
        d.expect(tag, V);
        sequence = d.uint64();
        break;
      case 3:
        d.message = 'Rows';
        rows = readRows(d, d.nested(tag, end));
        break;
      case 4:
        primaryKeyEncoding = readWriteHint(d, d.nested(tag, end));
        break;
      default:
        d.skip(tag, end);
    }
  }
  d.message = 'Mutation';
  d.close(end);
  return { opType, sequence, rows, primaryKeyEncoding };
}

/** `ArrowIpc`: the sizes of its three byte fields (the batch itself is not decoded). */
function readArrowIpc(d: EntryReader, end: number): GtBulkSummary['arrowIpc'] {
  const sizes = [0, 0, 0];
  d.fields(end, (field, tag) => {
    if (field < 1 || field > 3) return false;
    d.expect(tag, LD);
    sizes[field - 1] = d.r.bytes().length;
    return true;
  });
  return { schemaBytes: sizes[0]!, dataHeaderBytes: sizes[1]!, payloadBytes: sizes[2]! };
}

function readBulkEntry(d: EntryReader, end: number): GtBulkSummary {
  d.message = 'BulkWalEntry';
  let sequence = 0n;
  let maxTs = 0n;
  let minTs = 0n;
  let timestampIndex = 0;
  let arrowIpc: GtBulkSummary['arrowIpc'] = null;
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    if (field >= 1 && field <= 4) d.expect(tag, V);
    if (field === 1) sequence = d.uint64();
    else if (field === 2) maxTs = d.int64();
    else if (field === 3) minTs = d.int64();
    else if (field === 4) timestampIndex = d.r.uint32();
    else if (field === 5) arrowIpc = readArrowIpc(d, d.nested(tag, end));
    else d.skip(tag, end);
  }
  d.close(end);
  return { sequence, maxTs, minTs, timestampIndex, arrowIpc };
}

function readWalEntry(d: EntryReader, end: number): GtWalEntry {
  const mutations: GtMutation[] = [];
  const bulkEntries: GtBulkSummary[] = [];
  while (d.pos < end) {
    d.message = 'WalEntry';
    const tag = d.tag();
    const field = tag >>> 3;
    if (field === 1) mutations.push(readMutation(d, d.nested(tag, end)));
    else if (field === 2) bulkEntries.push(readBulkEntry(d, d.nested(tag, end)));
    else d.skip(tag, end);
  }
  return { mutations, bulkEntries };
}

/** The payload as a `WalEntry`, or the typed reason it is not one. Never throws on the bytes. */
export function decodeWalEntry(bytes: Uint8Array): WalEntryDecoding {
  const reader = new EntryReader(bytes);
  try {
    return { ok: true, entry: readWalEntry(reader, bytes.length) };
  } catch (error) {
    return { ok: false, failure: reader.failureOf(error) };
  }
}
