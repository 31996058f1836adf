/**
 * The protobuf wire reader the `WalEntry` decoder walks with, written for untrusted payloads:
 * varints (at most 10 bytes), fixed-width numbers, strict UTF-8, skipping unknown fields and
 * groups; the offset of the field being read; a nested message's end checked against its
 * parent's before anything in it is read; a known field's wire type checked; every failure one
 * typed reason at one offset. A declared length is only ever compared with the bytes present;
 * nothing is allocated from it. Reads only the bytes it is given.
 *
 * Hand-written rather than `@bufbuild/protobuf`'s `BinaryReader` (which it replaced, keeping
 * its reading rules): a 64-bit varint is read into two 32-bit halves, a value's bytes are
 * handed on as a range, so the decoder's hot path allocates no bigint, no string and
 * no subarray per cell (docs/benchmarks.md, "GreptimeDB replay with decoding").
 */
import type { EntryDecodeFailure, EntryDecodeReason } from '../entry-table';

/** Nesting of lists, structs and JSON values past which a payload is refused. */
export const MAX_VALUE_DEPTH = 64;
/** Nesting of groups skipped inside an unknown field past which a payload is refused. */
const MAX_GROUP_DEPTH = 100;

/** Protobuf's wire types, by number. */
export const WIRE = {
  varint: 0,
  bit64: 1,
  delimited: 2,
  startGroup: 3,
  endGroup: 4,
  bit32: 5,
} as const;
const WIRE_NAMES = ['varint', '64-bit', 'length-delimited', 'start-group', 'end-group', '32-bit'];

export class EntryDecodeError extends Error {
  constructor(
    readonly reason: EntryDecodeReason,
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`${reason} at byte ${offset}: ${detail}`);
  }
}

