/**
 * The protobuf wire reader the `WalEntry` decoder walks with: `@bufbuild/protobuf`'s
 * `BinaryReader` (varints, fixed-width numbers, strict UTF-8, skipping unknown fields), plus
 * what a decoder of untrusted payloads needs beside it - the offset of the field being read,
 * a nested message's end checked against its parent's before anything in it is read, a known
 * field's wire type checked, and every failure turned into one typed reason at one offset.
 * A declared length is only ever compared with the bytes present; nothing is allocated from
 * it. Reads only the bytes it is given.
 */
import { BinaryReader } from '@bufbuild/protobuf/wire';
import type { EntryDecodeFailure, EntryDecodeReason } from '../entry-table';

/** Nesting of lists, structs and JSON values past which a payload is refused. */
export const MAX_VALUE_DEPTH = 64;

/** Protobuf's wire types, by number. */
export const WIRE = { varint: 0, bit64: 1, delimited: 2, endGroup: 4, bit32: 5 } as const;
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

export class EntryReader {
  readonly r: BinaryReader;
  /** Where the field being read starts: the offset a failure names. */
  at = 0;
  /** The message being read, named in a failure's detail. */
  message = 'WalEntry';

  constructor(readonly bytes: Uint8Array) {
    this.r = new BinaryReader(bytes);
  }

  get pos(): number {
    return this.r.pos;
  }

  fail(reason: EntryDecodeReason, detail: string): never {
    throw new EntryDecodeError(reason, this.at, `${this.message}: ${detail}`);
  }

  /** The next field's tag (`field << 3 | wire type`); a malformed one fails `invalid-tag`. */
  tag(): number {
    const r = this.r;
    this.at = r.pos;
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (r.pos - this.at > 5 || field === 0 || wire > 5 || wire === WIRE.endGroup)
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
    const length = this.r.uint32();
    const end = this.r.pos + length;
    if (end > limit)
      this.fail(
        'truncated',
        `field ${tag >>> 3} declares ${length} bytes, ${Math.max(0, limit - this.r.pos)} are left`,
      );
    return end;
  }

  /** Skips an unknown field, which must end within `limit`. */
  skip(tag: number, limit: number): Uint8Array {
    const skipped = this.r.skip(tag & 7, tag >>> 3);
    if (this.r.pos > limit) this.fail('truncated', `field ${tag >>> 3} runs past its message`);
    return skipped;
  }

  /** A nested message read up to `end` must end exactly there. */
  close(end: number): void {
    if (this.r.pos !== end)
      this.fail('truncated', `its last field runs ${this.r.pos - end} bytes past its end`);
  }

  /**
   * Reads the fields of a message ending at `end`, handing each to `field` (its number and
   * tag), which reads it and returns true, or returns false to have it skipped. For the small
   * messages; the per-cell ones keep their own loops.
   */
  fields(end: number, field: (number: number, tag: number) => boolean): void {
    while (this.r.pos < end) {
      const tag = this.tag();
      if (!field(tag >>> 3, tag)) this.skip(tag, end);
    }
    this.close(end);
  }

  int64(): bigint {
    const value = this.r.int64();
    return typeof value === 'bigint' ? value : BigInt(value);
  }

  uint64(): bigint {
    const value = this.r.uint64();
    return typeof value === 'bigint' ? value : BigInt(value);
  }

  /** proto3 strings are UTF-8; prost refuses any other, and so does this decoder. */
  string(): string {
    try {
      return this.r.string(true);
    } catch (error) {
      if (error instanceof TypeError) this.fail('invalid-utf8', 'a string is not UTF-8');
      throw error;
    }
  }

  /**
   * The typed failure of what the walk threw: its own, or `BinaryReader`'s mapped by kind.
   * Anything else is a defect of this code, not of the payload, and is thrown on.
   */
  failureOf(error: unknown): EntryDecodeFailure {
    if (error instanceof EntryDecodeError)
      return { reason: error.reason, offset: error.offset, detail: error.detail };
    if (!(error instanceof Error)) throw error;
    const at = (reason: EntryDecodeReason, detail: string): EntryDecodeFailure => ({
      reason,
      offset: this.at,
      detail: `${this.message}: ${detail}`,
    });
    // The reader's bounds check ("premature EOF") and DataView reads past the end.
    if (error instanceof RangeError && !/call stack/i.test(error.message))
      return at('truncated', 'a value runs past the payload');
    if (error.message.includes('varint'))
      return at('invalid-varint', 'a varint is longer than 10 bytes');
    if (/illegal tag|skip wire type|end group/.test(error.message))
      return at('invalid-tag', error.message);
    if (error.message.includes('recursion')) return at('too-deep', 'groups nest too deep');
    throw error;
  }
}
