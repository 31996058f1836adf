/**
 * The payloads of the demo's GreptimeDB prefix: `greptime.v1.WalEntry` messages as a datanode
 * writes them for a metrics table (`host` and `idc` tags, a millisecond time index, CPU and
 * memory fields, a `load1` field added by a later schema), PUT mutations of a few hosts per
 * entry and now and then a DELETE of one host's sample, with each region's sequence rising by
 * the rows written. Encoded with `@bufbuild/protobuf`'s wire writer from the field numbers of
 * spec/greptimedb-entries.md. Demo and benchmark data only: Cairn never writes GreptimeDB's WAL.
 */
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

const STRING = 12;
const FLOAT64 = 10;
const TIMESTAMP_MILLISECOND = 16;
const TAG = 0;
const FIELD = 1;
const TIME_INDEX = 2;
const OP_DELETE = 0;
const OP_PUT = 1;

interface DemoColumn {
  readonly name: string;
  readonly datatype: number;
  readonly semantic: number;
}

const KEY_COLUMNS: readonly DemoColumn[] = [
  { name: 'host', datatype: STRING, semantic: TAG },
  { name: 'idc', datatype: STRING, semantic: TAG },
  { name: 'ts', datatype: TIMESTAMP_MILLISECOND, semantic: TIME_INDEX },
];
const FIELD_COLUMNS: readonly DemoColumn[] = [
  { name: 'cpu_util', datatype: FLOAT64, semantic: FIELD },
  { name: 'memory_util', datatype: FLOAT64, semantic: FIELD },
];
const LOAD_COLUMN: DemoColumn = { name: 'load1', datatype: FLOAT64, semantic: FIELD };

export interface MetricsSample {
  readonly host: string;
  readonly idc: string;
  /** Milliseconds since the epoch. */
  readonly ts: bigint;
  readonly cpu: number;
  readonly memory: number;
  /** Written only by entries of the later schema. */
  readonly load1?: number;
}

function writeColumn(w: BinaryWriter, column: DemoColumn): void {
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(column.name);
  w.tag(2, WireType.Varint).int32(column.datatype);
  if (column.semantic !== 0) w.tag(3, WireType.Varint).int32(column.semantic);
  w.join();
}

function writeSample(w: BinaryWriter, sample: MetricsSample, fields: boolean, load: boolean): void {
  const value = (write: () => void): void => {
    w.tag(1, WireType.LengthDelimited).fork();
    write();
    w.join();
  };
  w.tag(2, WireType.LengthDelimited).fork();
  value(() => w.tag(13, WireType.LengthDelimited).string(sample.host));
  value(() => w.tag(13, WireType.LengthDelimited).string(sample.idc));
  value(() => w.tag(17, WireType.Varint).int64(sample.ts));
  if (fields) {
    value(() => w.tag(10, WireType.Bit64).double(sample.cpu));
    value(() => w.tag(10, WireType.Bit64).double(sample.memory));
    // A null field is a Value with no case set.
    if (load)
      value(() => sample.load1 !== undefined && w.tag(10, WireType.Bit64).double(sample.load1));
  }
  w.join();
}

/** One `WalEntry` with one mutation: PUT writes every field, DELETE only the key columns. */
export function encodeMetricsEntry(
  op: 'PUT' | 'DELETE',
  sequence: bigint,
  samples: readonly MetricsSample[],
  withLoad: boolean,
): Uint8Array {
  const put = op === 'PUT';
  const columns = put
    ? [...KEY_COLUMNS, ...FIELD_COLUMNS, ...(withLoad ? [LOAD_COLUMN] : [])]
    : KEY_COLUMNS;
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.Varint).int32(put ? OP_PUT : OP_DELETE);
  w.tag(2, WireType.Varint).uint64(sequence);
  w.tag(3, WireType.LengthDelimited).fork();
  for (const column of columns) writeColumn(w, column);
  for (const sample of samples) writeSample(w, sample, put, put && withLoad);
  w.join();
  w.join();
  return w.finish();
}

const HOSTS = ['web-1', 'web-2', 'db-1', 'cache-1'];
const IDCS = ['eu-west', 'eu-west', 'us-east', 'us-east'];
/** 2026-01-01T00:00:00Z: every demo sample is taken on that day. */
const DAY_START_MS = 1_767_225_600_000n;

/** The samples of `hosts` taken at the `at`-th 10 s tick of the demo day. */
function samplesAt(hosts: readonly string[], at: number, regionNumber: number): MetricsSample[] {
  const ts = DAY_START_MS + BigInt(at) * 10_000n;
  return hosts.map((host, i) => {
    const wave = Math.sin((at + i * 7 + regionNumber * 3) / 5);
    return {
      host,
      idc: IDCS[i % IDCS.length]!,
      ts,
      cpu: Math.round((45 + 40 * wave) * 10) / 10,
      memory: Math.round((60 + 15 * Math.cos(at / 9 + i)) * 10) / 10,
      load1: i % 4 === 2 ? undefined : Math.round((1 + wave) * 100) / 100,
    };
  });
}

/**
 * Payloads for `entries` entries of one region starting at `firstSample` (a running count of
 * the region's entries): every fifth one a DELETE of one host's sample, entries from the 20th
 * on in the schema with `load1`. `sequence` is the region's next sequence; returns the one after.
 */
export function metricsPayloads(
  regionNumber: number,
  firstSample: number,
  entries: number,
  sequence: bigint,
): { payloads: Uint8Array[]; nextSequence: bigint } {
  const payloads: Uint8Array[] = [];
  let next = sequence;
  for (let at = firstSample; at < firstSample + entries; at++) {
    const samples = samplesAt(HOSTS, at, regionNumber);
    const deleting = at % 5 === 4;
    const written = deleting ? samples.slice(at % HOSTS.length, (at % HOSTS.length) + 1) : samples;
    payloads.push(encodeMetricsEntry(deleting ? 'DELETE' : 'PUT', next, written, at >= 20));
    next += BigInt(written.length);
  }
  return { payloads, nextSequence: next };
}

/** One PUT of `hosts` hosts' samples at tick `at` (the benchmark's larger entries). */
export function metricsBatch(hosts: number, at: number, sequence: bigint): Uint8Array {
  const names = Array.from({ length: hosts }, (_, i) => `host-${String(i).padStart(4, '0')}`);
  return encodeMetricsEntry('PUT', sequence, samplesAt(names, at, 0), true);
}
