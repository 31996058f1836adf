/**
 * The values of a bulk entry's Arrow columns as the cell texts a mutation's values get
 * (docs/design/greptimedb-entries.md, "Cells"): read from each column's buffers directly, so
 * 64-bit integers, timestamps and decimals keep every digit (the library's `get` turns a
 * nanosecond timestamp into a float of milliseconds). Also the check that every buffer holds
 * the values its length says (the library views short buffers without a word), and a budget
 * of values, so a list whose offsets point anywhere is refused instead of read for ever.
 * Pure.
 */
import type { Data, DataType } from 'apache-arrow';
import { doubleJson, float32Json, hexOf, quoted, scaledJson } from '../decode/cell-json';
import { dateJson, timeJson, timestampJson } from '../decode/time-json';
import type { TimeUnit } from '../decode/wal-entry';
import { bulkFail } from './ipc-check';

/**
 * Arrow's type ids (the `Type` union of Schema.fbs, as the library numbers them), and the
 * units of its date, interval and float types: written here so this module needs the
 * library's types only (the library itself is handed in, decode-bulk.ts).
 */
export const Type = {
  Null: 1,
  Int: 2,
  Float: 3,
  Binary: 4,
  Utf8: 5,
  Bool: 6,
  Decimal: 7,
  Date: 8,
  Time: 9,
  Timestamp: 10,
  Interval: 11,
  List: 12,
  Struct: 13,
  FixedSizeBinary: 15,
  FixedSizeList: 16,
  Map: 17,
  Duration: 18,
  LargeBinary: 19,
  LargeUtf8: 20,
} as const;
export const DateUnit = { DAY: 0, MILLISECOND: 1 } as const;
export const IntervalUnit = { YEAR_MONTH: 0, DAY_TIME: 1, MONTH_DAY_NANO: 2 } as const;
export const Precision = { HALF: 0, SINGLE: 1, DOUBLE: 2 } as const;

/** Nesting of list and struct columns past which a batch is refused. */
const MAX_DEPTH = 64;

export const ARROW_UNITS: readonly TimeUnit[] = ['s', 'ms', 'us', 'ns'];

/** The parameters of an Arrow type this reader uses (each type has some of them). */
export interface ArrowTypeInfo {
  readonly typeId: number;
  readonly unit?: number;
  readonly bitWidth?: number;
  readonly precision?: number;
  readonly scale?: number;
  readonly isSigned?: boolean;
  readonly listSize?: number;
  toString(): string;
}

/**
 * Arrow's `Data` of any type, as this reader uses it: the library types its buffers by the
 * column's type, so a reader of every type sees them once, loosely, here.
 */
export interface AnyData {
  readonly type: ArrowTypeInfo;
  readonly typeId: number;
  readonly offset: number;
  readonly length: number;
  readonly stride: number;
  readonly nullCount: number;
  readonly values: ArrayLike<number | bigint> & { subarray(from: number, to: number): unknown };
  readonly valueOffsets: ArrayLike<number | bigint> | undefined;
  readonly nullBitmap: Uint8Array | undefined;
  readonly children: readonly AnyData[];
  getValid(index: number): boolean;
}

/** A column's `Data` as this reader uses it. */
export function anyData(data: Data<DataType>): AnyData {
  const loose: unknown = data;
  return loose as AnyData;
}

function bytesOf(data: AnyData): Uint8Array {
  return data.values as unknown as Uint8Array;
}

function offsetAt(data: AnyData, at: number): number {
  return Number(data.valueOffsets![at]!);
}

/**
 * Every buffer of `data` (and its children) holds the values its length says. The library
 * keeps a slice's values and offsets from its first value, its bitmaps from the buffer's.
 */
export function checkCoverage(data: AnyData, depth = 0): void {
  if (depth > MAX_DEPTH) bulkFail('invalid-ipc', 'columns nest too deep');
  const bits = data.offset + data.length;
  const end = data.length;
  const short = (what: string): never =>
    bulkFail(
      'too-large',
      `a ${String(data.type)} column's ${what} is shorter than its ${data.length} values`,
    );
  if (data.nullCount > 0 && (data.nullBitmap?.length ?? 0) * 8 < bits) short('validity bitmap');
  switch (data.typeId) {
    case Type.Null:
      return;
    case Type.Bool:
      if (data.values.length * 8 < bits) short('bitmap');
      return;
    case Type.Int:
    case Type.Float:
    case Type.Date:
    case Type.Time:
    case Type.Timestamp:
    case Type.Duration:
    case Type.Interval:
    case Type.Decimal:
    case Type.FixedSizeBinary:
      if (data.values.length < end * data.stride) short('values');
      return;
    case Type.Utf8:
    case Type.Binary:
    case Type.LargeUtf8:
    case Type.LargeBinary:
      if ((data.valueOffsets?.length ?? 0) < end + 1) short('offsets');
      if (offsetAt(data, end) > data.values.length) short('values');
      return;
    case Type.List:
    case Type.Map: {
      const child = data.children[0];
      if ((data.valueOffsets?.length ?? 0) < end + 1 || child === undefined) short('offsets');
      if (offsetAt(data, end) > child!.length) short('items');
      checkCoverage(child!, depth + 1);
      return;
    }
    case Type.FixedSizeList: {
      const child = data.children[0];
      if (child === undefined || child.length < end * (data.type.listSize ?? 0)) short('items');
      checkCoverage(child!, depth + 1);
      return;
    }
    case Type.Struct:
      for (const child of data.children) {
        if (child.length < end) short('fields');
        checkCoverage(child, depth + 1);
      }
      return;
    default:
      bulkFail('unsupported', `a column of Arrow type ${String(data.type)}`);
  }
}

