/**
 * Each decoded `Value` as the exact JSON text a row line carries (docs/design/greptimedb-
 * entries.md, "Cells"): 64-bit integers with all their digits, floats in their shortest exact
 * form, timestamps as UTC ISO-8601 with as many fraction digits as their unit, dates and
 * times of day likewise, decimals scaled by their column, binary as hex (its text when the
 * column holds JSON), lists and structs as arrays, intervals as objects, an unknown value
 * kind as `{"kind":N,"hex":...}`. One text per value, so the CLI and the console print the
 * same bytes: `cellJson` writes it from a typed value, `scannedJson` from the wire's value as
 * `scanValue` left it (no typed value made for the plain kinds). Pure but for the texts of
 * recent strings and doubles kept (a metrics entry repeats them), which change no result.
 */
import { unitOf, VALUE_CASE as C, wholeOf, type ScannedValue } from './decode-value';
import { latin1, type EntryReader } from './entry-reader';
import { dateJson, timeJson, timestampJson, TIMESTAMP_TYPES } from './time-json';
import {
  DATA_TYPE_JSON,
  type GtColumnExtension,
  type GtJson,
  type GtValue,
  type GtValueType,
} from './wal-entry';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
/** A leading byte-order mark stays (JSON held in binary with one is not JSON: shown as hex). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function hexOf(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at++) text += HEX[bytes[at]!]!;
  return text;
}

/** Any character JSON escapes, or that is not printable ASCII. */
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/** A JSON string; plain ASCII (most tags and names) skips JSON.stringify, a third faster. */
export function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Plain strings made lately, by a hash of their bytes: tags repeat row after row. */
const PLAIN_SLOTS = 1024;
const PLAIN_LONGEST = 48;
const plainBytes: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(PLAIN_SLOTS);
const plainTexts: string[] = new Array<string>(PLAIN_SLOTS).fill('');

/** The JSON text of printable ASCII bytes (no quote or backslash among them): quoted as they are. */
function plainJson(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length > PLAIN_LONGEST) return `"${latin1(bytes, start, end)}"`;
  let hash = length;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ bytes[at]!, 0x01000193);
  const slot = (hash >>> 16) & (PLAIN_SLOTS - 1);
  const known = plainBytes[slot];
  found: if (known !== undefined && known.length === length) {
    for (let at = 0; at < length; at++) if (known[at] !== bytes[start + at]) break found;
    return plainTexts[slot]!;
  }
  const text = `"${latin1(bytes, start, end)}"`;
  plainBytes[slot] = bytes.slice(start, end);
  plainTexts[slot] = text;
  return text;
}

/**
 * Texts of doubles made lately, by a hash of their bits: a metric's samples repeat values, and
 * V8's own number-string cache keys doubles by the low bits of lo ^ hi, where short decimals
 * (14.7 is 0x402D6666_66666666) collide.
 */
const DOUBLE_SLOTS = 4096;
const doubleKeys = new Float64Array(DOUBLE_SLOTS).fill(Number.NaN);
const doubleTexts: string[] = new Array<string>(DOUBLE_SLOTS).fill('');
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/**
 * A double as JSON: NaN and the infinities, which JSON has no number for, as strings; -0 keeps
 * its sign (String(-0) is "0").
 */
export function doubleJson(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  bits[0] = value;
  const mixed = Math.imul(words[0]! ^ Math.imul(words[1]!, 0x9e3779b1), 0x85ebca6b);
  const slot = mixed >>> 20;
  if (doubleKeys[slot] === value) return doubleTexts[slot]!;
  const text = Number.isFinite(value) ? String(value) : quoted(String(value));
  doubleKeys[slot] = value;
  doubleTexts[slot] = text;
  return text;
}

/**
 * The shortest decimal that reads back as the same float32 (0.1, not 0.10000000149011612): 9
 * significant digits always do; -0 keeps its sign.
 */
export function float32Json(value: number): string {
  if (!Number.isFinite(value)) return quoted(String(value));
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  for (let precision = 1; precision < 9; precision++) {
    const shorter = Number(value.toPrecision(precision));
    if (Math.fround(shorter) === value) return String(shorter);
  }
  return String(Number(value.toPrecision(9)));
}

const U64 = (1n << 64n) - 1n;

/**
 * GreptimeDB's scale for a decimal read without a decimal extension
 * (`DECIMAL128_DEFAULT_SCALE`, common/decimal's decimal128.rs).
 */
export const DECIMAL128_DEFAULT_SCALE = 10;

/** The scale a decimal is read at under `extension`: its own (as an i8, as GreptimeDB casts it). */
function scaleOf(extension: GtColumnExtension | null | undefined): number {
  return extension?.kind === 'decimal' ? (extension.scale << 24) >> 24 : DECIMAL128_DEFAULT_SCALE;
}

/** The 128-bit two's complement `hi:lo` scaled. */
function decimalJson(hi: bigint, lo: bigint, scale: number): string {
  return scaledJson(BigInt.asIntN(128, (hi << 64n) | (lo & U64)), scale);
}

