/**
 * Which replayed rows to keep, the same in the CLI (`--where`, `--since`, `--until`) and the
 * console's column filters and time range, and by `cairn wal search` and the console's Search, so
 * an export there prints what the CLI prints for the same filter. A condition compares a key's
 * plain text (`rowText`): `key=value` equal, `key!=value` not equal, `key~regex` matches the
 * regular expression anywhere (plain text: contains), `key<n` / `key>n` numerically (integers
 * exactly, a text that is not a number never matches). The time range is on the row's time index
 * column, since inclusive, until exclusive, UTC ISO-8601 down to the nanosecond; a row with no
 * time index value is outside any range. Pure; bad input is an Error naming what is wrong.
 */
import { cellText, rowText, type ReplayRow } from './replay-rows';

export type ConditionOp = '=' | '!=' | '~' | '<' | '>';

export interface RowCondition {
  readonly key: string;
  readonly op: ConditionOp;
  readonly value: string;
}

export interface RowFilter {
  readonly conditions: readonly RowCondition[];
  /** Nanoseconds since the epoch. */
  readonly since: bigint | null;
  readonly until: bigint | null;
}

export const NO_ROW_FILTER: RowFilter = { conditions: [], since: null, until: null };

/** `key=value`, `key!=value`, `key~regex`, `key<n` or `key>n`, split at the first operator. */
export function parseCondition(text: string): RowCondition | Error {
  const match = /^(.+?)(!=|=|~|<|>)(.*)$/s.exec(text);
  if (match === null || match[1] === undefined || match[1].trim() === '')
    return new Error(`"${text}" is not key=value, key!=value, key~regex, key<number or key>number`);
  const condition = { key: match[1].trim(), op: match[2] as ConditionOp, value: match[3] ?? '' };
  if (condition.op === '~' && regexOf(condition.value) === null)
    return new Error(`"${condition.value}" is not a regular expression`);
  if ((condition.op === '<' || condition.op === '>') && numberOf(condition.value) === null)
    return new Error(`"${condition.value}" is not a number (${condition.op} compares numbers)`);
  return condition;
}

/** `text` as a regular expression matching itself literally. */
function literalRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A console column filter's text as a condition: `=v` equal, `!=v` not equal, `~re` a regular
 * expression, `<n` / `>n` numeric, anything else contains; blank is none.
 */
export function conditionOfInput(key: string, input: string): RowCondition | null {
  if (input === '') return null;
  if (input.startsWith('!=')) return { key, op: '!=', value: input.slice(2) };
  if (input.startsWith('=')) return { key, op: '=', value: input.slice(1) };
  if (input.startsWith('~')) return { key, op: '~', value: input.slice(1) };
  if ((input.startsWith('<') || input.startsWith('>')) && numberOf(input.slice(1)) !== null)
    return { key, op: input[0] as '<' | '>', value: input.slice(1) };
  return { key, op: '~', value: literalRegex(input) };
}

/** Compiled regular expressions by source; null for a source that is not one. */
const regexes = new Map<string, RegExp | null>();
const MAX_KEPT_REGEXES = 256;

function regexOf(source: string): RegExp | null {
  let regex = regexes.get(source);
  if (regex !== undefined) return regex;
  try {
    regex = new RegExp(source, 'u');
  } catch {
    regex = null;
  }
  if (regexes.size >= MAX_KEPT_REGEXES) regexes.clear();
  regexes.set(source, regex);
  return regex;
}

const INTEGER = /^[+-]?\d+$/;

/** A number's text as a bigint (integers, exact) or a finite number; null when not a number. */
function numberOf(text: string): bigint | number | null {
  const trimmed = text.trim();
  if (INTEGER.test(trimmed)) return BigInt(trimmed);
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** a - b's sign, exactly when both are integers. */
function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const UTC_TIME =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Nanoseconds since the epoch of `2026-01-02`, `…T03:04[:05[.123456789]]` (UTC, or an offset);
 * a year outside 0000-9999 in ISO's expanded form (`+010000-01-01`), as cells write it.
 */
export function parseUtcTime(text: string): bigint | null {
  const match = UTC_TIME.exec(text.trim());
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0));
  const ms = date.getTime();
  // A day or time past its range rolls over (2026-02-31 is in March): such a time is not one.
  if (
    Number.isNaN(ms) ||
    date.getUTCDate() !== Number(day) ||
    date.getUTCHours() !== Number(hour ?? 0) ||
    date.getUTCMinutes() !== Number(minute ?? 0) ||
    date.getUTCSeconds() !== Number(second ?? 0)
  )
    return null;
  let ns = BigInt(ms) * 1_000_000n + BigInt((fraction ?? '').padEnd(9, '0') || '0');
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    const minutes = BigInt(Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    ns -= sign * minutes * 60_000_000_000n;
  }
  return ns;
}

/** The row's time index value in nanoseconds, or null. */
export function rowTime(row: ReplayRow): bigint | null {
  const at = row.columns.findIndex((column) => column.semantic === 'TIMESTAMP');
  return at < 0 ? null : parseUtcTime(cellText(row.cells[at] ?? 'null'));
}

/** Whether a key's plain text satisfies `condition` (the one test every filter runs). */
export function textHolds(text: string, condition: RowCondition): boolean {
  switch (condition.op) {
    case '=':
      return text === condition.value;
    case '!=':
      return text !== condition.value;
    case '~': {
      const regex = regexOf(condition.value);
      return regex === null ? text.includes(condition.value) : regex.test(text);
    }
    case '<':
    case '>': {
      const value = numberOf(text);
      const bound = numberOf(condition.value);
      if (value === null || bound === null) return false;
      const sign = compareNumbers(value, bound);
      return condition.op === '<' ? sign < 0 : sign > 0;
    }
  }
}

/** Whether a time index value (null: the row has none) is inside the filter's range. */
export function timeWithin(time: bigint | null, filter: RowFilter): boolean {
  if (filter.since === null && filter.until === null) return true;
  if (time === null) return false;
  return (
    (filter.since === null || time >= filter.since) &&
    (filter.until === null || time < filter.until)
  );
}

export function rowMatches(row: ReplayRow, filter: RowFilter): boolean {
  for (const condition of filter.conditions)
    if (!textHolds(rowText(row, condition.key), condition)) return false;
  if (filter.since === null && filter.until === null) return true;
  return timeWithin(rowTime(row), filter);
}

/** The CLI flags that select what `filter` selects (for the console's "same as" line). */
export function filterFlags(filter: RowFilter, times: { since: string; until: string }): string[] {
  const flags = filter.conditions.flatMap((c) => ['--where', `${c.key}${c.op}${c.value}`]);
  if (filter.since !== null) flags.push('--since', times.since);
  if (filter.until !== null) flags.push('--until', times.until);
  return flags;
}
