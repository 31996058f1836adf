/**
 * The rows of replayed GreptimeDB entries and the two texts they are printed as, shared by the
 * CLI (`cairn wal replay --rows`) and the console's Rows export so both print the same bytes:
 * one NDJSON line per row (`region`, `id` with their decimals, `op`, `sequence`, then its
 * columns by key), or CSV
 * under a header of every column met, lined up by key when a schema changes mid-replay. A
 * row's sequence is its mutation's start sequence plus its index. Pure.
 */
import { csvCell, csvQuoted, csvText } from './csv-cell';
import { formatEntryId, formatRegionId } from '../id-notation';
import type { GtColumnView, GtEntryTable } from './entry-table';
import { ROW_FIXED_KEYS, rowTables } from './entry-table';

export interface ReplayRow {
  readonly region: bigint;
  /** The entry the row came from. */
  readonly id: bigint;
  readonly op: string | number;
  readonly sequence: bigint;
  readonly columns: readonly GtColumnView[];
  /** JSON texts, one per column. */
  readonly cells: readonly string[];
}

/** The entry's rows: its mutations', then its decoded bulk entries' (PUTs from their sequence). */
export function rowsOfEntry(region: bigint, id: bigint, table: GtEntryTable): ReplayRow[] {
  const rows: ReplayRow[] = [];
  for (const mutation of rowTables(table))
    mutation.rows.forEach((cells, index) =>
      rows.push({
        region,
        id,
        op: mutation.op,
        sequence: mutation.sequence + BigInt(index),
        columns: mutation.columns,
        cells,
      }),
    );
  return rows;
}

/** A cell as plain text (CSV, filters, the table): a JSON string's content, '' for null. */
export function cellText(json: string): string {
  if (json === 'null') return '';
  return json.startsWith('"') ? (JSON.parse(json) as string) : json;
}

/** The text of a fixed key or a column of the row ('' when the row has no such column). */
export function rowText(row: ReplayRow, key: string): string {
  switch (key) {
    case 'region':
      return formatRegionId(row.region);
    case 'regionU64':
      return row.region.toString();
    case 'id':
      return formatEntryId(row.id);
    case 'idU64':
      return row.id.toString();
    case 'op':
      return String(row.op);
    case 'sequence':
      return row.sequence.toString();
  }
  const at = row.columns.findIndex((column) => column.key === key);
  return at < 0 ? '' : cellText(row.cells[at] ?? 'null');
}

/** The ids every row line of one entry starts with; rows come entry by entry. */
let headRegion = -1n;
let headId = -1n;
let headText = '';

function lineHead(region: bigint, id: bigint): string {
  if (region !== headRegion || id !== headId) {
    headText =
      `{"region":"${formatRegionId(region)}","regionU64":"${region}",` +
      `"id":"${formatEntryId(id)}","idU64":"${id}",`;
    headRegion = region;
    headId = id;
  }
  return headText;
}

/** `,"key":` of each column, made once per mutation's columns. */
const keyTexts = new WeakMap<readonly GtColumnView[], string[]>();

function keysOf(columns: readonly GtColumnView[]): string[] {
  let keys = keyTexts.get(columns);
  if (keys === undefined) {
    keys = columns.map((column) => `,${JSON.stringify(column.key)}:`);
    keyTexts.set(columns, keys);
  }
  return keys;
}

/** A row's cells as a JSON object keyed by its columns' keys (`--decode`'s rows). */
export function rowObject(columns: readonly GtColumnView[], cells: readonly string[]): string {
  const keys = keysOf(columns);
  let text = '{';
  for (let at = 0; at < keys.length; at++)
    text += `${at === 0 ? keys[at]!.slice(1) : keys[at]}${cells[at] ?? 'null'}`;
  return `${text}}`;
}

/** One NDJSON line, without its newline. */
export function rowLine(row: ReplayRow): string {
  const keys = keysOf(row.columns);
  let line =
    `${lineHead(row.region, row.id)}` +
    `"op":${typeof row.op === 'string' ? JSON.stringify(row.op) : String(row.op)},` +
    `"sequence":"${row.sequence}"`;
  for (let at = 0; at < keys.length; at++) line += `${keys[at]}${row.cells[at] ?? 'null'}`;
  return `${line}}`;
}

/** Every column met, by key, in the order first met: the CSV header and the table's columns. */
export class ColumnUnion {
  private readonly byKey = new Map<string, GtColumnView>();

  add(table: GtEntryTable): void {
    for (const mutation of rowTables(table)) this.addColumns(mutation.columns);
  }

  addColumns(columns: readonly GtColumnView[]): void {
    for (const column of columns)
      if (!this.byKey.has(column.key)) this.byKey.set(column.key, column);
  }

  columns(): GtColumnView[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }
}

/** The CSV header: the fixed keys, then the columns' keys (neutralised: csv-cell.ts). */
export function csvHeader(columns: readonly GtColumnView[]): string {
  return [...ROW_FIXED_KEYS, ...columns.map((column) => column.key)].map(csvText).join(',');
}

/** One CSV line (no newline) under `columns`; a column the row lacks is empty. */
export function csvLine(row: ReplayRow, columns: readonly GtColumnView[]): string {
  const own = new Map(row.columns.map((column, at) => [column.key, at]));
  const fields = [
    formatRegionId(row.region),
    row.region.toString(),
    formatEntryId(row.id),
    row.id.toString(),
    String(row.op),
    row.sequence.toString(),
  ];
  // The fixed fields are ids and op names this app writes; the cells are the payload's.
  const line = fields.map(csvQuoted);
  for (const column of columns) {
    const at = own.get(column.key);
    line.push(at === undefined ? '' : csvCell(row.cells[at] ?? 'null'));
  }
  return line.join(',');
}

/** The rows as an NDJSON document (each line ending in a newline). */
export function rowsNdjson(rows: readonly ReplayRow[]): string {
  return rows.map((row) => `${rowLine(row)}\n`).join('');
}

/** The rows as a CSV document under `columns`. */
export function rowsCsv(rows: readonly ReplayRow[], columns: readonly GtColumnView[]): string {
  return [csvHeader(columns), ...rows.map((row) => csvLine(row, columns))]
    .map((line) => `${line}\n`)
    .join('');
}
