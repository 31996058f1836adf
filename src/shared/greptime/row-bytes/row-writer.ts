/**
 * `cairn wal replay --rows` at the speed of text: a payload's rows written as their NDJSON
 * lines or CSV lines straight into the output while the walk reads them (walk-entry.ts), each
 * cell from the wire (cell-bytes.ts) - no table of cell texts, no row object, no line string.
 * The bytes are exactly those of `rowLine` / `csvLine` over `decodePayload`'s tables (a
 * differential test holds them together). What this writer does not do it leaves to the
 * tables, writing nothing for that payload (`entry` returns false): a payload that is not a
 * `WalEntry` (or, on a Cairn prefix, not a plausible one), one with bulk entries (their rows
 * come from Arrow), a row longer or shorter than its schema, a column or an op or sequence
 * read after rows, and in CSV a schema whose columns are not the header's first ones in order.
 */
import type { GtColumnView } from '../entry-table';
import { csvQuoted } from '../csv-cell';
import type { ScannedValue } from '../decode/decode-value';
import { isPlausible } from '../decode/detect-payload';
import type { EntryReader } from '../decode/entry-reader';
import { columnViews, nameOr } from '../decode/entry-table';
import { walkWalEntry, type MutationHead, type RowsBuilder } from '../decode/walk-entry';
import { OP_TYPE_NAMES, type GtColumnSchema } from '../decode/wal-entry';
import { formatEntryId, formatRegionId } from '../../id-notation';
import type { ByteOut } from './byte-out';
import { writeCellCsv, writeCellJson, writeInteger } from './cell-bytes';

const utf8 = new TextEncoder();
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const QUOTE = 0x22;
const CLOSE = 0x7d;

/** How one schema's rows are written: its key texts, or how it lines up with the CSV header. */
interface SchemaLayout {
  readonly schema: readonly GtColumnSchema[];
  /** Its columns as the tables name them (a CSV header's union takes them). */
  readonly views: readonly GtColumnView[];
  /** `,"key":` of each column (NDJSON). */
  readonly keys: readonly Uint8Array[];
  /** Header columns after the schema's (CSV): each an empty field. */
  readonly trailing: number;
  /** Its columns are not the header's first ones in order (CSV): left to the tables. */
  readonly misaligned: boolean;
}

/**
 * The payload as a plain `Uint8Array` (a view, no copy): a local read's payloads are Buffers, an
 * S3 read's are not, and the walk's and the copies' byte loads run faster on one kind of array
 * than on two (a tenth fewer instructions a row, measured).
 */
function plainBytes(payload: Uint8Array): Uint8Array {
  return payload.constructor === Uint8Array
    ? payload
    : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
}

function sameSchema(a: readonly GtColumnSchema[], b: readonly GtColumnSchema[]): boolean {
  if (a.length !== b.length) return false;
  // The walk hands out the same column object while its bytes repeat (walk-entry.ts).
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}

export class RowBytesWriter implements RowsBuilder<null> {
  /** The entry's ids as each of its lines starts with them. */
  private entryHead = '';
  private failed = false;
  private schema: readonly GtColumnSchema[] = [];
  private head: MutationHead = { opType: 0, sequence: 0n };
  private layout: SchemaLayout | null = null;
  private lastLayout: SchemaLayout | null = null;
  /** The line's start up to its sequence's digits, for the mutation being written. */
  private rowHead = new Uint8Array(0);
  private opType = 0;
  private firstSequence = 0n;
  private sequenceBase = 0;
  private rows = 0;
  private cells = 0;
  private inRow = false;
  /** The columns of each mutation of the last entry written (`entryColumns`' of it). */
  readonly entryViews: Array<readonly GtColumnView[]> = [];

  /** `csvColumns`: the CSV header's columns, or null for NDJSON lines. */
  constructor(
    private readonly out: ByteOut,
    private readonly csvColumns: readonly GtColumnView[] | null,
  ) {}

