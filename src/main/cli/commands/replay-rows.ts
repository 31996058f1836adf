/**
 * How `cairn wal replay` prints decoded payloads (docs/design/greptimedb-entries.md):
 * `--decode` (the default on a GreptimeDB prefix) one NDJSON line per entry with its mutations
 * and bulk entries and their rows, `--rows` one line per row (`region`, `id` with their
 * decimals, `op`, `sequence`, then the columns; a bulk entry's rows after the mutations') or
 * CSV with `--format csv`, filtered by `--where`, `--since` and `--until`. Row lines and CSV
 * come from src/shared/greptime, the code the console's export runs. A payload that is not a
 * `WalEntry` on a GreptimeDB prefix, or a bulk entry there whose Arrow body gives no rows (or
 * rows outside its time range), is printed raw with its reason (`--decode`) or named on stderr
 * (`--rows`), and the command then exits 1. Reads only.
 */
import { createHash } from 'node:crypto';
import { bulkProblem } from '../../../shared/greptime/bulk/decode-bulk';
import { GT_FORMAT } from '../../engine/greptimedb/layout';
import { bulkDecoder, loadedBulkDecoder } from '../../services/wal/bulk-decoder';
import { decodePayload } from '../../../shared/greptime/decode/detect-payload';
import type { WalEntry } from '../../engine/wal/entry';
import type { WalFormat } from '../../engine/wal-read/format';
import type {
  GtBulkEntryTable,
  GtEntryTable,
  PayloadDecoding,
} from '../../../shared/greptime/entry-table';
import {
  ColumnUnion,
  csvHeader,
  csvLine,
  rowLine,
  rowObject,
  rowsOfEntry,
} from '../../../shared/greptime/replay-rows';
import { rowMatches, type RowFilter } from '../../../shared/greptime/row-filter';
import { rowFilterOfText } from '../../../shared/search/search-request';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { ByteOut } from '../../../shared/greptime/row-bytes/byte-out';
import { entryColumns } from '../../../shared/greptime/row-bytes/entry-columns';
import { RowBytesWriter } from '../../../shared/greptime/row-bytes/row-writer';
import { reportDamaged, writeStdout, type DamagedPart, type OutputSink } from '../output';
import { UsageError } from '../usage-error';

export interface ReplayOutputOptions {
  decode?: boolean;
  raw?: boolean;
  rows?: boolean;
  format: string;
  where: string[];
  since?: string;
  until?: string;
  data?: boolean;
}

export type ReplayMode = 'raw' | 'entries' | 'rows';

