/**
 * Decodes one `greptime.v1.Value` (the `value_data` oneof, field numbers from
 * greptimedb-entries.md) and the messages it nests: interval, decimal, list, struct and JSON
 * values. A case this decoder does not know is kept as `unknown` with its field number and
 * bytes; nesting past MAX_VALUE_DEPTH fails `too-deep`. Pure; a malformed value throws the
 * reader's typed error, which `decodeWalEntry` turns into a result.
 */
import { MAX_VALUE_DEPTH, WIRE, type EntryReader } from './entry-reader';
import type { GtJson, GtValue, TimeUnit } from './wal-entry';

const V = WIRE.varint;
const LD = WIRE.delimited;

/** Value cases 1-8 that are plain integers, by field number. */
const INT_KINDS = { 1: 'i8', 2: 'i16', 3: 'i32', 5: 'u8', 6: 'u16', 7: 'u32' } as const;
const UNITS: readonly TimeUnit[] = ['s', 'ms', 'us', 'ns'];

/** The entries of a repeated `Value` field numbered `itemField` in a message ending at `end`. */
function readItems(d: EntryReader, end: number, itemField: number, depth: number): GtValue[] {
  const items: GtValue[] = [];
  while (d.pos < end) {
    const tag = d.tag();
    if (tag >>> 3 === itemField) items.push(readValue(d, d.nested(tag, end), depth + 1));
    else d.skip(tag, end);
  }
  d.close(end);
  return items;
}

function readIntervalMonthDayNano(d: EntryReader, end: number): GtValue {
  let months = 0;
  let days = 0;
  let nanoseconds = 0n;
  d.fields(end, (field, tag) => {
    if (field < 1 || field > 3) return false;
    d.expect(tag, V);
    if (field === 1) months = d.r.int32();
    else if (field === 2) days = d.r.int32();
    else nanoseconds = d.int64();
    return true;
  });
  return { kind: 'interval_month_day_nano', months, days, nanoseconds };
}

function readDecimal(d: EntryReader, end: number): GtValue {
  const halves = [0n, 0n];
  d.fields(end, (field, tag) => {
    if (field !== 1 && field !== 2) return false;
    d.expect(tag, V);
    halves[field - 1] = d.int64();
    return true;
  });
  return { kind: 'decimal128', hi: halves[0]!, lo: halves[1]! };
}

function readJsonObject(d: EntryReader, end: number, depth: number): GtJson {
  const entries: Array<{ key: string; value: GtJson }> = [];
  d.fields(end, (field, tag) => {
    if (field !== 1) return false;
    let key = '';
    let value: GtJson = null;
    const entryEnd = d.nested(tag, end);
    d.fields(entryEnd, (inner, innerTag) => {
      if (inner === 1) {
        d.expect(innerTag, LD);
        key = d.string();
      } else if (inner === 2) value = readJson(d, d.nested(innerTag, entryEnd), depth + 1);
      else return false;
      return true;
    });
    entries.push({ key, value });
    return true;
  });
  return { kind: 'object', entries };
}

/** `JsonValue`: its oneof case, the last one written when several are. */
function readJson(d: EntryReader, end: number, depth: number): GtJson {
  if (depth > MAX_VALUE_DEPTH) d.fail('too-deep', `values nest past ${MAX_VALUE_DEPTH} levels`);
  const outer = d.message;
  d.message = 'JsonValue';
  let json: GtJson = null;
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    switch (field) {
      case 1:
        d.expect(tag, V);
        json = { kind: 'boolean', value: d.r.bool() };
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
        json = { kind: 'float', value: d.r.double() };
        break;
      case 5:
        d.expect(tag, LD);
        json = { kind: 'str', value: d.string() };
        break;
      case 6: {
        const arrayEnd = d.nested(tag, end);
        const items: GtJson[] = [];
        while (d.pos < arrayEnd) {
          const inner = d.tag();
          if (inner >>> 3 === 1) items.push(readJson(d, d.nested(inner, arrayEnd), depth + 1));
          else d.skip(inner, arrayEnd);
        }
        d.close(arrayEnd);
        json = { kind: 'array', items };
        break;
      }
      case 7:
        json = readJsonObject(d, d.nested(tag, end), depth);
        break;
      case 8:
        d.expect(tag, LD);
        json = { kind: 'variant', bytes: d.r.bytes() };
        break;
      default:
        d.skip(tag, end);
        json = { kind: 'unknown', field };
    }
  }
  d.close(end);
  d.message = outer;
  return json;
}

/** One `Value` ending at `end`; an unset oneof is null. */
export function readValue(d: EntryReader, end: number, depth = 0): GtValue {
  if (depth > MAX_VALUE_DEPTH) d.fail('too-deep', `values nest past ${MAX_VALUE_DEPTH} levels`);
  let value: GtValue = null;
  while (d.pos < end) {
    const tag = d.tag();
    const field = tag >>> 3;
    switch (field) {
      case 1:
      case 2:
      case 3:
        d.expect(tag, V);
        value = { kind: INT_KINDS[field], value: d.r.int32() };
        break;
      case 5:
      case 6:
      case 7:
        d.expect(tag, V);
        value = { kind: INT_KINDS[field], value: d.r.uint32() };
        break;
      case 4:
        d.expect(tag, V);
        value = { kind: 'i64', value: d.int64() };
        break;
      case 8:
        d.expect(tag, V);
        value = { kind: 'u64', value: d.uint64() };
        break;
      case 9:
        d.expect(tag, WIRE.bit32);
        value = { kind: 'f32', value: d.r.float() };
        break;
      case 10:
        d.expect(tag, WIRE.bit64);
        value = { kind: 'f64', value: d.r.double() };
        break;
      case 11:
        d.expect(tag, V);
        value = { kind: 'bool', value: d.r.bool() };
        break;
      case 12:
        d.expect(tag, LD);
        value = { kind: 'binary', value: d.r.bytes() };
        break;
      case 13:
        d.expect(tag, LD);
        value = { kind: 'string', value: d.string() };
        break;
      case 14:
        d.expect(tag, V);
        value = { kind: 'date', value: d.r.int32() };
        break;
      case 15:
        d.expect(tag, V);
        value = { kind: 'datetime', value: d.int64() };
        break;
      case 16:
      case 17:
      case 18:
      case 19:
        d.expect(tag, V);
        value = { kind: 'timestamp', unit: UNITS[field - 16]!, value: d.int64() };
        break;
      case 20:
      case 21:
      case 22:
      case 23:
        d.expect(tag, V);
        value = { kind: 'time', unit: UNITS[field - 20]!, value: d.int64() };
        break;
      case 24:
        d.expect(tag, V);
        value = { kind: 'interval_year_month', value: d.r.int32() };
        break;
      case 25:
        d.expect(tag, V);
        value = { kind: 'interval_day_time', value: d.int64() };
        break;
      case 26:
        value = readIntervalMonthDayNano(d, d.nested(tag, end));
        break;
      case 31:
        value = readDecimal(d, d.nested(tag, end));
        break;
      case 40:
        value = { kind: 'list', items: readItems(d, d.nested(tag, end), 1, depth) };
        break;
      case 41:
        value = { kind: 'struct', items: readItems(d, d.nested(tag, end), 2, depth) };
        break;
      case 42:
        value = { kind: 'json', value: readJson(d, d.nested(tag, end), depth + 1) };
        break;
      default:
        value = { kind: 'unknown', field, wireType: tag & 7, bytes: d.skip(tag, end) };
    }
  }
  d.close(end);
  return value;
}
