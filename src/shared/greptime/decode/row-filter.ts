/**
 * A `RowFilter` pushed into the decoding of a `WalEntry` payload (search): the walk
 * (walk-entry.ts) runs once making only the texts the filter reads - the cells of the columns
 * its conditions name and the time index - and decides per row; a row that fails is never
 * turned into cell texts. A row that passes has its texts made from its own values' bytes
 * (the walk notes where they lie; the payload is not walked again), and then meets the filter
 * whole (`rowMatches`, the very test replay runs), so a hit here is a hit there and nothing
 * else. Where the first walk
 * cannot decide a row exactly (a condition on a column the schema does not name, a column
 * read after a row), it keeps the row for the whole test. Pure but for the decoders' caches.
 */
import { filterBulkRows, type BulkFiltered } from '../bulk/bulk-filter';
import type { EntryDecodeFailure, GtColumnView } from '../entry-table';
import { cellText, rowsOfEntry, type ReplayRow } from '../replay-rows';
import {
  parseUtcTime,
  rowMatches,
  textHolds,
  timeWithin,
  type RowCondition,
  type RowFilter,
} from '../row-filter';
import { scannedJson } from './cell-json';
import { decodeEntryTable, viewsOf, type BulkRowsDecoder } from './decode-table';
import { VALUE_CASE, wholeOf, type ScannedValue } from './decode-value';
import type { EntryReader } from './entry-reader';
import { nameOr } from './entry-table';
import { checksPlan } from './row-checks';
import { rowValuesAt, walkWalEntry, type RowsBuilder, type WalkedEntry } from './walk-entry';
import { OP_TYPE_NAMES, type GtColumnSchema } from './wal-entry';

export type FilteredEntry =
  | {
      readonly ok: true;
      /** The rows that pass the whole filter, in payload order. */
      readonly hits: ReplayRow[];
      /** Rows looked at, passing or not (a bulk entry left out by its time range has none). */
      readonly rows: number;
      /** Its bulk entries: their hits (in `hits` too), those left out, why any is damage. */
      readonly bulk: BulkFiltered;
    }
  | { readonly ok: false; readonly failure: EntryDecodeFailure };

/**
 * Per `Rows` message of the walk: the rows kept for the whole test, three numbers each - the
 * row's place in its message, and where its `Row` message's values start and end in the payload
 * (so its texts are made from those bytes alone, without walking the payload again).
 */
type Kept = number[];
const KEPT_STRIDE = 3;

/** The first walk's builder: texts of the filter's columns only, a verdict per row. */
class RowVerdicts implements RowsBuilder<Kept> {
  private schema: readonly GtColumnSchema[] = [];
  /** Null until the first row fixes the schema. */
  private checks: readonly (RowCondition[] | undefined)[] | null = null;
  private timeAt = -1;
  private undecided = false;
  private kept: Kept = [];
  private rows = 0;
  private passing = true;
  private timeSeen: bigint | null = null;
  private tested = 0;
  private needed = 0;
  private rowStart = 0;
  private rowEnd = 0;
  /** The rows kept of each mutation's `Rows`, in the order walked. */
  readonly byMessage: Kept[] = [];

  constructor(private readonly filter: RowFilter) {}

  begin(schema: readonly GtColumnSchema[]): void {
    this.schema = schema;
    this.checks = null;
    this.kept = [];
    this.rows = 0;
  }

  row(d: EntryReader, end: number): void {
    if (this.rows > 0) this.closeRow();
    if (this.checks === null) this.planChecks();
    this.rowStart = d.pos;
    this.rowEnd = end;
    this.rows += 1;
    this.passing = true;
    this.timeSeen = null;
    this.tested = 0;
  }

  cell(d: EntryReader, scanned: ScannedValue, index: number): void {
    if (!this.passing || this.undecided) return;
    const conditions = this.checks?.[index];
    const isTime = index === this.timeAt;
    if (conditions === undefined && !isTime) return;
    if (conditions === undefined && isTimestamp(scanned)) {
      this.timeSeen = timestampNanos(scanned);
      return;
    }
    if (conditions !== undefined && scanned.kind === VALUE_CASE.string && !isTime) {
      this.tested += 1;
      if (!stringHolds(d.bytes, scanned.start, scanned.end, conditions, d)) this.passing = false;
      return;
    }
    // A string's text is its bytes decoded: no JSON text made and parsed back for it.
    const text =
      scanned.kind === VALUE_CASE.string
        ? d.text(scanned.start, scanned.end)
        : cellText(scannedJson(d, scanned, this.schema[index]));
    if (conditions !== undefined) {
      this.tested += 1;
      for (const condition of conditions)
        if (!textHolds(text, condition)) {
          this.passing = false;
          return;
        }
    }
    if (isTime) this.timeSeen = parseUtcTime(text);
  }

  end(): Kept {
    if (this.rows > 0) this.closeRow();
    this.byMessage.push(this.kept);
    return this.kept;
  }

  private planChecks(): void {
    const plan = checksPlan(this.filter, this.schema);
    this.checks = plan.checks;
    this.needed = plan.needed;
    this.timeAt = plan.timeAt;
    this.undecided = plan.undecided;
  }

  private closeRow(): void {
    const at = this.rows - 1;
    if (this.undecided) {
      this.keep(at);
      return;
    }
    if (!this.passing) return;
    // A row short of a tested cell is left to the whole test (which reads that cell as '').
    if (this.tested < this.needed) {
      this.keep(at);
      return;
    }
    if (!timeWithin(this.timeSeen, this.filter)) return;
    this.keep(at);
  }
  private keep(at: number): void {
    this.kept.push(at, this.rowStart, this.rowEnd);
  }
}

