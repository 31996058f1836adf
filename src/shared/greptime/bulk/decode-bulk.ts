/**
 * A GreptimeDB bulk entry (`BulkWalEntry`) as rows: its Arrow IPC body - the schema message,
 * the record batch's header and its body, as GreptimeDB's `FlightEncoder` writes them and its
 * `FlightDecoder` reads them on replay (mito2 `memtable/bulk/part.rs`) - decoded with the
 * `apache-arrow` library into the table a mutation gives: columns by name (the time index,
 * `timestamp_index`, marked TIMESTAMP; a bulk carries no other semantic type, so the rest are
 * `?`), every row a PUT with sequence `sequence + i` (mito2 `push_bulk`), each cell the text a
 * mutation's value of that type gets. The time index's smallest and largest values are checked
 * against the entry's `min_ts` / `max_ts`. A body that does not decode is a typed failure,
 * never a throw; every declared count and length is checked before the library reads it
 * (ipc-check.ts). Pure.
 */
import type * as Arrow from 'apache-arrow';
import { keyedColumns } from '../decode/entry-table';
import type { BulkRowsDecoder } from '../decode/decode-table';
import type { WalkedBulk } from '../decode/walk-entry';
import type {
  BulkDecodeFailure,
  GtBulkDecoding,
  GtBulkSummary,
  GtBulkTimeCheck,
} from '../entry-table';
import {
  anyData,
  arrowCell,
  DateUnit,
  IntervalUnit,
  Precision,
  Type,
  Budget,
  checkCoverage,
  rawTime,
  type AnyData,
  type ArrowTypeInfo,
} from './arrow-cells';
import { BulkDecodeError, bulkFail, checkRecordBatch, checkSchema, ipcStream } from './ipc-check';

const UNIT_NAMES = ['SECOND', 'MILLISECOND', 'MICROSECOND', 'NANOSECOND'];
const INTERVAL_NAMES = ['INTERVAL_YEAR_MONTH', 'INTERVAL_DAY_TIME', 'INTERVAL_MONTH_DAY_NANO'];

/** An Arrow type by the `ColumnDataType` name GreptimeDB gives it, else Arrow's own name. */
export function columnTypeName(arrowType: unknown): string {
  const t = arrowType as ArrowTypeInfo;
  const type = t.toString();
  switch (t.typeId) {
    case Type.Bool:
      return 'BOOLEAN';
    case Type.Int:
      return `${t.isSigned === true ? 'INT' : 'UINT'}${t.bitWidth ?? ''}`;
    case Type.Float:
      return t.precision === Precision.SINGLE
        ? 'FLOAT32'
        : t.precision === Precision.DOUBLE
          ? 'FLOAT64'
          : type;
    case Type.Utf8:
    case Type.LargeUtf8:
      return 'STRING';
    case Type.Binary:
    case Type.LargeBinary:
      return 'BINARY';
    case Type.Date:
      return t.unit === DateUnit.DAY ? 'DATE' : type;
    case Type.Timestamp:
      return `TIMESTAMP_${UNIT_NAMES[t.unit ?? 0]}`;
    case Type.Time:
      return `TIME_${UNIT_NAMES[t.unit ?? 0]}`;
    case Type.Interval:
      return INTERVAL_NAMES[t.unit ?? IntervalUnit.YEAR_MONTH] ?? type;
    case Type.Decimal:
      return t.bitWidth === 128 ? 'DECIMAL128' : type;
    case Type.List:
      return 'LIST';
    case Type.Struct:
      return 'STRUCT';
    default:
      return type;
  }
}

