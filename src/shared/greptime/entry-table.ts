/**
 * A replayed WAL entry's payload as people and tools see it, in the one shape the CLI prints
 * and the console receives: a GreptimeDB `WalEntry` as tables (each mutation's columns and its
 * rows, every cell already its exact JSON text), its bulk entries as summaries, or why the
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

/** A bulk entry as its summary: its Arrow record batch is not decoded into rows. */
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

export interface GtEntryTable {
  readonly mutations: readonly GtMutationTable[];
  readonly bulk: readonly GtBulkSummary[];
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
  return table.mutations.reduce((sum, mutation) => sum + mutation.rows.length, 0);
}