/** Collects a repeatable flag's values. */
export function collectFlag(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** What the flags ask for on a prefix of `format`; UsageError for flags that contradict. */
export function replayModeOf(options: ReplayOutputOptions, format: WalFormat): ReplayMode {
  if (options.raw && (options.decode || options.rows))
    throw new UsageError('--raw prints payloads undecoded: it cannot go with --decode or --rows');
  if (options.format !== 'ndjson' && options.format !== 'csv')
    throw new UsageError(`--format must be ndjson or csv, got "${options.format}"`);
  const mode: ReplayMode = options.rows
    ? 'rows'
    : options.decode || (!options.raw && format === GT_FORMAT)
      ? 'entries'
      : 'raw';
  const rowFlags =
    options.where.length > 0 || options.since !== undefined || options.until !== undefined;
  if (mode !== 'rows' && (rowFlags || options.format === 'csv'))
    throw new UsageError('--format csv, --where, --since and --until select rows: add --rows');
  return mode;
}

export function rowFilterOf(options: ReplayOutputOptions): RowFilter {
  const filter = rowFilterOfText(options.where, options.since, options.until);
  if ('flag' in filter) throw new UsageError(`--${filter.flag}: ${filter.message}`);
  return filter;
}

/** A filter that keeps every row: rows can then be written without their tables. */
function isEmptyFilter(filter: RowFilter): boolean {
  return filter.conditions.length === 0 && filter.since === null && filter.until === null;
}

/**
 * Lines gathered into writes of about 64 KiB (one write per line is a system call per row),
 * as bytes: the row writer writes its lines into them in place.
 */
class LineOutput {
  // Each write's buffer is the sink's once written: a fresh one, not zeroed first, seen as a
  // plain Uint8Array (as the payloads are: the writer's byte stores see one kind of array).
  readonly bytes = new ByteOut((size) => {
    const fresh = Buffer.allocUnsafe(size);
    return new Uint8Array(fresh.buffer, fresh.byteOffset, size);
  });

  /** Bytes handed to the sinks so far. */
  private handed = 0;

  constructor(public sink: OutputSink) {}

  /** Drops what is gathered, and counts nothing handed over before (a spool let go). */
  forget(): void {
    this.bytes.rewind(0);
    this.handed = 0;
  }

  /** Whether anything was written since the start or `forget` (handed over or gathered). */
  get wroteAny(): boolean {
    return this.handed > 0 || this.bytes.pos > 0;
  }

  line(text: string): void {
    this.bytes.text(text);
    this.bytes.byte(0x0a);
  }

  /** Writes what is gathered once it is 64 KiB; a promise while the sink is full. */
  flushIfFull(): Promise<void> | undefined {
    return this.bytes.pos >= 65_536 ? this.flush() : undefined;
  }

  flush(): Promise<void> | undefined {
    if (this.bytes.pos === 0) return undefined;
    this.handed += this.bytes.pos;
    return this.sink(this.bytes.take());
  }
}

function columnsJson(mutation: GtEntryTable['mutations'][number]): string {
  return mutation.columns
    .map((c) =>
      JSON.stringify({ name: c.name, key: c.key, type: c.datatype, semantic: c.semantic }),
    )
    .join(',');
}

function mutationJson(mutation: GtEntryTable['mutations'][number]): string {
  const rows = mutation.rows.map((cells) => rowObject(mutation.columns, cells));
  const op = typeof mutation.op === 'string' ? JSON.stringify(mutation.op) : mutation.op;
  return `{"op":${op},"sequence":"${mutation.sequence}","columns":[${columnsJson(mutation)}],"rows":[${rows.join(',')}]}`;
}

/** A bulk entry: its summary (64-bit numbers as strings), then its rows or why there are none. */
function bulkJson(b: GtBulkEntryTable): string {
  const head = `{"sequence":"${b.sequence}","minTs":"${b.minTs}","maxTs":"${b.maxTs}","timestampIndex":${b.timestampIndex},"arrowIpc":${JSON.stringify(b.arrowIpc)}`;
  const decoded = b.decoded;
  if (decoded === null) return `${head}}`;
  if (!decoded.ok) return `${head},"error":${JSON.stringify(decoded.failure)}}`;
  const { table, time } = decoded;
  const rows = table.rows.map((cells) => rowObject(table.columns, cells));
  const times = `"timeIndex":{"min":${time.min === null ? null : `"${time.min}"`},"max":${time.max === null ? null : `"${time.max}"`},"problem":${JSON.stringify(time.problem)}}`;
  return `${head},"columns":[${columnsJson(table)}],"rows":[${rows.join(',')}],${times}}`;
}

function mutationsJson(table: GtEntryTable): string {
  return `"mutations":[${table.mutations.map(mutationJson).join(',')}],"bulk":[${table.bulk.map(bulkJson).join(',')}]`;
}

/** A bulk entry whose rows do not decode, or do not match its time range: told as damage. */
function bulkProblems(region: bigint, entry: WalEntry, table: GtEntryTable): DamagedPart[] {
  const key = `region ${formatRegionId(region)} entry ${formatEntryId(entry.id)}`;
  return table.bulk.flatMap((bulk, at): DamagedPart[] => {
    const reason = bulkProblem(bulk.decoded, at);
    return reason === null ? [] : [{ what: 'bulk entry', key, reason }];
  });
}

/** One `--decode` line: the entry's id and size, then what its payload is. */
export function entryLine(
  region: bigint,
  entry: WalEntry,
  decoding: PayloadDecoding,
  withData: boolean,
): string {
  const ids = `"region":"${formatRegionId(region)}","regionU64":"${region}","id":"${formatEntryId(entry.id)}","idU64":"${entry.id}"`;
  const head = `{${ids},"size":${entry.data.length},"payload":"${decoding.kind}"`;
  const data = (): string => `,"data":"${Buffer.from(entry.data).toString('base64')}"`;
  switch (decoding.kind) {
    case 'wal-entry': {
      // A bulk entry that gives no rows is shown raw as well.
      const raw = withData || decoding.table.bulk.some((b) => b.decoded?.ok === false);
      return `${head},${mutationsJson(decoding.table)}${raw ? data() : ''}}`;
    }
    case 'not-wal-entry':
      return `${head},"error":${JSON.stringify(decoding.failure)}${data()}}`;
    case 'json':
      return `${head},"text":${JSON.stringify(Buffer.from(entry.data).toString('utf8'))}}`;
    case 'raw':
      return `${head},"sha256":"${createHash('sha256').update(entry.data).digest('hex')}"${withData ? data() : ''}}`;
  }
}

/** Prints a replay's entries in `--decode` or `--rows` form; `end` reports what did not decode. */
export class DecodedReplayPrinter {
  private readonly out: LineOutput;
  private readonly damaged: DamagedPart[] = [];
  private readonly filter: RowFilter;
  private columns: ReturnType<ColumnUnion['columns']> | null = null;
  /** CSV's columns met so far: the header's once the read has ended. */
  private union: ColumnUnion | null = null;
  /** Rows written straight from the wire; null when rows are filtered (or not asked for). */
  private rowWriter: RowBytesWriter | null = null;
  private notRows = 0;

  constructor(
    private readonly mode: 'entries' | 'rows',
    private readonly options: ReplayOutputOptions,
    private readonly format: WalFormat,
    sink: OutputSink = writeStdout,
  ) {
    this.filter = rowFilterOf(options);
    this.out = new LineOutput(sink);
    if (mode === 'rows' && isEmptyFilter(this.filter) && options.format !== 'csv')
      this.rowWriter = new RowBytesWriter(this.out.bytes, null);
  }

  /** The payload decoded, its bulk entries' rows too (the Arrow library loaded on the first). */
  private decode(entry: WalEntry): PayloadDecoding {
    const onGreptime = this.format === GT_FORMAT;
    const loaded = loadedBulkDecoder();
    const decoding = decodePayload(entry.data, onGreptime, loaded);
    if (decoding.kind !== 'wal-entry' || loaded !== undefined || decoding.table.bulk.length === 0)
      return decoding;
    return decodePayload(entry.data, onGreptime, bulkDecoder());
  }

  /** Whether the rows are CSV: a header of every column first (`printReplay` reads for it). */
  get csv(): boolean {
    return this.mode === 'rows' && this.options.format === 'csv';
  }

  /** Notes the columns of `entry` for the CSV header. */
  noteColumns(entry: WalEntry): void {
    const union = (this.union ??= new ColumnUnion());
    // The columns alone where the walk tells them; the tables where only they can.
    const columns = entryColumns(entry.data, this.format === GT_FORMAT);
    if (columns !== null) for (const each of columns) union.addColumns(each);
    else {
      const decoding = this.decode(entry);
      if (decoding.kind === 'wal-entry') union.add(decoding.table);
    }
  }

  /** CSV lines from now on under the columns noted so far (their header is written later). */
  useColumns(): void {
    this.columns = (this.union ?? new ColumnUnion()).columns();
    this.rowWriter = isEmptyFilter(this.filter)
      ? new RowBytesWriter(this.out.bytes, this.columns)
      : null;
  }

  /** The CSV header of every column noted: the lines under it come next. */
  header(): void {
    this.useColumns();
    this.out.line(csvHeader(this.columns!));
  }

  /** Whether any line was written yet (wherever the output went). */
  get wroteAny(): boolean {
    return this.out.wroteAny;
  }

  /** Sends the output to `sink` from now on; returns where it went. */
  redirect(sink: OutputSink): OutputSink {
    const before = this.out.sink;
    this.out.sink = sink;
    return before;
  }

  /** Hands over what is gathered; a promise while the sink is full. */
  flush(): Promise<void> | undefined {
    return this.out.flush();
  }

  /** Forgets the lines not yet handed over, and the damage told: the entries print again. */
  forget(): void {
    this.out.forget();
    this.damaged.length = 0;
    this.notRows = 0;
  }

  /**
   * A hole's record (`--holes`): in the NDJSON stream where it was met, after the lines before
   * it; on stderr beside CSV, which must stay one table.
   */
  holeRecord(text: string): void {
    if (this.csv) process.stderr.write(text + '\n');
    else this.out.line(text);
  }

  /** Prints the entry; a promise while the output is full (await it before the next). */
  entry(region: bigint, entry: WalEntry): Promise<void> | undefined {
    this.write(region, entry);
    return this.out.flushIfFull();
  }

  /** The entry's lines, from the wire or its tables; CSV notes its columns as it goes. */
  private write(region: bigint, entry: WalEntry): void {
    const writer = this.rowWriter;
    if (writer?.entry(region, entry.id, entry.data, this.format === GT_FORMAT) !== true)
      return this.print(region, entry);
    if (this.union !== null) for (const views of writer.entryViews) this.union.addColumns(views);
  }

  /**
   * CSV while its read runs: the entry's lines under the columns so far, its columns noted in
   * the same walk. True when it brought a column after earlier lines, which lack it (the spool
   * is let go); the first lines are written again under the columns they brought.
   */
  spoolEntry(region: bigint, entry: WalEntry): boolean {
    const union = (this.union ??= new ColumnUnion());
    const [columns, earlier, mark] = [union.size, this.out.wroteAny, this.out.bytes.mark()];
    const [damaged, notRows] = [this.damaged.length, this.notRows];
    this.write(region, entry);
    if (union.size === columns) return false;
    if (earlier) return true;
    this.out.bytes.rewind(mark);
    this.damaged.length = damaged;
    this.notRows = notRows;
    this.useColumns();
    this.write(region, entry);
    return false;
  }

  /** Hands over what is gathered once it is 64 KiB; a promise while the sink is full. */
  flushIfFull(): Promise<void> | undefined {
    return this.out.flushIfFull();
  }

  /** The entry from its tables: damage noted, its lines (or its rows', filtered) printed. */
  private print(region: bigint, entry: WalEntry): void {
    const decoding = this.decode(entry);
    if (this.union !== null && decoding.kind === 'wal-entry') this.union.add(decoding.table);
    // On GreptimeDB's prefixes a bulk entry without rows is damage (its replay would fail).
    if (decoding.kind === 'wal-entry' && this.format === GT_FORMAT)
      this.damaged.push(...bulkProblems(region, entry, decoding.table));
    if (decoding.kind === 'not-wal-entry')
      this.damaged.push({
        what: 'payload',
        key: `region ${formatRegionId(region)} entry ${formatEntryId(entry.id)}`,
        reason: `not a WalEntry: ${decoding.failure.reason} at byte ${decoding.failure.offset} (${decoding.failure.detail})`,
      });
    if (this.mode === 'entries') {
      this.out.line(entryLine(region, entry, decoding, this.options.data === true));
      return;
    }
    if (decoding.kind !== 'wal-entry') {
      if (decoding.kind !== 'not-wal-entry') this.notRows += 1;
      return;
    }
    for (const row of rowsOfEntry(region, entry.id, decoding.table)) {
      if (!rowMatches(row, this.filter)) continue;
      this.out.line(this.columns === null ? rowLine(row) : csvLine(row, this.columns));
    }
  }

  async end(): Promise<void> {
    await this.out.flush();
    if (this.notRows > 0)
      process.stderr.write(
        `cairn: ${this.notRows} entries are not WalEntry payloads (JSON or raw bytes): no rows from them\n`,
      );
    reportDamaged(this.damaged);
  }
}