/** The time index column's values against the entry's `min_ts` / `max_ts`. */
function timeCheck(
  column: AnyData | undefined,
  rows: number,
  summary: GtBulkSummary,
): GtBulkTimeCheck {
  const index = summary.timestampIndex;
  if (column === undefined)
    return {
      min: null,
      max: null,
      problem: `the time index, column ${index}, is not in the batch`,
    };
  if (column.typeId !== Type.Timestamp && column.typeId !== Type.Int)
    return {
      min: null,
      max: null,
      problem: `the time index, column ${index}, is ${column.type.toString()}`,
    };
  let min: bigint | null = null;
  let max: bigint | null = null;
  for (let row = 0; row < rows; row++) {
    const value = rawTime(column, row);
    if (value === null) continue;
    if (min === null || value < min) min = value;
    if (max === null || value > max) max = value;
  }
  const says = `the entry says ${summary.minTs}..${summary.maxTs}`;
  if (min === null || max === null) return { min, max, problem: `no time index values; ${says}` };
  if (min !== summary.minTs || max !== summary.maxTs)
    return { min, max, problem: `its rows' time index runs ${min}..${max}; ${says}` };
  return { min, max, problem: null };
}

function failed(failure: BulkDecodeFailure): GtBulkDecoding {
  return { ok: false, failure };
}

/**
 * What this decoder needs of the `apache-arrow` library, handed in by its caller: the CLI
 * loads it when a replay first meets a bulk entry (loading it takes a noticeable part of a
 * second, which no replay without one should pay), the console's page bundles it.
 */
export type ArrowLibrary = Pick<typeof Arrow, 'tableFromIPC'>;

/** The bulk entry's rows, or the typed reason its body gives none. */
export function decodeBulk(bulk: WalkedBulk, arrow: ArrowLibrary): GtBulkDecoding {
  const ipc = bulk.ipc;
  if (ipc === null)
    return failed({ reason: 'no-body', detail: 'the bulk entry has no Arrow IPC body' });
  try {
    checkSchema(ipc.schema);
    const bodyLength = checkRecordBatch(ipc.dataHeader, ipc.payload.length);
    const table = arrow.tableFromIPC(
      ipcStream(ipc.schema, ipc.dataHeader, ipc.payload.subarray(0, bodyLength)),
    );
    const [batch, ...more] = table.batches;
    if (batch === undefined || more.length > 0)
      bulkFail('invalid-ipc', `${table.batches.length} record batches, not one`);
    const columns = batch.data.children.map(anyData);
    for (const column of columns) checkCoverage(column);
    const budget = new Budget(bodyLength);
    const rows: string[][] = [];
    for (let row = 0; row < batch.numRows; row++)
      rows.push(columns.map((column) => arrowCell(column, row, budget)));
    const views = keyedColumns(
      batch.schema.fields.map((field, at) => ({
        name: field.name,
        datatype: columnTypeName(field.type as unknown),
        semantic: at === bulk.summary.timestampIndex ? 'TIMESTAMP' : '?',
      })),
    );
    return {
      ok: true,
      table: { op: 'PUT', sequence: bulk.summary.sequence, columns: views, rows },
      time: timeCheck(columns[bulk.summary.timestampIndex], batch.numRows, bulk.summary),
    };
  } catch (error) {
    if (error instanceof BulkDecodeError) return failed(error.failure);
    // The library's own refusal of a malformed message (it throws plain errors).
    return failed({
      reason: 'invalid-ipc',
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The decoder the `WalEntry` decoder takes (decode-table.ts), over `arrow`. */
export function bulkRowsDecoder(arrow: ArrowLibrary): BulkRowsDecoder {
  return (bulk) => decodeBulk(bulk, arrow);
}

/**
 * Why a bulk entry (the `at`-th of its entry, from 0) counts as damage - it gives no rows, or
 * rows outside its declared time range - in the words replay and search both print; null when
 * it does not.
 */
export function bulkProblem(decoded: GtBulkDecoding | null, at: number): string | null {
  if (decoded === null || (decoded.ok && decoded.time.problem === null)) return null;
  return decoded.ok
    ? `bulk entry ${at + 1}: ${decoded.time.problem}`
    : `bulk entry ${at + 1} gives no rows: ${decoded.failure.reason} (${decoded.failure.detail})`;
}