/** Values read so far against how many the body can hold; past it, the batch is refused. */
export class Budget {
  private left: number;

  constructor(bodyBytes: number) {
    this.left = bodyBytes * 8 + 1024;
  }

  spend(): void {
    if (--this.left < 0) bulkFail('too-large', 'its lists hold more values than its body can');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function textJson(bytes: Uint8Array): string {
  try {
    return quoted(utf8.decode(bytes));
  } catch {
    return bulkFail('invalid-ipc', 'a string column holds bytes that are not UTF-8');
  }
}

/** A 32-, 64-, 128- or 256-bit two's complement decimal from its little-endian 32-bit words. */
function decimalOf(words: Uint32Array, at: number, count: number): bigint {
  let value = 0n;
  for (let word = count - 1; word >= 0; word--) value = (value << 32n) | BigInt(words[at + word]!);
  return BigInt.asIntN(count * 32, value);
}

function items(data: AnyData, from: number, to: number, budget: Budget, depth: number): string {
  const child = data.children[0]!;
  const texts: string[] = [];
  const end = Math.min(to, child.length);
  for (let at = Math.max(0, from); at < end; at++)
    texts.push(arrowCell(child, at, budget, depth + 1));
  return `[${texts.join(',')}]`;
}

function intervalJson(data: AnyData, at: number): string {
  const values = data.values as unknown as Int32Array;
  const unit = data.type.unit;
  if (unit === IntervalUnit.YEAR_MONTH) return String(values[at]);
  const base = at * data.stride;
  if (unit === IntervalUnit.DAY_TIME)
    return `{"days":${values[base]},"milliseconds":${values[base + 1]}}`;
  const nanoseconds = (BigInt(values[base + 3]!) << 32n) | BigInt(values[base + 2]! >>> 0);
  return `{"months":${values[base]},"days":${values[base + 1]},"nanoseconds":"${nanoseconds}"}`;
}

/** An IEEE 754 half-precision float from its 16 bits. */
function halfFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : Number.NaN;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

function numberJson(data: AnyData, at: number): string {
  const type = data.type;
  if (data.typeId === Type.Float) {
    if (type.precision === Precision.HALF) return doubleJson(halfFloat(Number(data.values[at])));
    const value = Number(data.values[at]);
    return type.precision === Precision.SINGLE ? float32Json(value) : doubleJson(value);
  }
  const value = data.values[at] as number | bigint;
  return typeof value === 'bigint' ? `"${value}"` : String(value);
}

/** The cell text of value `index` of `data`. */
export function arrowCell(data: AnyData, index: number, budget: Budget, depth = 0): string {
  budget.spend();
  if (!data.getValid(index)) return 'null';
  const at = index;
  const type = data.type;
  switch (data.typeId) {
    case Type.Null:
      return 'null';
    case Type.Bool: {
      const bit = data.offset + index;
      return ((data.values[bit >> 3] as number) >> (bit & 7)) & 1 ? 'true' : 'false';
    }
    case Type.Int:
    case Type.Float:
      return numberJson(data, at);
    case Type.Utf8:
    case Type.LargeUtf8:
      return textJson(bytesOf(data).subarray(offsetAt(data, at), offsetAt(data, at + 1)));
    case Type.Binary:
    case Type.LargeBinary:
      return quoted(hexOf(bytesOf(data).subarray(offsetAt(data, at), offsetAt(data, at + 1))));
    case Type.FixedSizeBinary:
      return quoted(hexOf(bytesOf(data).subarray(at * data.stride, (at + 1) * data.stride)));
    case Type.Date:
      return type.unit === DateUnit.DAY
        ? dateJson(Number(data.values[at]))
        : timestampJson(data.values[at] as bigint, 'ms');
    case Type.Time:
      return timeJson(data.values[at] as number | bigint, ARROW_UNITS[type.unit ?? 0]!);
    case Type.Timestamp:
      return timestampJson(data.values[at] as bigint, ARROW_UNITS[type.unit ?? 0]!);
    case Type.Duration:
      return `"${data.values[at]}"`;
    case Type.Interval:
      return intervalJson(data, at);
    case Type.Decimal:
      return scaledJson(
        decimalOf(data.values as unknown as Uint32Array, at * data.stride, data.stride),
        // An i8, as Arrow's Rust reader (GreptimeDB's) casts it: a declared scale of 10^8
        // would otherwise be a cell of 10^8 digits.
        ((type.scale ?? 0) << 24) >> 24,
      );
    case Type.List:
    case Type.Map:
      return items(data, offsetAt(data, at), offsetAt(data, at + 1), budget, depth);
    case Type.FixedSizeList: {
      const size = type.listSize ?? 0;
      return items(data, at * size, (at + 1) * size, budget, depth);
    }
    case Type.Struct:
      // A struct's children are sliced with it: value `index` of each.
      return `[${data.children.map((child) => arrowCell(child, index, budget, depth + 1)).join(',')}]`;
    default:
      return bulkFail('unsupported', `a column of Arrow type ${String(data.type)}`);
  }
}

/** The raw number of a time index value (a timestamp's or an integer's), or null. */
export function rawTime(data: AnyData, index: number): bigint | null {
  if (!data.getValid(index)) return null;
  const value = data.values[index] as number | bigint;
  return BigInt(value);
}
