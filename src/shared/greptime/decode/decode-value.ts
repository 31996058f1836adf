/**
 * Reads one `greptime.v1.Value` (the `value_data` oneof, field numbers from
 * greptimedb-entries.md) and the messages it nests: interval, decimal, list, struct and JSON
 * values. `scanValue` leaves a plain value (numbers, strings, bytes, times) in a reused
 * `ScannedValue` - the wire's case and a number or a byte range, no object - so a decoder
 * writing cell texts, or only checking, allocates nothing per cell; `typedOf` makes the typed
 * value of it. A case this decoder does not know is kept as `unknown` with its field number and
 * bytes; nesting past MAX_VALUE_DEPTH fails `too-deep`. Pure; a malformed value throws the
 * reader's typed error, which the decoder turns into a result.
 */
import { int64Of, MAX_VALUE_DEPTH, WIRE, type EntryReader } from './entry-reader';
import type { GtJson, GtValue, TimeUnit } from './wal-entry';

const V = WIRE.varint;
const LD = WIRE.delimited;

/** Value cases 1-8 that are plain integers, by field number. */
const INT_KINDS = { 1: 'i8', 2: 'i16', 3: 'i32', 5: 'u8', 6: 'u16', 7: 'u32' } as const;
const UNITS: readonly TimeUnit[] = ['s', 'ms', 'us', 'ns'];

/** The `Value` cases by field number that the decoders format without a typed value. */
export const VALUE_CASE = {
  i64: 4,
  u64: 8,
  f32: 9,
  f64: 10,
  bool: 11,
  binary: 12,
  string: 13,
  date: 14,
  datetime: 15,
  /** 16-19: seconds, milliseconds, microseconds, nanoseconds. */
  timestamp: 16,
  /** 20-23, by unit likewise. */
  time: 20,
  intervalYearMonth: 24,
  intervalDayTime: 25,
} as const;

export function unitOf(field: number, first: number): TimeUnit {
  return UNITS[field - first]!;
}

/** The last `Value` scanned: its case (0 when none is set) and what it holds. */
export class ScannedValue {
  kind = 0;
  /** An integer of up to 32 bits, a float, or a bool (0 / 1). */
  number = 0;
  /** A 64-bit value's halves, as unsigned 32 bits each (`wholeOf` puts them together). */
  lo = 0;
  hi = 0;
  /** A string's or binary's bytes in the payload. */
  start = 0;
  end = 0;
  /** A string of printable ASCII that JSON quotes as it is. */
  plain = false;
  /** Nested and unknown cases, read typed. */
  value: GtValue = null;
}

function read64(d: EntryReader, out: ScannedValue): void {
  d.varint64();
  out.lo = d.lo;
  out.hi = d.hi;
}

/** 2^32, to put a 64-bit value's halves together as a number. */
const TWO_32 = 4_294_967_296;

/**
 * A scanned 64-bit value (signed but for `u64`) as a number when it is one exactly
 * (|value| < 2^53), else as a bigint: number arithmetic formats the common values.
 */
export function wholeOf(scanned: ScannedValue): number | bigint {
  const hi = scanned.hi;
  if (hi < 0x200000) return hi * TWO_32 + scanned.lo;
  if (hi > 0xffe00000 && scanned.kind !== VALUE_CASE.u64)
    return (hi - TWO_32) * TWO_32 + scanned.lo;
  return bigintOf(scanned);
}

/** The 64-bit value as a bigint, exactly. */
export function bigintOf(scanned: ScannedValue): bigint {
  return int64Of(scanned.lo, scanned.hi, scanned.kind !== VALUE_CASE.u64);
}

/** The `Value` cases the spec names; any other is unknown. */
function isKnownCase(field: number): boolean {
  return (field >= 1 && field <= 26) || field === 31 || (field >= 40 && field <= 42);
}

/**
 * Reads the `Value` ending at `end` into `out` as prost reads the oneof: the last case written
 * counts, a message case written again merges into the one set (a list's items extend), and
 * an unknown field leaves a known case set; a value of unknown cases only is kept as the last
 * of them. i8, i16, u8 and u16 are narrowed to their width, as GreptimeDB reads them
 * (`pb_value_to_value_ref`: `*v as i8`).
 */
