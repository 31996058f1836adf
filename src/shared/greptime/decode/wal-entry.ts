/**
 * What a GreptimeDB `greptime.v1.WalEntry` payload holds once decoded (spec:
 * greptimedb-entries.md): mutations with their op, start sequence and rows under a schema, and
 * bulk entries. Values keep the wire's kind (the `Value` oneof case), so a timestamp keeps its
 * unit and a 64-bit integer stays exact (bigint); anything the spec does not name (a field, an
 * enum value, a value kind) is kept by number, never dropped and never fatal. Plain data: no
 * decoding, no formatting here.
 */
import type { GtBulkSummary } from '../entry-table';

/** `OpType`; any other number is kept as it came. */
export const OP_TYPE_NAMES: Readonly<Record<number, string>> = { 0: 'DELETE', 1: 'PUT' };

/** `SemanticType`: TIMESTAMP is the time index. */
export const SEMANTIC_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'TAG',
  1: 'FIELD',
  2: 'TIMESTAMP',
};
export const SEMANTIC_TIME_INDEX = 2;

/** `ColumnDataType`, by number. */
export const COLUMN_DATA_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'BOOLEAN',
  1: 'INT8',
  2: 'INT16',
  3: 'INT32',
  4: 'INT64',
  5: 'UINT8',
  6: 'UINT16',
  7: 'UINT32',
  8: 'UINT64',
  9: 'FLOAT32',
  10: 'FLOAT64',
  11: 'BINARY',
  12: 'STRING',
  13: 'DATE',
  14: 'DATETIME',
  15: 'TIMESTAMP_SECOND',
  16: 'TIMESTAMP_MILLISECOND',
  17: 'TIMESTAMP_MICROSECOND',
  18: 'TIMESTAMP_NANOSECOND',
  19: 'TIME_SECOND',
  20: 'TIME_MILLISECOND',
  21: 'TIME_MICROSECOND',
  22: 'TIME_NANOSECOND',
  23: 'INTERVAL_YEAR_MONTH',
  24: 'INTERVAL_DAY_TIME',
  25: 'INTERVAL_MONTH_DAY_NANO',
  30: 'DECIMAL128',
  31: 'JSON',
  32: 'VECTOR',
  40: 'LIST',
  41: 'STRUCT',
  42: 'DICTIONARY',
};
export const DATA_TYPE_JSON = 31;
export const DATA_TYPE_DECIMAL128 = 30;

/** The unit of a time kind, as the number of its ticks per second. */
export type TimeUnit = 's' | 'ms' | 'us' | 'ns';

export type GtValue =
  | null
  | { readonly kind: 'bool'; readonly value: boolean }
  | {
      readonly kind: 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32' | 'date' | 'interval_year_month';
      readonly value: number;
    }
  | {
      readonly kind: 'i64' | 'u64' | 'datetime' | 'interval_day_time';
      readonly value: bigint;
    }
  | { readonly kind: 'f32' | 'f64'; readonly value: number }
  | { readonly kind: 'binary'; readonly value: Uint8Array }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'timestamp' | 'time'; readonly unit: TimeUnit; readonly value: bigint }
  | {
      readonly kind: 'interval_month_day_nano';
      readonly months: number;
      readonly days: number;
      readonly nanoseconds: bigint;
    }
  | { readonly kind: 'decimal128'; readonly hi: bigint; readonly lo: bigint }
  | { readonly kind: 'list' | 'struct'; readonly items: readonly GtValue[] }
  | { readonly kind: 'json'; readonly value: GtJson }
  /** A `Value` case this decoder does not know: its field number, wire type and bytes. */
  | {
      readonly kind: 'unknown';
      readonly field: number;
      readonly wireType: number;
      readonly bytes: Uint8Array;
    };

/** `JsonValue` (value kind 42): an unset oneof is null. */
export type GtJson =
  | null
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'int' | 'uint'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly GtJson[] }
  | {
      readonly kind: 'object';
      readonly entries: ReadonlyArray<{ readonly key: string; readonly value: GtJson }>;
    }
  | { readonly kind: 'variant'; readonly bytes: Uint8Array }
  | { readonly kind: 'unknown'; readonly field: number };

/**
 * `ColumnDataTypeExtension`: a decimal's precision and scale, that a binary column holds JSON,
 * a list's item type, a struct's field types (each with its own extension, so a decimal inside
 * a list or struct is scaled by it), or which other case is set.
 */
export type GtColumnExtension =
  | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly kind: 'json' }
  | {
      readonly kind: 'list';
      readonly datatype: number;
      readonly extension: GtColumnExtension | null;
    }
  | { readonly kind: 'struct'; readonly fields: readonly GtStructField[] }
  | { readonly kind: 'other'; readonly field: number };

/** The type a value is read under: a column's, a list's items', a struct field's. */
export interface GtValueType {
  readonly datatype: number;
  readonly extension: GtColumnExtension | null;
}

/** `StructField`: a struct's field by name, with its type. */
export interface GtStructField extends GtValueType {
  readonly name: string;
}

export interface GtColumnSchema extends GtValueType {
  readonly name: string;
  readonly semanticType: number;
  readonly options: ReadonlyArray<readonly [string, string]>;
}

export interface GtRows {
  readonly schema: readonly GtColumnSchema[];
  /** One value per schema column, in schema order (a short row lacks its last columns). */
  readonly rows: ReadonlyArray<readonly GtValue[]>;
}

export interface GtMutation {
  /** `OpType` number: 0 DELETE (also when absent), 1 PUT. */
  readonly opType: number;
  /** The start sequence: the mutation's row `i` has sequence + i. */
  readonly sequence: bigint;
  readonly rows: GtRows | null;
  /** `WriteHint.primary_key_encoding` (0 DENSE, 1 SPARSE); null when no hint was written. */
  readonly primaryKeyEncoding: number | null;
}

export interface GtWalEntry {
  readonly mutations: readonly GtMutation[];
  /** Summaries: the Arrow record batches are not decoded. */
  readonly bulkEntries: readonly GtBulkSummary[];
}
