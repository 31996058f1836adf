/**
 * Each decoded `Value` as the exact JSON text a row line carries (docs/design/greptimedb-
 * entries.md, "Cells"): 64-bit integers with all their digits, floats in their shortest exact
 * form, timestamps as UTC ISO-8601 with as many fraction digits as their unit, dates and
 * times of day likewise, decimals scaled by their column, binary as hex (its text when the
 * column holds JSON), lists and structs as arrays, intervals as objects, an unknown value
 * kind as `{"kind":N,"hex":...}`. One text per value, so the CLI and the console print the
 * same bytes. Pure.
 */
import {
  DATA_TYPE_JSON,
  type GtColumnSchema,
  type GtJson,
  type GtValue,
  type TimeUnit,
} from './wal-entry';

const TICKS: Readonly<Record<TimeUnit, bigint>> = {
  s: 1n,
  ms: 1000n,
  us: 1_000_000n,
  ns: 1_000_000_000n,
};
const FRACTION_DIGITS: Readonly<Record<TimeUnit, number>> = { s: 0, ms: 3, us: 6, ns: 9 };
/** Seconds either side of the epoch that a JavaScript Date holds. */
const DATE_LIMIT_SECONDS = 8_640_000_000_000n;
const DAY_SECONDS = 86_400;
/** Column data types TIMESTAMP_SECOND..TIMESTAMP_NANOSECOND, by unit. */
const TIMESTAMP_TYPES: Readonly<Record<number, TimeUnit>> = {
  15: 's',
  16: 'ms',
  17: 'us',
  18: 'ns',
};

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function hexOf(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at++) text += HEX[bytes[at]!]!;
  return text;
}

/** Any character JSON escapes, or that is not printable ASCII. */
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/** A JSON string; plain ASCII (most tags and names) skips JSON.stringify, a third faster. */
function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

const TICK_NUMBERS: Readonly<Record<TimeUnit, number>> = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Whole seconds (floored, so times before 1970 format too) and the ticks left; null past a
 * Date's range. Number arithmetic where the value allows it: bigint division is the slow part.
 */
function split(value: bigint, unit: TimeUnit): { seconds: number; fraction: number } | null {
  let seconds: number;
  let fraction: number;
  if (value <= SAFE && value >= -SAFE) {
    const ticks = Number(value);
    const per = TICK_NUMBERS[unit];
    seconds = Math.floor(ticks / per);
    fraction = ticks - seconds * per;
    // The quotient is rounded before the floor: set the pair straight (both sides are exact).
    if (fraction < 0) {
      seconds -= 1;
      fraction += per;
    } else if (fraction >= per) {
      seconds += 1;
      fraction -= per;
    }
  } else {
    const per = TICKS[unit];
    let whole = value / per;
    let left = value % per;
    if (left < 0n) {
      left += per;
      whole -= 1n;
    }
    if (whole > DATE_LIMIT_SECONDS || whole < -DATE_LIMIT_SECONDS) return null;
    seconds = Number(whole);
    fraction = Number(left);
  }
  return Math.abs(seconds) > Number(DATE_LIMIT_SECONDS) ? null : { seconds, fraction };
}

function fractionText(fraction: number, unit: TimeUnit): string {
  const digits = FRACTION_DIGITS[unit];
  return digits === 0 ? '' : `.${String(fraction).padStart(digits, '0')}`;
}

/**
 * The date and time of the last second formatted: a WAL entry's rows mostly share their
 * second, and a Date's ISO text costs far more than the rest of a cell.
 */
let lastSecond: number | null = null;
let lastSecondText = '';

function secondText(seconds: number): string {
  if (seconds !== lastSecond) {
    const iso = new Date(seconds * 1000).toISOString();
    lastSecondText = iso.slice(0, iso.length - 5);
    lastSecond = seconds;
  }
  return lastSecondText;
}

/** `2026-01-02T03:04:05.123Z` (fraction digits from the unit); null past a Date's range. */
export function isoTimestamp(value: bigint, unit: TimeUnit): string | null {
  const parts = split(value, unit);
  return parts === null
    ? null
    : `${secondText(parts.seconds)}${fractionText(parts.fraction, unit)}Z`;
}

function timestampJson(value: bigint, unit: TimeUnit): string {
  const iso = isoTimestamp(value, unit);
  return iso === null ? value.toString() : quoted(iso);
}

function dateJson(days: number): string {
  if (Math.abs(days) > 100_000_000) return String(days);
  return quoted(new Date(days * 86_400_000).toISOString().slice(0, 10));
}

/** A time of day `HH:MM:SS[.fraction]`; the plain number outside one day. */
function timeJson(value: bigint, unit: TimeUnit): string {
  const parts = value < 0n ? null : split(value, unit);
  if (parts === null || parts.seconds >= DAY_SECONDS) return value.toString();
  const s = parts.seconds;
  const two = (n: number): string => String(n).padStart(2, '0');
  return quoted(
    `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}${fractionText(parts.fraction, unit)}`,
  );
}

/** A double as JSON: NaN and the infinities, which JSON has no number for, as strings. */
function doubleJson(value: number): string {
  return Number.isFinite(value) ? String(value) : quoted(String(value));
}

/** The shortest decimal that reads back as the same float32 (0.1, not 0.10000000149011612). */
function float32Json(value: number): string {
  if (!Number.isFinite(value)) return quoted(String(value));
  for (let precision = 1; precision < 9; precision++) {
    const shorter = Number(value.toPrecision(precision));
    if (Math.fround(shorter) === value) return String(shorter);
  }
  return String(value);
}

const U64 = (1n << 64n) - 1n;

/** The 128-bit two's complement `hi:lo` scaled by the column's decimal scale. */
function decimalJson(hi: bigint, lo: bigint, scale: number): string {
  const unscaled = BigInt.asIntN(128, (hi << 64n) | (lo & U64));
  if (scale <= 0) return quoted(unscaled.toString());
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const sign = unscaled < 0n ? '-' : '';
  return quoted(`${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

function holdsJson(column: GtColumnSchema | undefined): boolean {
  return (
    column !== undefined &&
    (column.datatype === DATA_TYPE_JSON || column.extension?.kind === 'json')
  );
}

/** Binary as hex, or as its text when the column says it holds JSON and it parses. */
function binaryJson(bytes: Uint8Array, column: GtColumnSchema | undefined): string {
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

/** The JSON text of one cell; `column` is the schema column it sits under, if any. */
export function cellJson(value: GtValue, column?: GtColumnSchema): string {
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
      return unit === undefined ? value.value.toString() : timestampJson(value.value, unit);
    }
    case 'u64':
    case 'datetime':
    case 'interval_day_time':
      return value.value.toString();
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
      return `{"months":${value.months},"days":${value.days},"nanoseconds":${value.nanoseconds}}`;
    case 'decimal128':
      return decimalJson(
        value.hi,
        value.lo,
        column?.extension?.kind === 'decimal' ? column.extension.scale : 0,
      );
    case 'list':
    case 'struct':
      return `[${value.items.map((item) => cellJson(item)).join(',')}]`;
    case 'json':
      return jsonValueText(value.value);
    case 'unknown':
      return `{"kind":${value.field},"hex":${quoted(hexOf(value.bytes))}}`;
  }
}
