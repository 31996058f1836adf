/**
 * The one walk over a WAL entry's payload as GreptimeDB's region engine writes it: a protobuf
 * `greptime.v1.WalEntry` (spec: greptimedb-entries.md; the message definitions are written
 * here from it, field number by field number). Every decoder runs it - typed values, cell
 * texts, or a check that only counts - and differs only in what its `RowsBuilder` makes of
 * each scanned value, so each fails the same payload the same way: the entry, or why the
 * payload is not one (truncated, a bad varint or tag, a known field with the wrong wire type,
 * a string that is not UTF-8, values nested too deep, tables too wide or a decimal scale
 * decimal128 cannot have: entry-bounds.ts) with the byte offset of the field that failed. Unknown fields are skipped, unknown enum values kept as numbers. Nothing is
 * allocated from a declared length before its bytes are there. Pure.
 */
import type { EntryDecodeFailure, GtBulkSummary } from '../entry-table';
import { EntryReader, WIRE } from './entry-reader';
import { scanValue, ScannedValue } from './decode-value';
import { EntryCellBudget } from './entry-bounds';
import type { GtColumnSchema } from './wal-entry';
import { columnAt } from './walk-schema';

const V = WIRE.varint;
const LD = WIRE.delimited;

/** A mutation's op and start sequence as read so far (a field written later replaces them). */
export interface MutationHead {
  opType: number;
  sequence: bigint;
}

/** What a decoder makes of the rows of one `Rows` message. */
export interface RowsBuilder<R> extends ValueSink {
  /** A `Rows` message starts; `schema` fills as its columns are read, `head` as its mutation's. */
  begin(schema: readonly GtColumnSchema[], head: MutationHead): void;
  /** A `Row` starts: its values lie from `d.pos` to `end` of the payload. */
  row(d: EntryReader, end: number): void;
  end(): R;
}

/** A `Rows` message as counted by the walk, whatever its builder made. */
export interface RowsShape {
  readonly schema: readonly GtColumnSchema[];
  readonly rows: number;
  /** The most values a row holds (at least the schema's width). */
  readonly width: number;
  /** Some row holds more or fewer values than the schema has columns. */
  readonly ragged: boolean;
  /** A column came after a row (never from prost): cells were made before it was known. */
  readonly lateSchema: boolean;
}

export interface WalkedMutation<R> {
  /** `OpType` number: 0 DELETE (also when absent), 1 PUT. */
  readonly opType: number;
  /** The start sequence: the mutation's row `i` has sequence + i. */
  readonly sequence: bigint;
  readonly rows: { readonly shape: RowsShape; readonly built: R } | null;
  /** `WriteHint.primary_key_encoding` (0 DENSE, 1 SPARSE); null when no hint was written. */
  readonly primaryKeyEncoding: number | null;
}

export interface WalkedEntry<R> {
  readonly mutations: ReadonlyArray<WalkedMutation<R>>;
  /** Summaries with their Arrow IPC bytes (bulk/ decodes them). */
  readonly bulkEntries: readonly WalkedBulk[];
}

export type Walked<R> =
  | { readonly ok: true; readonly entry: WalkedEntry<R> }
  | { readonly ok: false; readonly failure: EntryDecodeFailure };

/** What takes a row's values, one by one as they are scanned. */
export interface ValueSink {
  /** The `index`-th value of the row, just scanned. */
  cell(d: EntryReader, scanned: ScannedValue, index: number): void;
}

/** The values of a `Row` from `d.pos` to `end`, each handed to `sink`; returns how many. */
function rowValues(d: EntryReader, end: number, scanned: ScannedValue, sink: ValueSink): number {
  let count = 0;
  while (d.pos < end) {
    const tag = d.tag();
    if (tag >>> 3 === 1) {
      scanValue(d, d.nested(tag, end), 0, scanned);
      sink.cell(d, scanned, count++);
    } else d.skip(tag, end);
  }
  return count;
}

/** One `Row`: its values handed to the builder; returns how many it holds. */
function readRow<R>(
  d: EntryReader,
  end: number,
  builder: RowsBuilder<R>,
  scanned: ScannedValue,
): number {
  d.message = 'Row';
  builder.row(d, end);
  const count = rowValues(d, end, scanned, builder);
  d.close(end);
  return count;
}

/** What the parts of one `Rows` field have read so far. */
class RowsState {
  readonly schema: GtColumnSchema[] = [];
  rows = 0;
  shortest = Number.MAX_SAFE_INTEGER;
  longest = 0;
  lateSchema = false;

  shape(): RowsShape {
    const { schema, rows, shortest, longest, lateSchema } = this;
    const width = Math.max(longest, schema.length);
    const ragged = rows > 0 && (shortest !== schema.length || longest !== schema.length);
    return { schema, rows, width, ragged, lateSchema };
  }
}

/**
 * One part of a mutation's `rows`: protobuf merges an embedded message written twice, so a
 * second part's columns and rows extend the first's (prost reads them so).
 */
function readRows<R>(
  d: EntryReader,
  end: number,
  builder: RowsBuilder<R>,
  scanned: ScannedValue,
  state: RowsState,
): void {
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    if (field === 1) {
      state.lateSchema ||= state.rows > 0;
      state.schema.push(columnAt(d, d.nested(tag, end), state.schema.length));
    } else if (field === 2) {
      const count = readRow(d, d.nested(tag, end), builder, scanned);
      state.rows += 1;
      if (count < state.shortest) state.shortest = count;
      if (count > state.longest) state.longest = count;
    } else d.skip(tag, end);
    d.message = 'Rows';
  }
  d.close(end);
}

