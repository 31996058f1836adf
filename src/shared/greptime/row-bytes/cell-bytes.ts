/**
 * One scanned cell written straight into the output, as JSON (a row line's value) or as a CSV
 * field: the same bytes as `scannedJson` and `csvCell` of it make (a differential test holds
 * them together), without a string for the commonest cells. A string is its UTF-8 bytes from
 * the payload (the walk checked them), escaped or quoted where JSON or CSV says; integers are written digit by digit; a millisecond timestamp is its second's
 * text (made once a second) and its milliseconds; a double is its kept text (cell-json.ts).
 * A CSV field of a JSON string is neutralised as csv-cell.ts says (a leading `=`, `+`, `-`,
 * `@`, TAB or CR gets a `'`) and quoted when it holds a comma. Every other kind, and any value
 * outside what a number holds exactly, is its text from cell-json.ts.
 */
import { csvCell } from '../csv-cell';
import { doubleJson, scannedJson } from '../decode/cell-json';
import { VALUE_CASE as C, wholeOf, type ScannedValue } from '../decode/decode-value';
import type { EntryReader } from '../decode/entry-reader';
import { TIMESTAMP_TYPES, timestampJson } from '../decode/time-json';
import type { GtValueType } from '../decode/wal-entry';
import type { ByteOut } from './byte-out';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const APOSTROPHE = 0x27;
const MINUS = 0x2d;
const DIGIT = 0x30;
/** Milliseconds either side of the epoch kept well inside what a Date holds. */
const MILLIS_LIMIT = 8.6e15;

/** JSON's short escapes by byte (JSON.stringify's); any other control is `\u00XX`. */
const SHORT_ESCAPES: Readonly<Record<number, number>> = {
  0x08: 0x62, // b
  0x09: 0x74, // t
  0x0a: 0x6e, // n
  0x0c: 0x66, // f
  0x0d: 0x72, // r
  0x22: 0x22, // "
  0x5c: 0x5c, // \
};
const HEX_DIGITS = '0123456789abcdef';

/**
 * A string's UTF-8 bytes (checked by the walk) as JSON.stringify quotes its text: a control,
 * quote or backslash escaped, every other byte as it is (a multi-byte character's bytes are
 * all 0x80 or above, so none is taken for one of those).
 */
function writeJsonString(out: ByteOut, from: Uint8Array, start: number, end: number): void {
  out.room((end - start) * 6 + 2);
  const bytes = out.bytes;
  let pos = out.pos;
  bytes[pos++] = QUOTE;
  for (let at = start; at < end; at++) {
    const byte = from[at]!;
    if (byte >= 0x20 && byte !== QUOTE && byte !== BACKSLASH) {
      bytes[pos++] = byte;
      continue;
    }
    bytes[pos++] = BACKSLASH;
    const short = SHORT_ESCAPES[byte];
    if (short !== undefined) bytes[pos++] = short;
    else {
      bytes[pos++] = 0x75; // u
      bytes[pos++] = DIGIT;
      bytes[pos++] = DIGIT;
      bytes[pos++] = HEX_DIGITS.charCodeAt(byte >> 4);
      bytes[pos++] = HEX_DIGITS.charCodeAt(byte & 15);
    }
  }
  bytes[pos++] = QUOTE;
  out.pos = pos;
}

/** Whether a spreadsheet could take a field starting with `byte` for a formula (csv-cell.ts). */
function formulaStart(byte: number): boolean {
  // = + - @ TAB CR
  return (
    byte === 0x3d || byte === 0x2b || byte === MINUS || byte === 0x40 || byte === 9 || byte === 13
  );
}

/** A safe integer's decimal digits (`String(n)`'s). */
export function writeInteger(out: ByteOut, value: number): void {
  out.room(17);
  const bytes = out.bytes;
  let n = value;
  if (n < 0) {
    bytes[out.pos++] = MINUS;
    n = -n;
  }
  let digits = 1;
  for (let power = 10; power <= n; power *= 10) digits += 1;
  const first = out.pos;
  out.pos = first + digits;
  // Last digit first, each at its place.
  for (let at = first + digits - 1; at > first; at--) {
    const rest = Math.floor(n / 10);
    bytes[at] = DIGIT + (n - rest * 10);
    n = rest;
  }
  bytes[first] = DIGIT + n;
}

/** A 64-bit integer as JSON writes it (a string of its digits) or its CSV field; false if a bigint. */
function writeInt64(out: ByteOut, scanned: ScannedValue, csv: boolean): boolean {
  const value = wholeOf(scanned);
  if (typeof value !== 'number') return false;
  // In CSV the string's text, neutralised: a negative one starts like a formula.
  if (csv ? value < 0 : true) out.byte(csv ? APOSTROPHE : QUOTE);
  writeInteger(out, value);
  if (!csv) out.byte(QUOTE);
  return true;
}

/** `"2026-01-02T03:04:05` of the last second written (its opening quote included). */
let lastSecond = Number.NaN;
let lastSecondBytes = new Uint8Array(0);
const ascii = new TextEncoder();

function secondBytes(seconds: number): Uint8Array | null {
  if (seconds !== lastSecond) {
    const text = timestampJson(seconds * 1000, 'ms');
    if (!text.endsWith('.000Z"')) return null;
    lastSecondBytes = ascii.encode(text.slice(0, -6));
    lastSecond = seconds;
  }
  return lastSecondBytes;
}

