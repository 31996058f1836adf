/**
 * A replayed WAL entry's payload as people and tools see it, in the one shape the CLI prints
 * and the console receives: a GreptimeDB `WalEntry` as tables (each mutation's columns and its
 * rows, every cell already its exact JSON text), its bulk entries as summaries with their Arrow
 * record batches' rows (or why those do not decode), or why the
 * payload is not a `WalEntry` (reason and byte offset). The decoder builds these
 * (greptime/decode); this module only names the shapes, so main and renderer agree.
 */

/** Why a payload is not a `WalEntry`, at which byte of the payload. */
export type EntryDecodeReason =
  | 'truncated'
  | 'invalid-varint'
  | 'invalid-tag'
  | 'wrong-wire-type'
  | 'invalid-utf8'
  | 'too-deep'
  /** Its tables would hold more cells than one entry may (decode/entry-bounds.ts). */
  | 'entry-too-wide'
  /** A decimal column's scale outside decimal128's 0-38. */
  | 'decimal-scale';

export interface EntryDecodeFailure {
  readonly reason: EntryDecodeReason;
  readonly offset: number;
  readonly detail: string;
}

export interface GtColumnView {
  readonly name: string;
  /** The key its cells have in a row line: the name, unless a fixed key or an earlier column has it. */
  readonly key: string;
  /** `ColumnDataType` name, or its number when the spec does not name it. */
  readonly datatype: string | number;
  /** TAG, FIELD or TIMESTAMP (the time index), or the number. */
  readonly semantic: string | number;
}

export interface GtMutationTable {
  /** PUT or DELETE, or the `OpType` number. */
  readonly op: string | number;
  /** The first row's sequence; row `i` has sequence + i. */
  readonly sequence: bigint;
  readonly columns: readonly GtColumnView[];
  /** Per row, one JSON text per column (`null` for a missing or null value). */
  readonly rows: ReadonlyArray<readonly string[]>;
}

/** A bulk entry as its summary (what the payload says of it, its Arrow batch aside). */
export interface GtBulkSummary {
  readonly sequence: bigint;
  readonly minTs: bigint;
  readonly maxTs: bigint;
  /** The time index column. */
  readonly timestampIndex: number;
  /** The Arrow IPC body's parts and their sizes; null when the entry has no body. */
  readonly arrowIpc: {
    readonly schemaBytes: number;
    readonly dataHeaderBytes: number;
    readonly payloadBytes: number;
  } | null;
}

/** Why a bulk entry's Arrow IPC body gives no rows. */
export type BulkDecodeReason =
  /** The entry has no body (GreptimeDB's replay stops on it: "Entry payload should be present"). */
  | 'no-body'
  /** The schema or record batch message is not what Arrow IPC says (flatbuffer, lengths, type). */
  | 'invalid-ipc'
  /** It declares more rows or bytes than its body holds. */
  | 'too-large'
  /** Arrow IPC that needs what a WAL entry cannot carry (a dictionary, compression, a union). */
  | 'unsupported';

export interface BulkDecodeFailure {
  readonly reason: BulkDecodeReason;
  readonly detail: string;
}

/** The time index's values checked against the entry's `min_ts` / `max_ts`. */
export interface GtBulkTimeCheck {
  /** The smallest and largest time index value among the rows (its raw number). */
  readonly min: bigint | null;
  readonly max: bigint | null;
  /** Why they are not the entry's, or null when they are. */
  readonly problem: string | null;
}

/** A bulk entry's Arrow record batch as rows: a table like a mutation's, and its time check. */
export type GtBulkDecoding =
  | { readonly ok: true; readonly table: GtMutationTable; readonly time: GtBulkTimeCheck }
  | { readonly ok: false; readonly failure: BulkDecodeFailure };

/** A bulk entry: its summary, and its rows where they were decoded (null where they were not). */
export interface GtBulkEntryTable extends GtBulkSummary {
  readonly decoded: GtBulkDecoding | null;
}

export interface GtEntryTable {
  readonly mutations: readonly GtMutationTable[];
  readonly bulk: readonly GtBulkEntryTable[];
}

/** The tables of the entry's rows: its mutations', then its decoded bulk entries'. */
export function rowTables(table: GtEntryTable): GtMutationTable[] {
  const tables = [...table.mutations];
  for (const bulk of table.bulk) if (bulk.decoded?.ok === true) tables.push(bulk.decoded.table);
  return tables;
}

/**
 * The keys every row line starts with; a column never takes one of them. Ids as the CLI prints
 * every id: the notation people type, with the decimal u64 beside it.
 */
export const ROW_FIXED_KEYS = ['region', 'regionU64', 'id', 'idU64', 'op', 'sequence'] as const;

/** What a payload is when it is not rows. */
export type PayloadOther =
  /** A GreptimeDB payload that does not decode: shown raw, with the reason. */
  | { readonly kind: 'not-wal-entry'; readonly failure: EntryDecodeFailure }
  /** A Cairn payload that is JSON text. */
  | { readonly kind: 'json' }
  /** A Cairn payload that is neither a plausible `WalEntry` nor JSON. */
  | { readonly kind: 'raw' };

/** What a payload was found to be, a `WalEntry` decoded to its tables. */
export type PayloadDecoding =
  { readonly kind: 'wal-entry'; readonly table: GtEntryTable } | PayloadOther;

/** How much a `WalEntry` holds, as a check of its payload counts it. */
export interface WalEntrySummary {
  readonly mutations: number;
  readonly rows: number;
  readonly bulk: number;
}

/**
 * What a payload was found to be by a check that decodes no cell: the same verdict as
 * `PayloadDecoding`, a `WalEntry` only counted (its tables are made from its bytes where shown).
 */
export type PayloadCheck =
  { readonly kind: 'wal-entry'; readonly summary: WalEntrySummary } | PayloadOther;

export function rowCount(table: GtEntryTable): number {
  return rowTables(table).reduce((sum, mutation) => sum + mutation.rows.length, 0);
}
