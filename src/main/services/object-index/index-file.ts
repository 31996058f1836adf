/**
 * The file format of the local object index (docs/design/object-index.md): per prefix, what
 * recovery read of each object - its sequence, size and ETag as listed, epoch, link, reclaim
 * boundary (GreptimeDB) and segment index - so a later process recalls it instead of reading
 * the object again. Binary, little-endian, one CRC32C over the whole: a file that is damaged,
 * truncated, of another version or format, or written for another store or prefix decodes to
 * `null` and is never trusted. Pure; reads and writes no file.
 */
import { crc32c } from '@node-rs/crc32';
import type { ObjectLink, SegmentIndex } from '../../engine/wal/format';
import type { WalFormat } from '../../engine/wal-read/format';

export const INDEX_MAGIC = 'CAIRNIDX';
export const INDEX_VERSION = 1;

/** One object as recovery read it. */
export interface IndexedObject {
  readonly seq: bigint;
  readonly size: number;
  /** As listed; an object listed later with another size or ETag is read again. */
  readonly etag: string;
  readonly epoch: bigint;
  readonly link: ObjectLink | null;
  /** GreptimeDB's reclaim boundary; 0 for Cairn's format. */
  readonly reclaimBoundary: bigint;
  /** GreptimeDB's merged layout: the writer instance (32 hex digits); null otherwise. */
  readonly writerInstance: string | null;
  readonly segments: readonly SegmentIndex[];
}

/** Whose objects a file holds. */
export interface IndexIdentity {
  /** The store, as its client names it (a directory, `s3://bucket at endpoint`). */
  readonly store: string;
  readonly prefix: string;
  readonly format: WalFormat;
}

export interface IndexHeader extends IndexIdentity {
  readonly objects: number;
}

const FORMAT_CODES: Record<WalFormat, number> = { 'cairn-v1': 1, 'greptimedb-v1': 2 };
const MAGIC_BYTES = new TextEncoder().encode(INDEX_MAGIC);
const SEGMENT_BYTES = 48;
/** seq, size, epoch, link flag + seq + epoch, reclaim boundary, segment count. */
const OBJECT_FIXED_BYTES = 8 + 8 + 8 + 1 + 8 + 8 + 8 + 4;
const NO_LINK = 0;
const LINK = 1;
/**
 * GreptimeDB's merged layout (no link): the link's two u64 slots hold the 16-byte writer
 * instance, as two big-endian halves. A Cairn that predates it refuses the file (flag > 1).
 */
const WRITER = 2;

function writerHalves(hex: string): [bigint, bigint] {
  return [BigInt(`0x${hex.slice(0, 16)}`), BigInt(`0x${hex.slice(16, 32)}`)];
}

function writerHex(high: bigint, low: bigint): string {
  return high.toString(16).padStart(16, '0') + low.toString(16).padStart(16, '0');
}

function linkSlots(object: IndexedObject): [number, bigint, bigint] {
  if (object.writerInstance !== null) return [WRITER, ...writerHalves(object.writerInstance)];
  if (object.link === null) return [NO_LINK, 0n, 0n];
  return [LINK, object.link.seq, object.link.epoch];
}

class Writer {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  at = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  u8(value: number): void {
    this.view.setUint8(this.at, value);
    this.at += 1;
  }
  u16(value: number): void {
    this.view.setUint16(this.at, value, true);
    this.at += 2;
  }
  u32(value: number): void {
    this.view.setUint32(this.at, value, true);
    this.at += 4;
  }
  u64(value: bigint): void {
    this.view.setBigUint64(this.at, value, true);
    this.at += 8;
  }
  f64(value: number): void {
    this.view.setFloat64(this.at, value, true);
    this.at += 8;
  }
  raw(value: Uint8Array): void {
    this.bytes.set(value, this.at);
    this.at += value.length;
  }
  text(value: Uint8Array): void {
    this.u32(value.length);
    this.raw(value);
  }
}

/** Reads the file's fields; any read past its end throws (the file is then not trusted). */
class Reader {
  private readonly view: DataView;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private at = 0;

  /** True once every byte before the CRC was read. */
  get atEnd(): boolean {
    return this.at === this.end;
  }

  /** Bytes left before the CRC. */
  get left(): number {
    return this.end - this.at;
  }

  constructor(
    private readonly bytes: Uint8Array,
    private readonly end: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private take(count: number): number {
    const at = this.at;
    if (count < 0 || at + count > this.end) throw new RangeError('index file ends early');
    this.at += count;
    return at;
  }
  u8(): number {
    return this.view.getUint8(this.take(1));
  }
  u16(): number {
    return this.view.getUint16(this.take(2), true);
  }
  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }
  u64(): bigint {
    return this.view.getBigUint64(this.take(8), true);
  }
  f64(): number {
    return this.view.getFloat64(this.take(8), true);
  }
  text(): string {
    return this.utf8(this.u32());
  }
  shortText(): string {
    return this.utf8(this.u16());
  }
  private utf8(length: number): string {
    const at = this.take(length);
    return this.decoder.decode(this.bytes.subarray(at, at + length));
  }
  magicMatches(): boolean {
    const at = this.take(MAGIC_BYTES.length);
    return MAGIC_BYTES.every((byte, i) => this.bytes[at + i] === byte);
  }
}