export function scanValue(d: EntryReader, end: number, depth: number, out: ScannedValue): void {
  if (depth > MAX_VALUE_DEPTH) d.fail('too-deep', `values nest past ${MAX_VALUE_DEPTH} levels`);
  out.kind = 0;
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    const same = out.kind === field;
    switch (field) {
      case 1:
        d.expect(tag, V);
        out.number = (d.uint32() << 24) >> 24;
        break;
      case 2:
        d.expect(tag, V);
        out.number = (d.uint32() << 16) >> 16;
        break;
      case 3:
      case 14:
      case 24:
        d.expect(tag, V);
        out.number = d.int32();
        break;
      case 5:
        d.expect(tag, V);
        out.number = d.uint32() & 0xff;
        break;
      case 6:
        d.expect(tag, V);
        out.number = d.uint32() & 0xffff;
        break;
      case 7:
        d.expect(tag, V);
        out.number = d.uint32();
        break;
      case 4:
      case 8:
      case 15:
      case 16:
      case 17:
      case 18:
      case 19:
      case 20:
      case 21:
      case 22:
      case 23:
      case 25:
        d.expect(tag, V);
        read64(d, out);
        break;
      case 9:
        d.expect(tag, WIRE.bit32);
        out.number = d.float();
        break;
      case 10:
        d.expect(tag, WIRE.bit64);
        out.number = d.double();
        break;
      case 11:
        d.expect(tag, V);
        out.number = d.bool() ? 1 : 0;
        break;
      case 12:
        d.expect(tag, LD);
        out.start = d.delimited();
        out.end = d.pos;
        break;
      case 13:
        d.expect(tag, LD);
        out.start = d.delimited();
        out.end = d.pos;
        out.plain = d.checkText(out.start, out.end);
        break;
      case 26:
        out.value = readIntervalMonthDayNano(d, d.nested(tag, end), same ? out.value : null);
        break;
      case 31:
        out.value = readDecimal(d, d.nested(tag, end), same ? out.value : null);
        break;
      case 40:
      case 41:
        out.value = {
          kind: field === 40 ? 'list' : 'struct',
          items: readItems(
            d,
            d.nested(tag, end),
            field === 40 ? 1 : 2,
            depth,
            same ? out.value : null,
          ),
        };
        break;
      case 42: {
        const before = same && out.value?.kind === 'json' ? out.value.value : null;
        out.value = { kind: 'json', value: readJson(d, d.nested(tag, end), depth + 1, before) };
        break;
      }
      default: {
        const bytes = d.skip(tag, end);
        if (isKnownCase(out.kind)) continue;
        out.value = { kind: 'unknown', field, wireType: tag & 7, bytes };
      }
    }
    out.kind = field;
  }
  d.close(end);
}

/** The typed value of what `scanValue` read. */
export function typedOf(d: EntryReader, scanned: ScannedValue): GtValue {
  const field = scanned.kind;
  switch (field) {
    case 0:
      return null;
    case 1:
    case 2:
    case 3:
    case 5:
    case 6:
    case 7:
      return { kind: INT_KINDS[field], value: scanned.number };
    case 14:
      return { kind: 'date', value: scanned.number };
    case 24:
      return { kind: 'interval_year_month', value: scanned.number };
    case 4:
      return { kind: 'i64', value: bigintOf(scanned) };
    case 8:
      return { kind: 'u64', value: bigintOf(scanned) };
    case 15:
      return { kind: 'datetime', value: bigintOf(scanned) };
    case 25:
      return { kind: 'interval_day_time', value: bigintOf(scanned) };
    case 16:
    case 17:
    case 18:
    case 19:
      return { kind: 'timestamp', unit: unitOf(field, 16), value: bigintOf(scanned) };
    case 20:
    case 21:
    case 22:
    case 23:
      return { kind: 'time', unit: unitOf(field, 20), value: bigintOf(scanned) };
    case 9:
      return { kind: 'f32', value: scanned.number };
    case 10:
      return { kind: 'f64', value: scanned.number };
    case 11:
      return { kind: 'bool', value: scanned.number === 1 };
    case 12:
      return { kind: 'binary', value: d.bytes.subarray(scanned.start, scanned.end) };
    case 13:
      return { kind: 'string', value: d.text(scanned.start, scanned.end) };
    default:
      return scanned.value;
  }
}

/** One `Value` ending at `end`, typed; an unset oneof is null. */
export function readValue(d: EntryReader, end: number, depth = 0): GtValue {
  const scanned = new ScannedValue();
  scanValue(d, end, depth, scanned);
  return typedOf(d, scanned);
}

/**
 * The entries of a repeated `Value` field numbered `itemField` in a message ending at `end`,
 * after those of the same list or struct read before (`into`).
 */
