/**
 * An encoder of GreptimeDB's merged object-store WAL layout (GTWALOBJ v1, 34-byte header),
 * written for the tests from greptimedb.md's last section and GreptimeDB's format.rs facts,
 * independent of Cairn's decoder and of gt-encoder.ts: its own byte writer and Node's zlib
 * CRC-32. `MergedPrefixBuilder` builds prefixes as a datanode leaves them - restarts (a new
 * writer instance), gaps, damaged segments, overlapping ranges, alternating writers.
 */
import { crc32 } from 'node:zlib';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';

export interface MergedSegment {
  readonly regionId: bigint;
  readonly entries: ReadonlyArray<{ readonly id: bigint; readonly payload: Uint8Array }>;
}

export interface MergedObjectSpec {
  readonly seq: bigint;
  /** 16 bytes. */
  readonly writerInstance: Uint8Array;
  /** Ascending by region, as GreptimeDB writes them (a test may break that on purpose). */
  readonly segments: readonly MergedSegment[];
}

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const u16 = (v: number): Buffer => Buffer.from([(v >> 8) & 0xff, v & 0xff]);
const u32 = (v: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
};
const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(v);
  return b;
};

export function mergedKey(prefix: string, seq: bigint): string {
  return `${prefix}/objects/${seq.toString().padStart(20, '0')}.wal`;
}

export function encodeMergedObject(spec: MergedObjectSpec): Uint8Array {
  const header = Buffer.concat([
    ascii('GTWALOBJ'),
    u16(1),
    u64(spec.seq),
    Buffer.from(spec.writerInstance),
  ]);
  const parts: Buffer[] = [header];
  let offset = header.length;
  const footerEntries: Buffer[] = [];
  for (const segment of spec.segments) {
    const body = Buffer.concat([
      u64(segment.regionId),
      u32(segment.entries.length),
      ...segment.entries.flatMap((e) => [u64(e.id), u32(e.payload.length), Buffer.from(e.payload)]),
    ]);
    const first = segment.entries[0]!.id;
    const last = segment.entries[segment.entries.length - 1]!.id;
    footerEntries.push(
      Buffer.concat([
        u64(segment.regionId),
        u64(first),
        u64(last),
        u32(segment.entries.length),
        u64(BigInt(offset)),
        u64(BigInt(body.length)),
        u32(crc32(body)),
      ]),
    );
    parts.push(body);
    offset += body.length;
  }
  const footer = Buffer.concat([u32(spec.segments.length), ...footerEntries]);
  parts.push(footer);
  const beforeTrailer = Buffer.concat(parts);
  const trailerHead = Buffer.concat([
    u64(BigInt(offset)),
    u64(BigInt(footer.length)),
    u32(crc32(footer)),
  ]);
  const magic = ascii('GTWALTRL');
  const objectCrc = crc32(magic, crc32(trailerHead, crc32(beforeTrailer)));
  return Buffer.concat([beforeTrailer, trailerHead, u32(objectCrc), magic]);
}

/** A writer instance id from a small number (each "process open" of a test). */
export function instanceId(n: number): Uint8Array {
  return Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? n : 0xc0 + i));
}

export function instanceHex(n: number): string {
  return Buffer.from(instanceId(n)).toString('hex');
}

export type RegionPayloads = ReadonlyArray<readonly [bigint, ReadonlyArray<string | Uint8Array>]>;

export class MergedPrefixBuilder {
  readonly objects = new Map<bigint, Uint8Array>();
  private writer = 1;
  private next = 0n;

  constructor(readonly prefix: string) {}

  /** A restart: a new writer instance from the next object on. */
  restart(): this {
    this.writer += 1;
    return this;
  }

  /** Writes as instance `n` from now on (an instance seen before: two writers). */
  writeAs(n: number): this {
    this.writer = n;
    return this;
  }

  /** A gap: `count` sequences consumed and never created. */
  skip(count: bigint): this {
    this.next += count;
    return this;
  }

  /** One object of the current writer; ids are seq << 20 | position per region. */
  append(regions: RegionPayloads): bigint {
    const seq = this.next;
    const segments = [...regions]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([regionId, payloads]) => ({
        regionId,
        entries: payloads.map((p, i) => ({
          id: (seq << 20n) | BigInt(i + 1),
          payload: typeof p === 'string' ? Buffer.from(p) : p,
        })),
      }));
    this.put({ seq, writerInstance: instanceId(this.writer), segments });
    return seq;
  }

  /** An object with explicit segments (ids as given: overlaps, legacy ids). */
  put(spec: MergedObjectSpec): void {
    this.objects.set(spec.seq, encodeMergedObject(spec));
    if (spec.seq + 1n > this.next) this.next = spec.seq + 1n;
  }

  /** Flips a payload byte of `region`'s segment in object `seq`: its segment CRC fails. */
  damageSegment(seq: bigint, region: bigint): void {
    const bytes = this.objects.get(seq);
    if (bytes === undefined) throw new Error(`no object ${seq}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const footerOffset = Number(view.getBigUint64(bytes.length - 32));
    const count = view.getUint32(footerOffset);
    for (let i = 0; i < count; i++) {
      const at = footerOffset + 4 + i * 48;
      if (view.getBigUint64(at) !== region) continue;
      const segmentAt = Number(view.getBigUint64(at + 28));
      const at1 = segmentAt + 12 + 12; // the first entry's first payload byte
      bytes[at1] = bytes[at1]! ^ 0xff;
      return;
    }
    throw new Error(`object ${seq} holds no region ${region}`);
  }

  key(seq: bigint): string {
    return mergedKey(this.prefix, seq);
  }

  async writeTo(io: ObjectIo): Promise<void> {
    for (const [seq, bytes] of this.objects) await io.putIfAbsent(this.key(seq), bytes);
  }
}