/** A decimal's unscaled value at `scale`: a negative scale multiplies (123 at -2 is 12300). */
export function scaledJson(unscaled: bigint, scale: number): string {
  if (scale === 0) return quoted(unscaled.toString());
  if (scale < 0) return quoted((unscaled * 10n ** BigInt(-scale)).toString());
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const sign = unscaled < 0n ? '-' : '';
  return quoted(`${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

function holdsJson(column: GtValueType | undefined): boolean {
  return (
    column !== undefined &&
    (column.datatype === DATA_TYPE_JSON || column.extension?.kind === 'json')
  );
}

/** Binary as hex, or as its text when the column says it holds JSON and it parses. */
function binaryJson(bytes: Uint8Array, column: GtValueType | undefined): string {
  if (holdsJson(column)) {
    try {
      const text = utf8.decode(bytes);
      JSON.parse(text);
      return quoted(text);
    } catch {
      // Not JSON after all: shown as its bytes.
    }
  }
  return quoted(hexOf(bytes));
}

export function jsonValueText(json: GtJson): string {
  if (json === null) return 'null';
  switch (json.kind) {
    case 'boolean':
      return String(json.value);
    case 'int':
    case 'uint':
      return json.value.toString();
    case 'float':
      return doubleJson(json.value);
    case 'str':
      return quoted(json.value);
    case 'array':
      return `[${json.items.map(jsonValueText).join(',')}]`;
    case 'object':
      return `{${json.entries.map((e) => `${quoted(e.key)}:${jsonValueText(e.value)}`).join(',')}}`;
    case 'variant':
      return quoted(hexOf(json.bytes));
    case 'unknown':
      return `{"kind":${json.field}}`;
  }
}

/** `{"days":D,"milliseconds":M}`: GreptimeDB's IntervalDayTime, days in the high 32 bits. */
function dayTimeJson(value: bigint | number): string {
  const whole = BigInt(value);
  return `{"days":${Number(BigInt.asIntN(32, whole >> 32n))},"milliseconds":${Number(BigInt.asIntN(32, whole))}}`;
}

/** A 64-bit integer as the protobuf JSON mapping writes it: a string, every digit kept. */
function int64Json(value: bigint | number): string {
  return `"${value}"`;
}

/** The type of the `at`-th item of a list or struct read under `type` (GreptimeDB's rule). */
function itemType(type: GtValueType | undefined, at: number): GtValueType | undefined {
  const extension = type?.extension;
  if (extension?.kind === 'list')
    return { datatype: extension.datatype, extension: extension.extension };
  if (extension?.kind === 'struct') return extension.fields[at];
  return undefined;
}

/**
 * The JSON text of one cell; `column` is the type it is read under (its schema column, or a
 * list's items' or a struct field's type), if any.
 */
export function cellJson(value: GtValue, column?: GtValueType): string {
  if (value === null) return 'null';
  switch (value.kind) {
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'i8':
    case 'i16':
    case 'i32':
    case 'u8':
    case 'u16':
    case 'u32':
    case 'interval_year_month':
      return String(value.value);
    case 'i64': {
      // An i64 under a timestamp column is a timestamp of the column's unit.
      const unit = column === undefined ? undefined : TIMESTAMP_TYPES[column.datatype];
      return unit === undefined ? int64Json(value.value) : timestampJson(value.value, unit);
    }
    case 'u64':
      return int64Json(value.value);
    case 'datetime':
      // GreptimeDB reads a DATETIME value as a microsecond timestamp.
      return timestampJson(value.value, 'us');
    case 'interval_day_time':
      return dayTimeJson(value.value);
    case 'f32':
      return float32Json(value.value);
    case 'f64':
      return doubleJson(value.value);
    case 'string':
      return quoted(value.value);
    case 'binary':
      return binaryJson(value.value, column);
    case 'date':
      return dateJson(value.value);
    case 'timestamp':
      return timestampJson(value.value, value.unit);
    case 'time':
      return timeJson(value.value, value.unit);
    case 'interval_month_day_nano':
      return `{"months":${value.months},"days":${value.days},"nanoseconds":"${value.nanoseconds}"}`;
    case 'decimal128':
      return decimalJson(value.hi, value.lo, scaleOf(column?.extension));
    case 'list':
    case 'struct':
      return `[${value.items.map((item, at) => cellJson(item, itemType(column, at))).join(',')}]`;
    case 'json':
      return jsonValueText(value.value);
    case 'unknown':
      return `{"kind":${value.field},"hex":${quoted(hexOf(value.bytes))}}`;
  }
}

/**
 * The JSON text of the value `scanValue` just read, written from the wire without a typed
 * value for the plain kinds (the same text `cellJson` gives its typed value).
 */
export function scannedJson(
  d: EntryReader,
  scanned: ScannedValue,
  column: GtValueType | undefined,
): string {
  const kind = scanned.kind;
  switch (kind) {
    case 0:
      return 'null';
    case C.string:
      return scanned.plain
        ? plainJson(d.bytes, scanned.start, scanned.end)
        : quoted(d.text(scanned.start, scanned.end));
    case C.f64:
      return doubleJson(scanned.number);
    case C.i64: {
      const unit = column === undefined ? undefined : TIMESTAMP_TYPES[column.datatype];
      const value = wholeOf(scanned);
      return unit === undefined ? int64Json(value) : timestampJson(value, unit);
    }
    case C.timestamp:
    case C.timestamp + 1:
    case C.timestamp + 2:
    case C.timestamp + 3:
      return timestampJson(wholeOf(scanned), unitOf(kind, C.timestamp));
    case C.time:
    case C.time + 1:
    case C.time + 2:
    case C.time + 3:
      return timeJson(wholeOf(scanned), unitOf(kind, C.time));
    case C.u64:
      return int64Json(wholeOf(scanned));
    case C.datetime:
      return timestampJson(wholeOf(scanned), 'us');
    case C.intervalDayTime:
      return dayTimeJson(wholeOf(scanned));
    case 1:
    case 2:
    case 3:
    case 5:
    case 6:
    case 7:
    case C.intervalYearMonth:
      return String(scanned.number);
    case C.bool:
      return scanned.number === 1 ? 'true' : 'false';
    case C.f32:
      return float32Json(scanned.number);
    case C.date:
      return dateJson(scanned.number);
    case C.binary:
      return binaryJson(d.bytes.subarray(scanned.start, scanned.end), column);
    default:
      return cellJson(scanned.value, column);
  }
}
