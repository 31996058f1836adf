/**
 * A GreptimeDB "GTWALOBJ" v1 encoder written for the tests from the format's description
 * (docs/design/greptimedb-format.md), never the product's decoder run backwards, and a prefix
 * builder that writes like GreptimeDB's instances do: a start object per open (epoch = its
 * sequence + 1), then objects linking to the instance's previous one, ids seq << 20 | position.
 * CRCs come from node:zlib, not the product's CRC library.
 */
import { crc32 } from 'node:zlib';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';

export interface GtEntrySpec {
  readonly id: bigint;
  readonly payload: Uint8Array;
}

export interface GtSegmentSpec {
  readonly regionId: bigint;
  readonly entries: readonly GtEntrySpec[];
}

export interface GtObjectSpec {
  readonly seq: bigint;
  readonly epoch: bigint;
  readonly prev: { readonly seq: bigint; readonly epoch: bigint } | null;
  readonly reclaimBoundary: bigint;
  readonly segments: readonly GtSegmentSpec[];
}

class Bytes {
  private readonly parts: Buffer[] = [];
  length = 0;
  u16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(v);
    return this.push(b);
  }
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v >>> 0);
    return this.push(b);
  }
  u64(v: bigint | number): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(v));
    return this.push(b);
  }
  raw(v: Uint8Array | string): this {
    return this.push(Buffer.from(v));
  }
  push(b: Buffer): this {
    this.parts.push(b);
    this.length += b.length;
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const NO_PREV = (1n << 64n) - 1n;

export function gtObjectKey(prefix: string, seq: bigint): string {
  return `${prefix}/objects/${seq.toString().padStart(20, '0')}.wal`;
}

export function encodeGtObject(spec: GtObjectSpec): Uint8Array {
  const header = new Bytes()
    .raw('GTWALOBJ')
    .u16(1)
    .u64(spec.seq)
    .u64(spec.epoch)
    .u64(spec.prev?.seq ?? NO_PREV)
    .u64(spec.prev?.epoch ?? 0n)
    .u64(spec.reclaimBoundary)
    .done();
  return encodeAfterHeader(Buffer.concat([header, u32(crc32(header))]), spec.segments);
}

/**
 * GreptimeDB's other v1 layout (greptimedb.md, last section): a 34-byte header of magic,
 * version, sequence and a 16-byte writer instance; the rest as in the 54-byte layout.
 */
export function encodeGtWriterInstanceObject(spec: {
  readonly seq: bigint;
  readonly writerInstance: Uint8Array;
  readonly segments: readonly GtSegmentSpec[];
}): Uint8Array {
  const header = new Bytes().raw('GTWALOBJ').u16(1).u64(spec.seq).raw(spec.writerInstance).done();
  return encodeAfterHeader(header, spec.segments);
}

function encodeAfterHeader(header: Buffer, segments: readonly GtSegmentSpec[]): Uint8Array {
  const body: Buffer[] = [header];
  let offset = header.length;
  const footer = new Bytes().u32(segments.length);
  for (const segment of segments) {
    const bytes = new Bytes().u64(segment.regionId).u32(segment.entries.length);
    for (const entry of segment.entries)
      bytes.u64(entry.id).u32(entry.payload.length).raw(entry.payload);
    const encoded = bytes.done();
    const ids = segment.entries.map((e) => e.id);
    footer
      .u64(segment.regionId)
      .u64(ids[0] ?? 0n)
      .u64(ids[ids.length - 1] ?? 0n)
      .u32(ids.length)
      .u64(offset)
      .u64(encoded.length)
      .u32(crc32(encoded));
    body.push(encoded);
    offset += encoded.length;
  }
  const footerBytes = footer.done();
  body.push(footerBytes);
  const beforeTrailer = Buffer.concat(body);
  const trailerHead = new Bytes()
    .u64(offset)
    .u64(footerBytes.length)
    .u32(crc32(footerBytes))
    .done();
  const magic = Buffer.from('GTWALTRL');
  const objectCrc = crc32(magic, crc32(trailerHead, crc32(beforeTrailer)));
  return Buffer.concat([beforeTrailer, trailerHead, u32(objectCrc), magic]);
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
}

/** What a test expects a replay of one region to return. */
export interface ExpectedEntry {
  readonly id: bigint;
  readonly payload: Uint8Array;
}

/**
 * Builds a GreptimeDB prefix in memory the way its instances write one. Objects are kept as
 * specs until `writeTo`, so a test can drop, damage or reorder them first.
 */
export class GtPrefixBuilder {
  readonly objects = new Map<bigint, GtObjectSpec>();
  private epoch = 0n;
  private last: { seq: bigint; epoch: bigint } | null = null;
  private next = 0n;

  constructor(readonly prefix: string) {}

  /** A new instance: start object above every object present, epoch = its sequence + 1. */
  openInstance(gap = 0n): bigint {
    const highest = [...this.objects.keys()].reduce((a, b) => (a > b ? a : b), -1n);
    const seq = highest + 1n + gap;
    this.epoch = seq + 1n;
    this.put({
      seq,
      epoch: this.epoch,
      prev: this.last,
      reclaimBoundary: this.boundaryBelow(seq),
      segments: [],
    });
    return this.epoch;
  }

  /** One object of the current instance with `regions` (region -> payloads), linked to its last. */
  append(
    regions: ReadonlyArray<readonly [bigint, ReadonlyArray<string | Uint8Array>]>,
    options: { gap?: bigint; reclaimBoundary?: bigint } = {},
  ): bigint {
    const seq = this.next + (options.gap ?? 0n);
    const segments = [...regions]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([regionId, payloads]) => ({
        regionId,
        entries: payloads.map((p, i) => ({
          id: (seq << 20n) | BigInt(i + 1),
          payload: Buffer.from(p),
        })),
      }));
    this.put({
      seq,
      epoch: this.epoch,
      prev: this.last,
      reclaimBoundary: options.reclaimBoundary ?? this.boundaryBelow(seq),
      segments,
    });
    return seq;
  }

  /** An object of an earlier instance landing late at `seq` (an orphan), linked to `prev`. */
  lateObject(
    seq: bigint,
    epoch: bigint,
    prev: { seq: bigint; epoch: bigint } | null,
    regions: ReadonlyArray<readonly [bigint, readonly string[]]>,
  ): void {
    const segments = regions.map(([regionId, payloads]) => ({
      regionId,
      entries: payloads.map((p, i) => ({
        id: (seq << 20n) | BigInt(i + 1),
        payload: Buffer.from(p),
      })),
    }));
    this.objects.set(seq, { seq, epoch, prev, reclaimBoundary: 0n, segments });
  }

  /** The entries of `regionId` on the chain ending at the current last object, in order. */
  expected(regionId: bigint, from = 0n): ExpectedEntry[] {
    const chain: GtObjectSpec[] = [];
    const tip = this.last === null ? undefined : this.objects.get(this.last.seq);
    const boundary = tip?.reclaimBoundary ?? 0n;
    for (let at = tip; at !== undefined;) {
      chain.unshift(at);
      if (at.prev === null || at.prev.seq < boundary) break;
      at = this.objects.get(at.prev.seq);
    }
    return chain.flatMap((o) =>
      o.segments
        .filter((s) => s.regionId === regionId)
        .flatMap((s) =>
          s.entries.filter((e) => e.id >= from).map((e) => ({ id: e.id, payload: e.payload })),
        ),
    );
  }

  async writeTo(io: ObjectIo, only?: (spec: GtObjectSpec) => boolean): Promise<void> {
    for (const spec of this.objects.values())
      if (only === undefined || only(spec))
        await io.putIfAbsent(gtObjectKey(this.prefix, spec.seq), encodeGtObject(spec));
  }

  private reclaim = 0n;

  /** Raises the reclaim boundary later objects carry (GreptimeDB flushed everything below). */
  flushBelow(seq: bigint): void {
    this.reclaim = seq;
  }

  private boundaryBelow(seq: bigint): bigint {
    return this.reclaim <= seq ? this.reclaim : seq;
  }

  private put(spec: GtObjectSpec): void {
    this.objects.set(spec.seq, spec);
    this.last = { seq: spec.seq, epoch: spec.epoch };
    this.next = spec.seq + 1n;
  }
}

