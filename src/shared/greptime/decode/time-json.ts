/**
 * Times as the JSON texts of their cells (docs/design/greptimedb-entries.md, "Cells"):
 * timestamps as UTC ISO-8601 with as many fraction digits as their unit, dates, and times of
 * day; a value past what a JavaScript Date holds as its number. Number arithmetic wherever the
 * value is an exact number (bigint division is the slow part), the date and time of the last
 * second formatted kept (a WAL entry's rows mostly share their second). Pure but for that
 * cache, which changes no result.
 */
import type { TimeUnit } from './wal-entry';

const TICKS: Readonly<Record<TimeUnit, bigint>> = {
  s: 1n,
  ms: 1000n,
  us: 1_000_000n,
  ns: 1_000_000_000n,
};
const TICK_NUMBERS: Readonly<Record<TimeUnit, number>> = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };
const FRACTION_DIGITS: Readonly<Record<TimeUnit, number>> = { s: 0, ms: 3, us: 6, ns: 9 };
/** `.000` to `.999`: a millisecond's fraction is the commonest, and a lookup is cheapest. */
const MILLIS = Array.from({ length: 1000 }, (_, ms) => `.${String(ms).padStart(3, '0')}`);
/** Seconds either side of the epoch that a JavaScript Date holds. */
const DATE_LIMIT_SECONDS = 8_640_000_000_000;
const DATE_LIMIT = BigInt(DATE_LIMIT_SECONDS);
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const DAY_SECONDS = 86_400;

/** Column data types TIMESTAMP_SECOND..TIMESTAMP_NANOSECOND, by unit. */
export const TIMESTAMP_TYPES: Readonly<Record<number, TimeUnit>> = {
  15: 's',
  16: 'ms',
  17: 'us',
  18: 'ns',
};

/** What the last `split` found: whole seconds and the ticks left. */
let seconds = 0;
let fraction = 0;

/**
 * Whole seconds (floored, so times before 1970 format too) and the ticks left, into `seconds`
 * and `fraction`; false past a Date's range.
 */
function split(value: bigint | number, unit: TimeUnit): boolean {
  if (typeof value === 'number' || (value <= SAFE && value >= -SAFE)) {
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
    if (whole > DATE_LIMIT || whole < -DATE_LIMIT) return false;
    seconds = Number(whole);
    fraction = Number(left);
  }
  return Math.abs(seconds) <= DATE_LIMIT_SECONDS;
}

function fractionText(unit: TimeUnit): string {
  if (unit === 'ms') return MILLIS[fraction]!;
  const digits = FRACTION_DIGITS[unit];
  return digits === 0 ? '' : `.${String(fraction).padStart(digits, '0')}`;
}

let lastSecond = Number.NaN;
let lastSecondText = '';

/** `"2026-01-02T03:04:05` of the last split's second (the text's opening quote included). */
function secondText(): string {
  if (seconds !== lastSecond) {
    const iso = new Date(seconds * 1000).toISOString();
    lastSecondText = `"${iso.slice(0, iso.length - 5)}`;
    lastSecond = seconds;
  }
  return lastSecondText;
}

/**
 * `"2026-01-02T03:04:05.123Z"` (fraction digits from the unit; a year past 9999 or before 0 in
 * ISO's expanded form, `+010000-…`); past a Date's range the number, as a string.
 */
export function timestampJson(value: bigint | number, unit: TimeUnit): string {
  return split(value, unit) ? `${secondText()}${fractionText(unit)}Z"` : `"${value}"`;
}

/** `"2026-01-02"`, whole for any year a Date holds (`"+010000-01-01"`, `"-000001-12-31"`). */
export function dateJson(days: number): string {
  if (Math.abs(days) > 100_000_000) return String(days);
  const iso = new Date(days * 86_400_000).toISOString();
  return `"${iso.slice(0, iso.indexOf('T'))}"`;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** A time of day `"HH:MM:SS[.fraction]"`; outside one day the number, as a string. */
export function timeJson(value: bigint | number, unit: TimeUnit): string {
  if (value < 0 || !split(value, unit) || seconds >= DAY_SECONDS) return `"${value}"`;
  const s = seconds;
  return `"${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}${fractionText(unit)}"`;
}