export function encodeIndexFile(
  identity: IndexIdentity,
  objects: readonly IndexedObject[],
): Uint8Array {
  const encoder = new TextEncoder();
  const store = encoder.encode(identity.store);
  const prefix = encoder.encode(identity.prefix);
  const etags = objects.map((object) => encoder.encode(object.etag));
  let size = MAGIC_BYTES.length + 2 + 1 + 1 + 4 + store.length + 4 + prefix.length + 4;
  objects.forEach((object, at) => {
    size += OBJECT_FIXED_BYTES + 2 + (etags[at]?.length ?? 0);
    size += object.segments.length * SEGMENT_BYTES;
  });
  const out = new Writer(size + 4);
  out.raw(MAGIC_BYTES);
  out.u16(INDEX_VERSION);
  out.u8(FORMAT_CODES[identity.format]);
  out.u8(0);
  out.text(store);
  out.text(prefix);
  out.u32(objects.length);
  objects.forEach((object, at) => {
    const etag = etags[at] ?? new Uint8Array(0);
    out.u64(object.seq);
    out.f64(object.size);
    out.u16(etag.length);
    out.raw(etag);
    out.u64(object.epoch);
    const [flag, first, second] = linkSlots(object);
    out.u8(flag);
    out.u64(first);
    out.u64(second);
    out.u64(object.reclaimBoundary);
    out.u32(object.segments.length);
    for (const segment of object.segments) {
      out.u64(segment.regionId);
      out.u64(segment.firstId);
      out.u64(segment.lastId);
      out.u32(segment.entries);
      out.f64(segment.offset);
      out.f64(segment.length);
      out.u32(segment.segmentCrc);
    }
  });
  out.u32(crc32c(out.bytes.subarray(0, out.at)));
  return out.bytes;
}

function headerOf(reader: Reader): IndexHeader | null {
  if (!reader.magicMatches() || reader.u16() !== INDEX_VERSION) return null;
  const code = reader.u8();
  const format = (Object.keys(FORMAT_CODES) as WalFormat[]).find((f) => FORMAT_CODES[f] === code);
  reader.u8();
  if (format === undefined) return null;
  const store = reader.text();
  const prefix = reader.text();
  return { store, prefix, format, objects: reader.u32() };
}

/** The file's identity and object count, or null when it is no index file of this version. */
export function decodeIndexHeader(bytes: Uint8Array): IndexHeader | null {
  try {
    return headerOf(new Reader(bytes, bytes.length));
  } catch {
    return null;
  }
}

function sane(object: IndexedObject): boolean {
  return (
    Number.isSafeInteger(object.size) &&
    object.size >= 0 &&
    object.segments.every(
      (s) =>
        Number.isSafeInteger(s.offset) &&
        Number.isSafeInteger(s.length) &&
        s.offset >= 0 &&
        s.length >= 0,
    )
  );
}

/**
 * The objects of a file written for `expected`, or null when the file is damaged (its CRC, a
 * field that runs past its end, a size that is no byte count), of another version, or
 * written for another store, prefix or format: such a file is rebuilt, never trusted.
 */
export function decodeIndexFile(
  bytes: Uint8Array,
  expected: IndexIdentity,
): IndexedObject[] | null {
  if (bytes.length < MAGIC_BYTES.length + 4) return null;
  const body = bytes.length - 4;
  const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
    body,
    true,
  );
  if (crc32c(bytes.subarray(0, body)) !== stored) return null;
  try {
    const reader = new Reader(bytes, body);
    const header = headerOf(reader);
    if (
      header === null ||
      header.store !== expected.store ||
      header.prefix !== expected.prefix ||
      header.format !== expected.format
    )
      return null;
    const objects: IndexedObject[] = [];
    for (let at = 0; at < header.objects; at++) {
      const seq = reader.u64();
      const size = reader.f64();
      const etag = reader.shortText();
      const epoch = reader.u64();
      const hasLink = reader.u8();
      const linkSeq = reader.u64();
      const linkEpoch = reader.u64();
      const reclaimBoundary = reader.u64();
      const count = reader.u32();
      if (count * SEGMENT_BYTES > reader.left) return null;
      const segments: SegmentIndex[] = [];
      for (let s = 0; s < count; s++)
        segments.push({
          regionId: reader.u64(),
          firstId: reader.u64(),
          lastId: reader.u64(),
          entries: reader.u32(),
          offset: reader.f64(),
          length: reader.f64(),
          segmentCrc: reader.u32(),
        });
      const link = hasLink === LINK ? { seq: linkSeq, epoch: linkEpoch } : null;
      const writerInstance = hasLink === WRITER ? writerHex(linkSeq, linkEpoch) : null;
      const object = { seq, size, etag, epoch, link, reclaimBoundary, writerInstance, segments };
      if (hasLink > WRITER || !sane(object)) return null;
      objects.push(object);
    }
    return reader.atEnd ? objects : null;
  } catch {
    return null;
  }
}
