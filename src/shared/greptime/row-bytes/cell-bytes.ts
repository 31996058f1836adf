/**
 * One scanned cell written straight into the output, as JSON (a row line's value) or as a CSV
 * field: the same bytes as `scannedJson` and `csvCell` make (a differential test holds them
 * together), without a string for the commonest cells. A string whose bytes JSON quotes as
 * they are (no control, quote or backslash: the wire's UTF-8 is the text's) is copied from the
 * payload; a CSV string field is neutralised as csv-cell.ts says (a leading `=`, `+`, `-`, `@`
 * gets a `'`) and quoted when it holds a comma. Every other kind is its text from cell-json.ts.
 */
import { csvCell, csvText } from '../csv-cell';
import { doubleJson, quoted, scannedJson } from '../decode/cell-json';
import { VALUE_CASE, type ScannedValue } from '../decode/decode-value';
import type { EntryReader } from '../decode/entry-reader';
import type { GtValueType } from '../decode/wal-entry';
import type { ByteOut } from './byte-out';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const APOSTROPHE = 0x27;

/** Whether JSON quotes bytes `start..end` (valid UTF-8) as they are: no control, quote or backslash. */
function quotesAsIs(bytes: Uint8Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const byte = bytes[at]!;
    if (byte < 0x20 || byte === QUOTE || byte === BACKSLASH) return false;
  }
  return true;
}

/** The JSON text of the cell `scanValue` just read (`scannedJson`'s). */
export function writeCellJson(
  out: ByteOut,
  d: EntryReader,
  scanned: ScannedValue,
  column: GtValueType | undefined,
): void {
  const kind = scanned.kind;
  if (kind === VALUE_CASE.string) {
    const { start, end } = scanned;
    if (scanned.plain || quotesAsIs(d.bytes, start, end)) {
      out.room(end - start + 2);
      out.bytes[out.pos++] = QUOTE;
      out.copy(d.bytes, start, end);
      out.bytes[out.pos++] = QUOTE;
    } else out.text(quoted(d.text(start, end)));
  } else if (kind === VALUE_CASE.f64) out.text(doubleJson(scanned.number));
  else out.text(scannedJson(d, scanned, column));
}

/** Whether a spreadsheet could take a field starting with `byte` for a formula (csv-cell.ts). */
function formulaStart(byte: number): boolean {
  // = + - @ TAB CR
  return (
    byte === 0x3d || byte === 0x2b || byte === 0x2d || byte === 0x40 || byte === 9 || byte === 13
  );
}

/** Printable ASCII (no quote or backslash) as a neutralised CSV field, quoted if it holds a comma. */
function writePlainCsv(out: ByteOut, bytes: Uint8Array, start: number, end: number): void {
  let comma = false;
  for (let at = start; at < end; at++)
    if (bytes[at] === COMMA) {
      comma = true;
      break;
    }
  out.room(end - start + 3);
  if (comma) out.bytes[out.pos++] = QUOTE;
  if (end > start && formulaStart(bytes[start]!)) out.bytes[out.pos++] = APOSTROPHE;
  out.copy(bytes, start, end);
  if (comma) out.bytes[out.pos++] = QUOTE;
}

/** The CSV field of the cell `scanValue` just read (`csvCell` of its JSON text). */
export function writeCellCsv(
  out: ByteOut,
  d: EntryReader,
  scanned: ScannedValue,
  column: GtValueType | undefined,
): void {
  const kind = scanned.kind;
  if (kind === 0) return;
  if (kind === VALUE_CASE.string) {
    if (scanned.plain) writePlainCsv(out, d.bytes, scanned.start, scanned.end);
    else out.text(csvText(d.text(scanned.start, scanned.end)));
  } else if (kind === VALUE_CASE.f64 && Number.isFinite(scanned.number))
    out.text(doubleJson(scanned.number));
  else out.text(csvCell(scannedJson(d, scanned, column)));
}