/** Nanoseconds per unit of the timestamp value cases (seconds, ms, us, ns). */
const NANOS_PER_UNIT = [1_000_000_000n, 1_000_000n, 1_000n, 1n];

function isTimestamp(scanned: ScannedValue): boolean {
  return scanned.kind >= VALUE_CASE.timestamp && scanned.kind < VALUE_CASE.time;
}

/**
 * A timestamp value in nanoseconds, without the text a cell makes of it: where that text reads
 * as a time it is this very instant, and where it does not (a value past the years a text
 * holds) the row is kept here and the whole test, reading the text, leaves it out.
 */
function timestampNanos(scanned: ScannedValue): bigint {
  return BigInt(wholeOf(scanned)) * NANOS_PER_UNIT[scanned.kind - VALUE_CASE.timestamp]!;
}

const utf8 = new TextEncoder();
/** Each `=` / `!=` value's UTF-8 bytes, so a string cell is compared without a text made. */
const valueBytes = new Map<string, Uint8Array>();

function bytesOf(value: string): Uint8Array {
  let bytes = valueBytes.get(value);
  if (bytes === undefined) {
    if (valueBytes.size >= 256) valueBytes.clear();
    bytes = utf8.encode(value);
    valueBytes.set(value, bytes);
  }
  return bytes;
}

function sameBytes(bytes: Uint8Array, start: number, end: number, value: Uint8Array): boolean {
  if (end - start !== value.length) return false;
  for (let at = 0; at < value.length; at++) if (bytes[start + at] !== value[at]) return false;
  return true;
}

/**
 * Whether a string cell (its UTF-8 bytes) passes `conditions`: `=` and `!=` on the bytes
 * (a string is well-formed UTF-8, so equal bytes are equal texts), the others on its text.
 */
function stringHolds(
  bytes: Uint8Array,
  start: number,
  end: number,
  conditions: readonly RowCondition[],
  d: EntryReader,
): boolean {
  let text: string | null = null;
  for (const condition of conditions) {
    if (condition.op === '=' || condition.op === '!=') {
      const same = sameBytes(bytes, start, end, bytesOf(condition.value));
      if (same !== (condition.op === '=')) return false;
      continue;
    }
    text ??= d.text(start, end);
    if (!textHolds(text, condition)) return false;
  }
  return true;
}

function rowCountOf(entry: WalkedEntry<unknown>): number {
  return entry.mutations.reduce((sum, mutation) => sum + (mutation.rows?.shape.rows ?? 0), 0);
}

/** The hits of an entry whose cells came before its columns: the whole table, tested whole. */
function hitsOfWholeTable(
  bytes: Uint8Array,
  region: bigint,
  id: bigint,
  filter: RowFilter,
): ReplayRow[] {
  const decoded = decodeEntryTable(bytes);
  if (!decoded.ok) return [];
  return rowsOfEntry(region, id, decoded.table).filter((row) => rowMatches(row, filter));
}

/**
 * The kept rows made whole - their texts from their own values' bytes, a ragged row padded -
 * and tested with `rowMatches`.
 */
function hitsOfKept(
  bytes: Uint8Array,
  region: bigint,
  id: bigint,
  filter: RowFilter,
  entry: WalkedEntry<Kept>,
): ReplayRow[] {
  const hits: ReplayRow[] = [];
  for (const mutation of entry.mutations) {
    if (mutation.rows === null) continue;
    const { shape, built } = mutation.rows;
    if (built.length === 0) continue;
    const columns: GtColumnView[] = viewsOf(shape);
    const op = nameOr(OP_TYPE_NAMES, mutation.opType);
    for (let at = 0; at < built.length; at += KEPT_STRIDE) {
      const cells = new Array<string>(shape.width).fill('null');
      rowValuesAt(bytes, built[at + 1]!, built[at + 2]!, {
        cell: (d, scanned, index) => (cells[index] = scannedJson(d, scanned, shape.schema[index])),
      });
      const sequence = mutation.sequence + BigInt(built[at]!);
      const row = { region, id, op, sequence, columns, cells };
      if (rowMatches(row, filter)) hits.push(row);
    }
  }
  return hits;
}

/** The hits of the payload's mutations: none walked again when no row was kept. */
function mutationHits(
  bytes: Uint8Array,
  region: bigint,
  id: bigint,
  filter: RowFilter,
  entry: WalkedEntry<Kept>,
  kept: readonly Kept[],
): ReplayRow[] {
  // Cells read before their column was known were judged without it: the whole test decides.
  if (entry.mutations.some((mutation) => mutation.rows?.shape.lateSchema === true))
    return hitsOfWholeTable(bytes, region, id, filter);
  if (kept.every((places) => places.length === 0)) return [];
  return hitsOfKept(bytes, region, id, filter, entry);
}

/**
 * The rows of one payload that pass `filter`, the filter tested while the payload is walked,
 * its mutations' then its bulk entries' (decoded by `bulkDecoder`'s decoder unless left out by
 * their time range); the typed reason when the payload is not a `WalEntry`.
 */
export function filterEntryRows(
  bytes: Uint8Array,
  region: bigint,
  id: bigint,
  filter: RowFilter,
  bulkDecoder: () => BulkRowsDecoder,
): FilteredEntry {
  const verdicts = new RowVerdicts(filter);
  const walked = walkWalEntry(bytes, verdicts);
  if (!walked.ok) return walked;
  const { entry } = walked;
  const hits = mutationHits(bytes, region, id, filter, entry, verdicts.byMessage);
  const bulk = filterBulkRows(entry.bulkEntries, region, id, filter, bulkDecoder);
  if (bulk.hits.length > 0) hits.push(...bulk.hits);
  return { ok: true, hits, rows: rowCountOf(entry) + bulk.rows, bulk };
}
