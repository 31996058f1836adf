/**
 * The `cli-rows` figure's region: a GreptimeDB prefix of one region whose `WalEntry` payloads
 * hold rows of ten mixed columns as a service's request metrics would - two tags, a
 * millisecond time index, rounded and full-precision doubles, a nullable double, a 64-bit
 * counter, a status code, a flag and a message that is sometimes unicode, sometimes holds a
 * comma or a quote, sometimes starts like a formula. Written with `@bufbuild/protobuf`'s wire
 * writer from the spec's field numbers (as the demo's metrics entries are). Bench data only.
 */
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { putGreptimeChain } from './greptimedb-open';

/** ColumnDataType, SemanticType and Value case numbers (spec/greptimedb-entries.md). */
const TYPE = { bool: 0, int64: 4, uint32: 7, float64: 10, string: 12, tsMs: 16 } as const;
const CASE = { i64: 4, u32: 7, f64: 10, bool: 11, string: 13, tsMs: 17 } as const;
const TAG = 0;
const FIELD = 1;
const TIME_INDEX = 2;

const COLUMNS: ReadonlyArray<readonly [string, number, number]> = [
  ['host', TYPE.string, TAG],
  ['idc', TYPE.string, TAG],
  ['ts', TYPE.tsMs, TIME_INDEX],
  ['cpu_util', TYPE.float64, FIELD],
  ['latency_ms', TYPE.float64, FIELD],
  ['load1', TYPE.float64, FIELD],
  ['requests', TYPE.int64, FIELD],
  ['status', TYPE.uint32, FIELD],
  ['healthy', TYPE.bool, FIELD],
  ['message', TYPE.string, FIELD],
];

const MESSAGES = [
  'ok',
  'GET /api/v1/query 200',
  'slow upstream, retrying',
  'said "timeout" twice',
  'température élevée ✓',
  '=HYPERLINK("x")',
  'cache miss',
  '-',
];
const IDCS = ['eu-west-1', 'us-east-2', 'ap-south-1'];
/** 2026-01-01T00:00:00Z. */
const DAY_START_MS = 1_767_225_600_000n;

function writeValue(w: BinaryWriter, write: (() => void) | null): void {
  w.tag(1, WireType.LengthDelimited).fork();
  // A null is a Value with no case set.
  write?.();
  w.join();
}

function writeRow(w: BinaryWriter, tick: number, row: number): void {
  const sine = Math.sin(tick * 0.37 + row);
  w.tag(2, WireType.LengthDelimited).fork();
  const str = (text: string) => () => w.tag(CASE.string, WireType.LengthDelimited).string(text);
  const f64 = (value: number) => () => w.tag(CASE.f64, WireType.Bit64).double(value);
  writeValue(w, str(`host-${String(row).padStart(4, '0')}`));
  writeValue(w, str(IDCS[row % IDCS.length]!));
  writeValue(w, () => w.tag(CASE.tsMs, WireType.Varint).int64(DAY_START_MS + BigInt(tick) * 1000n));
  writeValue(w, f64(Math.round((50 + 40 * sine) * 10) / 10));
  writeValue(w, f64(Math.abs(sine) * 120));
  writeValue(w, row % 4 === 3 ? null : f64(Math.round(Math.abs(sine) * 400) / 100));
  writeValue(w, () =>
    w.tag(CASE.i64, WireType.Varint).int64(BigInt(tick) * 1_000_003n + BigInt(row)),
  );
  writeValue(w, () => w.tag(CASE.u32, WireType.Varint).uint32(row % 17 === 0 ? 503 : 200));
  writeValue(w, () => w.tag(CASE.bool, WireType.Varint).bool(row % 17 !== 0));
  writeValue(w, str(MESSAGES[(tick + row) % MESSAGES.length]!));
  w.join();
}

/** One PUT of `rows` rows at tick `tick`, its sequence `sequence`. */
export function mixedEntry(rows: number, tick: number, sequence: bigint): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.Varint).int32(1);
  w.tag(2, WireType.Varint).uint64(sequence);
  w.tag(3, WireType.LengthDelimited).fork();
  for (const [name, datatype, semantic] of COLUMNS) {
    w.tag(1, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(name);
    w.tag(2, WireType.Varint).int32(datatype);
    if (semantic !== 0) w.tag(3, WireType.Varint).int32(semantic);
    w.join();
  }
  for (let row = 0; row < rows; row++) writeRow(w, tick, row);
  w.join();
  w.join();
  return w.finish();
}

export interface MixedRegion {
  readonly prefix: string;
  readonly region: bigint;
  readonly objects: number;
  readonly rows: number;
  readonly payloadBytes: number;
  /** Every payload, in the region's order. */
  readonly payloads: readonly Uint8Array[];
}

/**
 * One GreptimeDB object per `entries` payloads of `region` (the last may hold fewer), chained
 * from sequence 0 in epoch 1, written 8 at a time.
 */
export async function putRegionObjects(
  io: ObjectIo,
  prefix: string,
  region: bigint,
  payloads: readonly Uint8Array[],
  entries: number,
): Promise<void> {
  await putGreptimeChain(io, prefix, Math.ceil(payloads.length / entries), 8, (seq) => {
    const at = Number(seq) * entries;
    return [[region, payloads.slice(at, at + entries)]];
  });
}

/** Writes `objects` objects of `entries` entries of `rows` rows each, all of `region`. */
export async function writeMixedRegion(
  io: ObjectIo,
  shape: { prefix: string; region: bigint; objects: number; entries: number; rows: number },
): Promise<MixedRegion> {
  const { prefix, region, objects, entries, rows } = shape;
  const payloads = Array.from({ length: objects * entries }, (_, tick) =>
    mixedEntry(rows, tick, BigInt(tick * rows)),
  );
  const payloadBytes = payloads.reduce((sum, payload) => sum + payload.length, 0);
  await putRegionObjects(io, prefix, region, payloads, entries);
  return { prefix, region, objects, rows: objects * entries * rows, payloadBytes, payloads };
}
