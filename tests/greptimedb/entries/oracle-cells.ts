/**
 * The differential test's oracle: what each `greptime.v1.Value` reads as in GreptimeDB
 * (src/api/src/helper.rs, `pb_value_to_value_ref`), written as the cell text Cairn prints,
 * from the plain objects the test hands protobufjs - never from the decoder under test. Slow
 * and direct: bigint arithmetic, a Date per time.
 */

/** A `Value` as protobufjs takes it (snake_case names, 64-bit integers as decimal strings). */
export type PbValue = Record<string, unknown>;
/** A `ColumnDataTypeExtension` likewise. */
export type PbExtension = Record<string, unknown>;

export interface OracleType {
  readonly datatype: number;
  readonly extension: PbExtension | undefined;
}

const TIMESTAMP_UNITS: Record<number, [bigint, number]> = {
  15: [1n, 0],
  16: [1_000n, 3],
  17: [1_000_000n, 6],
  18: [1_000_000_000n, 9],
};
const DATE_LIMIT_SECONDS = 8_640_000_000_000n;

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function timestamp(value: bigint, per: bigint, digits: number): string {
  let seconds = value / per;
  let fraction = value % per;
  if (fraction < 0n) {
    fraction += per;
    seconds -= 1n;
  }
  if (seconds > DATE_LIMIT_SECONDS || seconds < -DATE_LIMIT_SECONDS) return `"${value}"`;
  const iso = new Date(Number(seconds) * 1000).toISOString();
  const tail = digits === 0 ? '' : `.${fraction.toString().padStart(digits, '0')}`;
  return `"${iso.slice(0, -5)}${tail}Z"`;
}

function timeOfDay(value: bigint, per: bigint, digits: number): string {
  if (value < 0n || value >= 86_400n * per) return `"${value}"`;
  const seconds = Number(value / per);
  const two = (n: number): string => String(n).padStart(2, '0');
  const tail = digits === 0 ? '' : `.${(value % per).toString().padStart(digits, '0')}`;
  return `"${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}${tail}"`;
}

function double(value: number): string {
  if (Object.is(value, -0)) return '-0';
  return Number.isFinite(value) ? String(value) : `"${value}"`;
}

/** The fewest significant digits that read back as the same float32. */
function float32(value: number): string {
  if (!Number.isFinite(value) || value === 0) return double(value);
  for (let digits = 1; digits <= 9; digits++) {
    const text = value.toExponential(digits - 1);
    if (Math.fround(Number(text)) === value) return String(Number(text));
  }
  throw new Error(`no float32 text for ${value}`);
}

function decimal(pb: PbValue, type: OracleType | undefined): string {
  const hi = BigInt((pb.hi as string | undefined) ?? '0');
  const lo = BigInt((pb.lo as string | undefined) ?? '0');
  const value = BigInt.asIntN(128, (hi << 64n) + BigInt.asUintN(64, lo));
  const ext = type?.extension?.decimal_type as { scale?: number } | undefined;
  // GreptimeDB: the extension's scale as an i8; none: DECIMAL128_DEFAULT_SCALE = 10.
  const scale = ext === undefined ? 10 : BigInt.asIntN(8, BigInt(ext.scale ?? 0));
  const s = Number(scale);
  if (s <= 0) return `"${value * 10n ** BigInt(-s)}"`;
  const digits = (value < 0n ? -value : value).toString().padStart(s + 1, '0');
  return `"${value < 0n ? '-' : ''}${digits.slice(0, -s)}.${digits.slice(-s)}"`;
}

function holdsJson(type: OracleType | undefined): boolean {
  return type !== undefined && (type.datatype === 31 || type.extension?.json_type !== undefined);
}

function binary(bytes: Uint8Array, type: OracleType | undefined): string {
  if (holdsJson(type))
    try {
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      JSON.parse(text);
      return JSON.stringify(text);
    } catch {
      // not JSON: its bytes
    }
  return `"${hex(bytes)}"`;
}