function readItems(
  d: EntryReader,
  end: number,
  itemField: number,
  depth: number,
  into: GtValue,
): GtValue[] {
  const items: GtValue[] =
    into !== null && (into.kind === 'list' || into.kind === 'struct') ? [...into.items] : [];
  while (d.pos < end) {
    const tag = d.tag();
    if (tag >>> 3 === itemField) items.push(readValue(d, d.nested(tag, end), depth + 1));
    else d.skip(tag, end);
  }
  d.close(end);
  return items;
}

function readIntervalMonthDayNano(d: EntryReader, end: number, into: GtValue): GtValue {
  const before = into?.kind === 'interval_month_day_nano' ? into : null;
  let months = before?.months ?? 0;
  let days = before?.days ?? 0;
  let nanoseconds = before?.nanoseconds ?? 0n;
  d.fields(end, (field, tag) => {
    if (field < 1 || field > 3) return false;
    d.expect(tag, V);
    if (field === 1) months = d.int32();
    else if (field === 2) days = d.int32();
    else nanoseconds = d.int64();
    return true;
  });
  return { kind: 'interval_month_day_nano', months, days, nanoseconds };
}

function readDecimal(d: EntryReader, end: number, into: GtValue): GtValue {
  const halves = into?.kind === 'decimal128' ? [into.hi, into.lo] : [0n, 0n];
  d.fields(end, (field, tag) => {
    if (field !== 1 && field !== 2) return false;
    d.expect(tag, V);
    halves[field - 1] = d.int64();
    return true;
  });
  return { kind: 'decimal128', hi: halves[0]!, lo: halves[1]! };
}

function readJsonObject(d: EntryReader, end: number, depth: number, into: GtJson): GtJson {
  const entries: Array<{ key: string; value: GtJson }> =
    into?.kind === 'object' ? [...into.entries] : [];
  d.fields(end, (field, tag) => {
    if (field !== 1) return false;
    let key = '';
    let value: GtJson = null;
    const entryEnd = d.nested(tag, end);
    d.fields(entryEnd, (inner, innerTag) => {
      if (inner === 1) {
        d.expect(innerTag, LD);
        key = d.string();
      } else if (inner === 2) value = readJson(d, d.nested(innerTag, entryEnd), depth + 1, value);
      else return false;
      return true;
    });
    entries.push({ key, value });
    return true;
  });
  return { kind: 'object', entries };
}

/**
 * `JsonValue`, read into what a part before it read (`into`): its oneof case, the last one
 * written when several are, an array or object written again extending the one set, an
 * unknown field leaving a known case set (as prost reads it).
 */
function readJson(d: EntryReader, end: number, depth: number, into: GtJson): GtJson {
  if (depth > MAX_VALUE_DEPTH) d.fail('too-deep', `values nest past ${MAX_VALUE_DEPTH} levels`);
  const outer = d.message;
  d.message = 'JsonValue';
  let json: GtJson = into;
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    switch (field) {
      case 1:
        d.expect(tag, V);
        json = { kind: 'boolean', value: d.bool() };
        break;
      case 2:
        d.expect(tag, V);
        json = { kind: 'int', value: d.int64() };
        break;
      case 3:
        d.expect(tag, V);
        json = { kind: 'uint', value: d.uint64() };
        break;
      case 4:
        d.expect(tag, WIRE.bit64);
        json = { kind: 'float', value: d.double() };
        break;
      case 5:
        d.expect(tag, LD);
        json = { kind: 'str', value: d.string() };
        break;
      case 6: {
        const arrayEnd = d.nested(tag, end);
        const items: GtJson[] = json?.kind === 'array' ? [...json.items] : [];
        while (d.pos < arrayEnd) {
          const inner = d.tag();
          if (inner >>> 3 === 1)
            items.push(readJson(d, d.nested(inner, arrayEnd), depth + 1, null));
          else d.skip(inner, arrayEnd);
        }
        d.close(arrayEnd);
        json = { kind: 'array', items };
        break;
      }
      case 7:
        json = readJsonObject(d, d.nested(tag, end), depth, json);
        break;
      case 8:
        d.expect(tag, LD);
        json = { kind: 'variant', bytes: d.bytesField() };
        break;
      default:
        d.skip(tag, end);
        if (json === null || json.kind === 'unknown') json = { kind: 'unknown', field };
    }
  }
  d.close(end);
  d.message = outer;
  return json;
}