/** GreptimeDB's own v1 fixture (279 bytes), from the format description. */
export const GT_V1_VECTOR_HEX = `
475457414c4f424a 0001 0000000000000007 0000000000000003 0000000000000006
0000000000000002 0000000000000005 118e773f
0000000100000001 00000003 0000000000000001 00000001 61 0000000000000002 00000002 6262
0000000000000003 00000003 636363
0000000200000001 00000002 000000000000000a 00000001 78 000000000000000b 00000002 7979
00000002 0000000100000001 0000000000000001 0000000000000003 00000003 0000000000000036
0000000000000036 25ac0486 0000000200000001 000000000000000a 000000000000000b 00000002
000000000000006c 0000000000000027 65dc08ec
0000000000000093 0000000000000064 d80c9f07 65c91839 475457414c54524c`;

export function gtVector(): Uint8Array {
  return new Uint8Array(Buffer.from(GT_V1_VECTOR_HEX.replace(/\s+/g, ''), 'hex'));
}

/**
 * Object `seq` of a chain written by one instance (epoch 1, each object linked to the one
 * before), holding one entry of `payload` in `region`.
 */
export function gtChainObject(seq: bigint, region: bigint, payload: Uint8Array): Uint8Array {
  return encodeGtObject({
    seq,
    epoch: 1n,
    prev: seq === 0n ? null : { seq: seq - 1n, epoch: 1n },
    reclaimBoundary: 0n,
    segments: [{ regionId: region, entries: [{ id: (seq << 20n) | 1n, payload }] }],
  });
}