  /** Writes the payload's rows; false, with nothing written, when it is left to its tables. */
  entry(region: bigint, id: bigint, payload: Uint8Array, onGreptimePrefix: boolean): boolean {
    const mark = this.out.mark();
    const ids = [formatRegionId(region), region.toString(), formatEntryId(id), id.toString()];
    this.entryHead =
      this.csvColumns === null
        ? `{"region":"${ids[0]}","regionU64":"${ids[1]}","id":"${ids[2]}","idU64":"${ids[3]}",`
        : `${ids.map(csvQuoted).join(',')},`;
    this.failed = false;
    this.layout = null;
    this.entryViews.length = 0;
    const walked = walkWalEntry(plainBytes(payload), this);
    const written =
      walked.ok &&
      !this.failed &&
      walked.entry.bulkEntries.length === 0 &&
      (onGreptimePrefix || isPlausible(walked.entry));
    if (!written) this.out.rewind(mark);
    return written;
  }

  begin(schema: readonly GtColumnSchema[], head: MutationHead): void {
    this.schema = schema;
    this.head = head;
    this.layout = null;
    this.rows = 0;
  }

  /** The layout of the schema as read at the first row, the last one's when it is the same. */
  private layoutOf(schema: readonly GtColumnSchema[]): SchemaLayout {
    const last = this.lastLayout;
    if (last !== null && sameSchema(last.schema, schema)) return last;
    const views = columnViews(schema, schema.length);
    const header = this.csvColumns;
    const layout: SchemaLayout = {
      schema: [...schema],
      views,
      keys: views.map((view) => utf8.encode(`,${JSON.stringify(view.key)}:`)),
      trailing: header === null ? 0 : header.length - views.length,
      misaligned: header !== null && views.some((view, at) => header[at]?.key !== view.key),
    };
    this.lastLayout = layout;
    return layout;
  }

  /** The mutation's first row: its layout, and the start its lines share. */
  private startMutation(): SchemaLayout {
    const layout = this.layoutOf(this.schema);
    this.layout = layout;
    this.entryViews.push(layout.views);
    this.opType = this.head.opType;
    this.firstSequence = this.head.sequence;
    this.sequenceBase = Number(this.firstSequence);
    const op = nameOr(OP_TYPE_NAMES, this.opType);
    const opText =
      this.csvColumns === null
        ? `"op":${typeof op === 'string' ? JSON.stringify(op) : String(op)},"sequence":"`
        : `${csvQuoted(String(op))},`;
    this.rowHead = utf8.encode(`${this.entryHead}${opText}`);
    if (layout.misaligned) this.failed = true;
    return layout;
  }

  row(): void {
    if (this.inRow) this.closeRow();
    if (this.failed) return;
    if (this.layout === null) this.startMutation();
    if (this.failed) return;
    const out = this.out;
    out.put(this.rowHead);
    // A row's sequence is its mutation's plus its index: a number's digits while exact.
    const sequence = this.sequenceBase + this.rows;
    if (Number.isSafeInteger(sequence)) writeInteger(out, sequence);
    else out.text((this.firstSequence + BigInt(this.rows)).toString());
    if (this.csvColumns === null) out.byte(QUOTE);
    this.rows += 1;
    this.cells = 0;
    this.inRow = true;
  }

  cell(d: EntryReader, scanned: ScannedValue, index: number): void {
    if (this.failed || !this.inRow) return;
    const layout = this.layout!;
    if (index >= layout.keys.length) {
      this.failed = true;
      return;
    }
    const column = this.schema[index];
    if (this.csvColumns === null) {
      const key = layout.keys[index]!;
      this.out.put(key);
      writeCellJson(this.out, d, scanned, column);
    } else {
      this.out.byte(COMMA);
      writeCellCsv(this.out, d, scanned, column);
    }
    this.cells += 1;
  }

  private closeRow(): void {
    this.inRow = false;
    const layout = this.layout;
    if (this.failed || layout === null) return;
    // A short row's missing cells, a long row's extra keys: the tables pad and name them.
    if (this.cells !== layout.keys.length) {
      this.failed = true;
      return;
    }
    const out = this.out;
    out.room(layout.trailing + 2);
    if (this.csvColumns === null) out.bytes[out.pos++] = CLOSE;
    else for (let at = 0; at < layout.trailing; at++) out.bytes[out.pos++] = COMMA;
    out.bytes[out.pos++] = NEWLINE;
  }

  end(): null {
    if (this.inRow) this.closeRow();
    const layout = this.layout;
    // A column, an op or a sequence read after the rows it would have changed.
    if (
      layout !== null &&
      (this.schema.length !== layout.keys.length ||
        this.head.opType !== this.opType ||
        this.head.sequence !== this.firstSequence)
    )
      this.failed = true;
    return null;
  }
}