export function jsonText(pb: PbValue | undefined): string {
  if (pb === undefined) return 'null';
  if ('boolean' in pb) return String(pb.boolean);
  if ('int' in pb) return String(pb.int);
  if ('uint' in pb) return String(pb.uint);
  if ('float' in pb) return double(pb.float as number);
  if ('str' in pb) return JSON.stringify(pb.str);
  if ('array' in pb)
    return `[${((pb.array as { items?: PbValue[] }).items ?? []).map(jsonText).join(',')}]`;
  if ('object' in pb) {
    const entries = (pb.object as { entries?: Array<{ key?: string; value?: PbValue }> }).entries;
    return `{${(entries ?? []).map((e) => `${JSON.stringify(e.key ?? '')}:${jsonText(e.value)}`).join(',')}}`;
  }
  if ('variant' in pb) return `"${hex(pb.variant as Uint8Array)}"`;
  return 'null';
}

function itemType(type: OracleType | undefined, at: number): OracleType | undefined {
  const list = type?.extension?.list_type as
    { datatype?: number; datatype_extension?: PbExtension } | undefined;
  if (list !== undefined)
    return { datatype: list.datatype ?? 0, extension: list.datatype_extension };
  const struct = type?.extension?.struct_type as
    { fields?: Array<{ datatype?: number; datatype_extension?: PbExtension }> } | undefined;
  const field = struct?.fields?.[at];
  return field === undefined
    ? undefined
    : { datatype: field.datatype ?? 0, extension: field.datatype_extension };
}

/** The cell text of `pb` read under `type`. */
export function oracleCell(pb: PbValue | null, type: OracleType | undefined): string {
  if (pb === null) return 'null';
  const [[name, raw] = ['', undefined]] = Object.entries(pb);
  const int = (): bigint => BigInt(raw as string | number);
  switch (name) {
    case 'i8_value':
      return String(BigInt.asIntN(8, int()));
    case 'i16_value':
      return String(BigInt.asIntN(16, int()));
    case 'u8_value':
      return String(BigInt.asUintN(8, int()));
    case 'u16_value':
      return String(BigInt.asUintN(16, int()));
    case 'i32_value':
    case 'u32_value':
    case 'interval_year_month_value':
      return String(raw);
    case 'i64_value': {
      const unit = type === undefined ? undefined : TIMESTAMP_UNITS[type.datatype];
      return unit === undefined ? `"${int()}"` : timestamp(int(), ...unit);
    }
    case 'u64_value':
      return `"${int()}"`;
    case 'f32_value':
      return float32(raw as number);
    case 'f64_value':
      return double(raw as number);
    case 'bool_value':
      return String(raw);
    case 'binary_value':
      return binary(raw as Uint8Array, type);
    case 'string_value':
      return JSON.stringify(raw);
    case 'date_value': {
      const days = raw as number;
      if (Math.abs(days) > 100_000_000) return String(days);
      const iso = new Date(days * 86_400_000).toISOString();
      return `"${iso.slice(0, iso.indexOf('T'))}"`;
    }
    case 'datetime_value':
      return timestamp(int(), 1_000_000n, 6);
    case 'timestamp_second_value':
      return timestamp(int(), 1n, 0);
    case 'timestamp_millisecond_value':
      return timestamp(int(), 1_000n, 3);
    case 'timestamp_microsecond_value':
      return timestamp(int(), 1_000_000n, 6);
    case 'timestamp_nanosecond_value':
      return timestamp(int(), 1_000_000_000n, 9);
    case 'time_second_value':
      return timeOfDay(int(), 1n, 0);
    case 'time_millisecond_value':
      return timeOfDay(int(), 1_000n, 3);
    case 'time_microsecond_value':
      return timeOfDay(int(), 1_000_000n, 6);
    case 'time_nanosecond_value':
      return timeOfDay(int(), 1_000_000_000n, 9);
    case 'interval_day_time_value': {
      const v = int();
      return `{"days":${BigInt.asIntN(32, v >> 32n)},"milliseconds":${BigInt.asIntN(32, v)}}`;
    }
    case 'interval_month_day_nano_value': {
      const m = raw as { months?: number; days?: number; nanoseconds?: string };
      return `{"months":${m.months ?? 0},"days":${m.days ?? 0},"nanoseconds":"${BigInt(m.nanoseconds ?? '0')}"}`;
    }
    case 'decimal128_value':
      return decimal(raw as PbValue, type);
    case 'list_value':
    case 'struct_value': {
      const items = (raw as { items?: Array<PbValue | null> }).items ?? [];
      return `[${items.map((item, at) => oracleCell(item ?? null, itemType(type, at))).join(',')}]`;
    }
    case 'json_value':
      return jsonText(raw as PbValue);
    default:
      return 'null';
  }
}
