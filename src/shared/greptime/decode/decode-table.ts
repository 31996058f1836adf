/**
 * A WAL entry's payload decoded straight to the tables the CLI prints and the console shows
 * (`GtEntryTable`): one walk writing each cell's JSON text from the wire, without a typed
 * value per cell, and the same tables `entryTable` makes of the typed decoding (a property
 * test holds the two together). A mutation's columns are made once and, while the schema
 * stays the same, shared with the entries before it. Pure but for that cache of the last
 * columns, which changes no result.
 */
import type {
  EntryDecodeFailure,
  GtBulkDecoding,
  GtBulkEntryTable,
  GtColumnView,
  GtEntryTable,
  GtMutationTable,
} from '../entry-table';
import { scannedJson } from './cell-json';
import { decodeWalEntry } from './decode-entry';
import type { ScannedValue } from './decode-value';
import type { EntryReader } from './entry-reader';
import { columnViews, entryTable, nameOr } from './entry-table';
import {
  walkWalEntry,
  type RowsBuilder,
  type RowsShape,
  type WalkedBulk,
  type WalkedEntry,
} from './walk-entry';
import { OP_TYPE_NAMES, type GtColumnSchema } from './wal-entry';

export type EntryTableDecoding =
  | { readonly ok: true; readonly table: GtEntryTable; readonly entry: WalkedEntry<string[][]> }
  | { readonly ok: false; readonly failure: EntryDecodeFailure };

class CellTexts implements RowsBuilder<string[][]> {
  private schema: readonly GtColumnSchema[] = [];
  private rows: string[][] = [];
  private current: string[] = [];

  begin(schema: readonly GtColumnSchema[]): void {
    this.schema = schema;
    this.rows = [];
  }

  row(): void {
    this.current = [];
    this.rows.push(this.current);
  }

  cell(d: EntryReader, scanned: ScannedValue, index: number): void {
    this.current.push(scannedJson(d, scanned, this.schema[index]));
  }

  end(): string[][] {
    return this.rows;
  }
}

/** Whether two columns have the same view (name, key and type names). */
function sameColumn(a: GtColumnSchema, b: GtColumnSchema): boolean {
  return a.name === b.name && a.datatype === b.datatype && a.semanticType === b.semanticType;
}

/** The columns of the last schema seen: consecutive entries mostly share theirs (a search's too). */
let lastSchema: readonly GtColumnSchema[] = [];
let lastWidth = -1;
let lastViews: GtColumnView[] = [];

export function viewsOf(shape: RowsShape): GtColumnView[] {
  const schema = shape.schema;
  if (
    shape.width !== lastWidth ||
    schema.length !== lastSchema.length ||
    !schema.every((column, at) => sameColumn(column, lastSchema[at]!))
  ) {
    lastViews = columnViews(schema, shape.width);
    lastSchema = schema;
    lastWidth = shape.width;
  }
  return lastViews;
}

function mutationTable(
  opType: number,
  sequence: bigint,
  rows: { shape: RowsShape; built: string[][] } | null,
): GtMutationTable {
  const op = nameOr(OP_TYPE_NAMES, opType);
  if (rows === null) return { op, sequence, columns: [], rows: [] };
  const { shape, built } = rows;
  // A short row's missing values are nulls, as its table shows them.
  if (shape.ragged)
    for (const cells of built) while (cells.length < shape.width) cells.push('null');
  return { op, sequence, columns: viewsOf(shape), rows: built };
}

/**
 * Decodes a bulk entry's Arrow IPC body into rows (greptime/bulk/decode-bulk.ts). Handed in by
 * whoever shows rows, so this decoder does not load the Arrow library for the payloads (most)
 * that hold no bulk entry.
 */
export type BulkRowsDecoder = (bulk: WalkedBulk) => GtBulkDecoding;

function bulkTables(
  bulk: readonly WalkedBulk[],
  decodeBulk: BulkRowsDecoder | undefined,
): GtBulkEntryTable[] {
  return bulk.map((b) => ({
    ...b.summary,
    decoded: decodeBulk === undefined ? null : decodeBulk(b),
  }));
}

/**
 * The payload's tables of cell texts, or the typed reason it is not a `WalEntry`; bulk entries'
 * rows decoded by `decodeBulk` when one is given.
 */
export function decodeEntryTable(
  bytes: Uint8Array,
  decodeBulk?: BulkRowsDecoder,
): EntryTableDecoding {
  const walked = walkWalEntry(bytes, new CellTexts());
  if (!walked.ok) return walked;
  const { mutations, bulkEntries } = walked.entry;
  const bulk = bulkTables(bulkEntries, decodeBulk);
  if (mutations.some((mutation) => mutation.rows?.shape.lateSchema === true)) {
    // Cells were written before their column was known: made again from the typed values.
    const typed = decodeWalEntry(bytes);
    if (typed.ok)
      return {
        ok: true,
        table: { mutations: entryTable(typed.entry).mutations, bulk },
        entry: walked.entry,
      };
  }
  return {
    ok: true,
    table: { mutations: mutations.map((m) => mutationTable(m.opType, m.sequence, m.rows)), bulk },
    entry: walked.entry,
  };
}