/** A millisecond timestamp as `timestampJson` writes it (or its CSV field); false past a number. */
function writeMillis(out: ByteOut, scanned: ScannedValue, csv: boolean): boolean {
  const ticks = wholeOf(scanned);
  if (typeof ticks !== 'number' || Math.abs(ticks) > MILLIS_LIMIT) return false;
  let seconds = Math.floor(ticks / 1000);
  let millis = ticks - seconds * 1000;
  if (millis < 0) {
    seconds -= 1;
    millis += 1000;
  } else if (millis >= 1000) {
    seconds += 1;
    millis -= 1000;
  }
  const second = secondBytes(seconds);
  if (second === null) return false;
  out.room(second.length + 7);
  // CSV: the text without its quote, neutralised (an expanded year starts with + or -).
  const from = csv ? 1 : 0;
  if (csv && formulaStart(second[1]!)) out.bytes[out.pos++] = APOSTROPHE;
  out.copy(second, from, second.length);
  const bytes = out.bytes;
  let pos = out.pos;
  bytes[pos++] = 0x2e; // .
  bytes[pos++] = DIGIT + Math.floor(millis / 100);
  bytes[pos++] = DIGIT + (Math.floor(millis / 10) % 10);
  bytes[pos++] = DIGIT + (millis % 10);
  bytes[pos++] = 0x5a; // Z
  if (!csv) bytes[pos++] = QUOTE;
  out.pos = pos;
  return true;
}

/**
 * A string's UTF-8 bytes as its neutralised CSV field (`csvText`'s): a `'` before a leading
 * formula character, quoted when it holds a quote, comma, CR or LF, its quotes doubled.
 */
function writeCsvString(out: ByteOut, from: Uint8Array, start: number, end: number): void {
  let quote = false;
  let quotes = 0;
  for (let at = start; at < end; at++) {
    const byte = from[at]!;
    if (byte === QUOTE) quotes += 1;
    else if (byte === COMMA || byte === 0x0a || byte === 0x0d) quote = true;
  }
  quote ||= quotes > 0;
  out.room(end - start + quotes + 3);
  if (quote) out.bytes[out.pos++] = QUOTE;
  if (end > start && formulaStart(from[start]!)) out.bytes[out.pos++] = APOSTROPHE;
  if (quotes === 0) out.copy(from, start, end);
  else
    for (let at = start; at < end; at++) {
      const byte = from[at]!;
      if (byte === QUOTE) out.bytes[out.pos++] = QUOTE;
      out.bytes[out.pos++] = byte;
    }
  if (quote) out.bytes[out.pos++] = QUOTE;
}

function writeString(out: ByteOut, d: EntryReader, scanned: ScannedValue, csv: boolean): void {
  const { start, end } = scanned;
  if (csv) writeCsvString(out, d.bytes, start, end);
  else if (scanned.plain) {
    out.room(end - start + 2);
    out.bytes[out.pos++] = QUOTE;
    out.copy(d.bytes, start, end);
    out.bytes[out.pos++] = QUOTE;
  } else writeJsonString(out, d.bytes, start, end);
}

/** The kinds written without their text; false for what cell-json.ts writes. */
function writeDirect(
  out: ByteOut,
  d: EntryReader,
  scanned: ScannedValue,
  column: GtValueType | undefined,
  csv: boolean,
): boolean {
  const kind = scanned.kind;
  // i8, i16, i32, u8, u16, u32 and year-month intervals: a number of up to 32 bits.
  if ((kind >= 1 && kind <= 7 && kind !== C.i64) || kind === C.intervalYearMonth) {
    if (!Number.isSafeInteger(scanned.number)) return false;
    writeInteger(out, scanned.number);
    return true;
  }
  switch (kind) {
    case 0:
      if (!csv) out.text('null');
      return true;
    case C.string:
      writeString(out, d, scanned, csv);
      return true;
    case C.f64:
      // A double's text is a JSON number, its CSV field as it is; NaN and infinities are strings.
      if (csv && !Number.isFinite(scanned.number)) return false;
      out.text(doubleJson(scanned.number));
      return true;
    case C.bool:
      out.text(scanned.number === 1 ? 'true' : 'false');
      return true;
    case C.i64: {
      const unit = column === undefined ? undefined : TIMESTAMP_TYPES[column.datatype];
      if (unit === undefined) return writeInt64(out, scanned, csv);
      return unit === 'ms' && writeMillis(out, scanned, csv);
    }
    case C.u64:
      return writeInt64(out, scanned, csv);
    case C.timestamp + 1:
      return writeMillis(out, scanned, csv);
  }
  return false;
}

/** The JSON text of the cell `scanValue` just read (`scannedJson`'s). */
export function writeCellJson(
  out: ByteOut,
  d: EntryReader,
  scanned: ScannedValue,
  column: GtValueType | undefined,
): void {
  if (!writeDirect(out, d, scanned, column, false)) out.text(scannedJson(d, scanned, column));
}

/** The CSV field of the cell `scanValue` just read (`csvCell` of its JSON text). */
export function writeCellCsv(
  out: ByteOut,
  d: EntryReader,
  scanned: ScannedValue,
  column: GtValueType | undefined,
): void {
  if (!writeDirect(out, d, scanned, column, true))
    out.text(csvCell(scannedJson(d, scanned, column)));
}