/** `WriteHint`; a second part keeps the first's encoding unless it sets one. */
function readWriteHint(d: EntryReader, end: number, encoding: number): number {
  d.fields(end, (field, tag) => {
    if (field !== 1) return false;
    d.expect(tag, V);
    encoding = d.int32();
    return true;
  });
  return encoding;
}

function readMutation<R>(
  d: EntryReader,
  end: number,
  builder: RowsBuilder<R>,
  scanned: ScannedValue,
  budget: EntryCellBudget,
): WalkedMutation<R> {
  const head: MutationHead = { opType: 0, sequence: 0n };
  let rows: RowsState | null = null;
  let primaryKeyEncoding: number | null = null;
  while (d.pos < end) {
    d.message = 'Mutation';
    const tag = d.tag();
    switch (tag >>> 3) {
      case 1:
        d.expect(tag, V);
        head.opType = d.int32();
        break;
      case 2:
        d.expect(tag, V);
        head.sequence = d.uint64();
        break;
      case 3:
        d.message = 'Rows';
        if (rows === null) {
          rows = new RowsState();
          builder.begin(rows.schema, head);
        }
        readRows(d, d.nested(tag, end), builder, scanned, rows);
        break;
      case 4:
        primaryKeyEncoding = readWriteHint(d, d.nested(tag, end), primaryKeyEncoding ?? 0);
        break;
      default:
        d.skip(tag, end);
    }
  }
  d.message = 'Mutation';
  d.close(end);
  const shape = rows?.shape() ?? null;
  // Before a builder pads its short rows: the width x rows it would make is what is bounded.
  if (shape !== null) {
    d.message = 'Rows';
    budget.spend(d, shape.rows, shape.width);
  }
  const built = shape === null ? null : { shape, built: builder.end() };
  return { opType: head.opType, sequence: head.sequence, rows: built, primaryKeyEncoding };
}

/** A bulk entry's Arrow IPC parts, as their bytes in the payload. */
export interface ArrowIpcParts {
  /** The schema message's flatbuffer. */
  readonly schema: Uint8Array;
  /** The record batch message's flatbuffer. */
  readonly dataHeader: Uint8Array;
  /** The record batch's body. */
  readonly payload: Uint8Array;
}

/** A bulk entry as walked: its summary and the bytes of its body. */
export interface WalkedBulk {
  readonly summary: GtBulkSummary;
  readonly ipc: ArrowIpcParts | null;
}

const NO_BYTES = new Uint8Array(0);

/** `ArrowIpc`, merged into a part read before (a bytes field written again replaces it). */
function readArrowIpc(d: EntryReader, end: number, into: ArrowIpcParts | null): ArrowIpcParts {
  const parts = [into?.schema ?? NO_BYTES, into?.dataHeader ?? NO_BYTES, into?.payload ?? NO_BYTES];
  d.fields(end, (field, tag) => {
    if (field < 1 || field > 3) return false;
    d.expect(tag, LD);
    parts[field - 1] = d.bytesField();
    return true;
  });
  return { schema: parts[0]!, dataHeader: parts[1]!, payload: parts[2]! };
}

function readBulkEntry(d: EntryReader, end: number): WalkedBulk {
  d.message = 'BulkWalEntry';
  let sequence = 0n;
  let maxTs = 0n;
  let minTs = 0n;
  let timestampIndex = 0;
  let ipc: ArrowIpcParts | null = null;
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    if (field >= 1 && field <= 4) d.expect(tag, V);
    if (field === 1) sequence = d.uint64();
    else if (field === 2) maxTs = d.int64();
    else if (field === 3) minTs = d.int64();
    else if (field === 4) timestampIndex = d.uint32();
    else if (field === 5) ipc = readArrowIpc(d, d.nested(tag, end), ipc);
    else d.skip(tag, end);
  }
  d.close(end);
  const arrowIpc =
    ipc === null
      ? null
      : {
          schemaBytes: ipc.schema.length,
          dataHeaderBytes: ipc.dataHeader.length,
          payloadBytes: ipc.payload.length,
        };
  return { summary: { sequence, maxTs, minTs, timestampIndex, arrowIpc }, ipc };
}

function readWalEntry<R>(d: EntryReader, builder: RowsBuilder<R>): WalkedEntry<R> {
  const end = d.len;
  const scanned = new ScannedValue();
  const budget = new EntryCellBudget();
  const mutations: Array<WalkedMutation<R>> = [];
  const bulkEntries: WalkedBulk[] = [];
  while (d.pos < end) {
    d.message = 'WalEntry';
    const tag = d.tag();
    const field = tag >>> 3;
    if (field === 1) mutations.push(readMutation(d, d.nested(tag, end), builder, scanned, budget));
    else if (field === 2) bulkEntries.push(readBulkEntry(d, d.nested(tag, end)));
    else d.skip(tag, end);
  }
  return { mutations, bulkEntries };
}

/**
 * The values of one `Row` of a payload that walked whole before (`RowsBuilder.row` told where
 * they lie), handed to `cell` as the walk handed them, without walking the rest again.
 */
export function rowValuesAt(bytes: Uint8Array, start: number, end: number, sink: ValueSink): void {
  const d = new EntryReader(bytes);
  d.pos = start;
  rowValues(d, end, new ScannedValue(), sink);
}

/** The payload walked with `builder`, or the typed reason it is not a `WalEntry`. Never throws. */
export function walkWalEntry<R>(bytes: Uint8Array, builder: RowsBuilder<R>): Walked<R> {
  const reader = new EntryReader(bytes);
  try {
    return { ok: true, entry: readWalEntry(reader, builder) };
  } catch (error) {
    return { ok: false, failure: EntryReader.failureOf(error) };
  }
}