/** Strict, and a leading byte-order mark stays part of the string (as protobuf-es reads it). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class EntryReader {
  readonly len: number;
  private readonly view: DataView;
  pos = 0;
  /** Where the field being read starts: the offset a failure names. */
  at = 0;
  /** The message being read, named in a failure's detail. */
  message = 'WalEntry';
  /** The halves of the last 64-bit varint read (`varint64`). */
  lo = 0;
  hi = 0;

  constructor(readonly bytes: Uint8Array) {
    this.len = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  fail(reason: EntryDecodeReason, detail: string): never {
    throw new EntryDecodeError(reason, this.at, `${this.message}: ${detail}`);
  }

  private pastEnd(): never {
    return this.fail('truncated', 'a value runs past the payload');
  }

  private overlong(): never {
    return this.fail('invalid-varint', 'a varint is longer than 10 bytes');
  }

  /** An unsigned 32-bit varint (the low 32 bits of a longer one); at most 10 bytes. */
  uint32(): number {
    const bytes = this.bytes;
    let at = this.pos;
    if (at >= this.len) this.pastEnd();
    let byte = bytes[at++]!;
    if (byte < 0x80) {
      this.pos = at;
      return byte;
    }
    let value = byte & 0x7f;
    for (let shift = 7; shift < 35; shift += 7) {
      if (at >= this.len) this.pastEnd();
      byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = at;
        return value >>> 0;
      }
    }
    // Bytes 6 to 10 only extend the sign of an int32; an 11th is not a varint.
    for (let read = 5; read < 10; read++) {
      if (at >= this.len) this.pastEnd();
      if (bytes[at++]! < 0x80) {
        this.pos = at;
        return value >>> 0;
      }
    }
    return this.overlong();
  }

  int32(): number {
    return this.uint32() | 0;
  }

  /** A 64-bit varint into `lo` and `hi` (each as unsigned 32 bits). */
  varint64(): void {
    const bytes = this.bytes;
    let at = this.pos;
    let lo = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (at >= this.len) this.pastEnd();
      const byte = bytes[at++]!;
      lo |= (byte & 0x7f) << shift;
      if (byte < 0x80) return this.set64(at, lo, 0);
    }
    if (at >= this.len) this.pastEnd();
    const middle = bytes[at++]!;
    lo |= (middle & 0x0f) << 28;
    let hi = (middle & 0x70) >> 4;
    if (middle < 0x80) return this.set64(at, lo, hi);
    for (let shift = 3; shift <= 31; shift += 7) {
      if (at >= this.len) this.pastEnd();
      const byte = bytes[at++]!;
      hi |= (byte & 0x7f) << shift;
      if (byte < 0x80) return this.set64(at, lo, hi);
    }
    this.overlong();
  }

  private set64(at: number, lo: number, hi: number): void {
    this.pos = at;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  int64(): bigint {
    this.varint64();
    return int64Of(this.lo, this.hi, true);
  }

  uint64(): bigint {
    this.varint64();
    return int64Of(this.lo, this.hi, false);
  }

  bool(): boolean {
    this.varint64();
    return this.lo !== 0 || this.hi !== 0;
  }

  private fixed(size: number): number {
    const at = this.pos;
    if (at + size > this.len) this.pastEnd();
    this.pos = at + size;
    return at;
  }

  double(): number {
    return this.view.getFloat64(this.fixed(8), true);
  }

  float(): number {
    return this.view.getFloat32(this.fixed(4), true);
  }

  /** A length-delimited value's bytes: where they start; `pos` is then their end. */
  delimited(): number {
    const length = this.uint32();
    const start = this.pos;
    if (length > this.len - start) this.pastEnd();
    this.pos = start + length;
    return start;
  }

  bytesField(): Uint8Array {
    const start = this.delimited();
    return this.bytes.subarray(start, this.pos);
  }

  /** proto3 strings are UTF-8; prost refuses any other, and so does this decoder. */
  string(): string {
    const start = this.delimited();
    return this.text(start, this.pos);
  }

  /** The bytes `start..end` as text; a string that is not UTF-8 fails `invalid-utf8`. */
  text(start: number, end: number): string {
    const bytes = this.bytes;
    let ascii = true;
    for (let at = start; at < end; at++)
      if (bytes[at]! >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii) return latin1(bytes, start, end);
    try {
      return utf8.decode(bytes.subarray(start, end));
    } catch {
      return this.fail('invalid-utf8', 'a string is not UTF-8');
    }
  }

  /**
   * Checks the bytes `start..end` are UTF-8 without making a string of them; returns whether
   * they are printable ASCII that JSON quotes as they are (no quote, backslash or control).
   */
  checkText(start: number, end: number): boolean {
    const bytes = this.bytes;
    let plain = true;
    for (let at = start; at < end; at++) {
      const byte = bytes[at]!;
      if (byte < 0x20 || byte === 0x22 || byte === 0x5c || byte >= 0x7f) {
        // Every byte before it is ASCII: a UTF-8 sequence can only start here.
        if (byte >= 0x80) {
          this.text(at, end);
          return false;
        }
        plain = false;
      }
    }
    return plain;
  }

  /** The next field's tag (`field << 3 | wire type`); a malformed one fails `invalid-tag`. */
  tag(): number {
    this.at = this.pos;
    const tag = this.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (this.pos - this.at > 5 || field === 0 || wire > 5 || wire === WIRE.endGroup)
      this.fail('invalid-tag', `field ${field}, wire type ${wire}`);
    return tag;
  }

  /** A known field must come with its declared wire type (as prost decodes it). */
  expect(tag: number, wire: number): void {
    if ((tag & 7) !== wire)
      this.fail(
        'wrong-wire-type',
        `field ${tag >>> 3} is ${WIRE_NAMES[wire]}, found ${WIRE_NAMES[tag & 7] ?? tag & 7}`,
      );
  }

  /**
   * The end of the length-delimited field whose tag was just read, after checking it lies
   * within `limit` (the enclosing message's end): the declared length is only compared.
   */
  nested(tag: number, limit: number): number {
    this.expect(tag, WIRE.delimited);
    const length = this.uint32();
    const end = this.pos + length;
    if (end > limit)
      this.fail(
        'truncated',
        `field ${tag >>> 3} declares ${length} bytes, ${Math.max(0, limit - this.pos)} are left`,
      );
    return end;
  }

  /** Skips an unknown field, which must end within `limit`; returns its bytes after the tag. */
  skip(tag: number, limit: number): Uint8Array {
    const start = this.pos;
    this.skipValue(tag & 7, tag >>> 3, MAX_GROUP_DEPTH);
    if (this.pos > limit) this.fail('truncated', `field ${tag >>> 3} runs past its message`);
    return this.bytes.subarray(start, this.pos);
  }

  private skipValue(wire: number, field: number, groupDepth: number): void {
    switch (wire) {
      case WIRE.varint: {
        // Any length: an unknown varint is only stepped over.
        let at = this.pos;
        while (at < this.len && this.bytes[at++]! >= 0x80);
        if (this.bytes[at - 1]! >= 0x80 || at === this.pos) this.pastEnd();
        this.pos = at;
        return;
      }
      case WIRE.bit64:
        this.fixed(8);
        return;
      case WIRE.bit32:
        this.fixed(4);
        return;
      case WIRE.delimited:
        this.delimited();
        return;
      case WIRE.startGroup:
        return this.skipGroup(field, groupDepth);
      default:
        this.fail('invalid-tag', `cannot skip wire type ${wire}`);
    }
  }

  /** A group's fields up to the end-group tag of the same field number. */
  private skipGroup(field: number, groupDepth: number): void {
    if (groupDepth <= 0) this.fail('too-deep', 'groups nest too deep');
    for (;;) {
      const start = this.pos;
      const tag = this.uint32();
      const read = this.pos - start;
      if (read > 5 || (read === 5 && this.bytes[this.pos - 1]! > 0x0f)) this.overlong();
      const inner = tag >>> 3;
      const wire = tag & 7;
      if (inner === 0 || wire > 5)
        this.fail('invalid-tag', `illegal tag: field no ${inner} wire type ${wire}`);
      if (wire === WIRE.endGroup) {
        if (inner !== field) this.fail('invalid-tag', 'invalid end group tag');
        return;
      }
      this.skipValue(wire, inner, groupDepth - 1);
    }
  }

  /** A nested message read up to `end` must end exactly there. */
  close(end: number): void {
    if (this.pos !== end)
      this.fail('truncated', `its last field runs ${this.pos - end} bytes past its end`);
  }

  /**
   * Reads the fields of a message ending at `end`, handing each to `field` (its number and
   * tag), which reads it and returns true, or returns false to have it skipped. For the small
   * messages; the per-cell ones keep their own loops.
   */
  fields(end: number, field: (number: number, tag: number) => boolean): void {
    while (this.pos < end) {
      const tag = this.tag();
      if (!field(tag >>> 3, tag)) this.skip(tag, end);
    }
    this.close(end);
  }

  /**
   * The typed failure of what the walk threw. Anything but the reader's own error is a defect
   * of this code, not of the payload, and is thrown on.
   */
  static failureOf(error: unknown): EntryDecodeFailure {
    if (error instanceof EntryDecodeError)
      return { reason: error.reason, offset: error.offset, detail: error.detail };
    throw error;
  }
}

const halves = new DataView(new ArrayBuffer(8));

/** A 64-bit integer from its 32-bit halves (a DataView's bigint read is V8's fast way). */
export function int64Of(lo: number, hi: number, signed: boolean): bigint {
  halves.setUint32(0, lo, true);
  halves.setUint32(4, hi, true);
  return signed ? halves.getBigInt64(0, true) : halves.getBigUint64(0, true);
}

/** Bytes below 0x80 as the string of their char codes, in pieces that fit an argument list. */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let text = '';
    for (let at = start; at < end; at++) text += String.fromCharCode(bytes[at]!);
    return text;
  }
  let text = '';
  for (let at = start; at < end; at += 4096)
    text += String.fromCharCode(...bytes.subarray(at, Math.min(end, at + 4096)));
  return text;
}
