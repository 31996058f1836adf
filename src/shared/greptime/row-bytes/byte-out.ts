/**
 * The bytes of an output being written, appended in place: texts as UTF-8 (an ASCII text a
 * byte a character, without an encoder call) and byte ranges copied from a payload. What the
 * row writer writes its lines into, so no line, row or cell is a string of its own on the way
 * out. Grows as one line needs; whoever writes it out takes the bytes and starts over (`take`).
 * `mark` / `rewind` drop what was written since a point (an entry whose rows the fast writer
 * leaves to the tables). Pure.
 */
const utf8 = new TextEncoder();

/** A new buffer's size: the CLI's 64 KiB writes and the lines of an entry past them. */
const INITIAL_BYTES = 96 * 1024;

/** A buffer of `size` bytes whose contents need not be zero (the CLI's `Buffer.allocUnsafe`). */
export type Allocate = (size: number) => Uint8Array;

export class ByteOut {
  bytes: Uint8Array;
  pos = 0;

  constructor(private readonly allocate: Allocate = (size) => new Uint8Array(size)) {
    this.bytes = allocate(INITIAL_BYTES);
  }

  /** Room for `more` bytes past the end. */
  room(more: number): void {
    if (this.pos + more > this.bytes.length) this.grow(more);
  }

  private grow(more: number): void {
    let size = this.bytes.length * 2;
    while (size < this.pos + more) size *= 2;
    const bigger = this.allocate(size);
    bigger.set(this.bytes.subarray(0, this.pos));
    this.bytes = bigger;
  }

  byte(value: number): void {
    this.room(1);
    this.bytes[this.pos++] = value;
  }

  /** Bytes `start..end` of `from`, as they are. */
  copy(from: Uint8Array, start: number, end: number): void {
    const length = end - start;
    this.room(length);
    const bytes = this.bytes;
    let pos = this.pos;
    // A short range (a key, a tag, a line's start) copies faster by hand than through `set`,
    // which needs a subarray made of it.
    if (length < 256) for (let at = start; at < end; at++) bytes[pos++] = from[at]!;
    else {
      bytes.set(from.subarray(start, end), pos);
      pos += length;
    }
    this.pos = pos;
  }

  /** A whole array's bytes (a key, a line's start): one native copy, no view made of it. */
  put(whole: Uint8Array): void {
    this.room(whole.length);
    this.bytes.set(whole, this.pos);
    this.pos += whole.length;
  }

  /** `text` as UTF-8. */
  text(text: string): void {
    const length = text.length;
    this.room(length * 3);
    const bytes = this.bytes;
    let pos = this.pos;
    for (let at = 0; at < length; at++) {
      const code = text.charCodeAt(at);
      if (code >= 0x80) {
        this.pos = pos;
        this.pos += utf8.encodeInto(text.slice(at), bytes.subarray(pos)).written;
        return;
      }
      bytes[pos++] = code;
    }
    this.pos = pos;
  }

  /** Where the output is now, for `rewind`. */
  mark(): number {
    return this.pos;
  }

  rewind(mark: number): void {
    this.pos = mark;
  }

  /** The bytes written, handed over whole; the output starts again empty in a new buffer. */
  take(): Uint8Array {
    const taken = this.bytes.subarray(0, this.pos);
    this.bytes = this.allocate(INITIAL_BYTES);
    this.pos = 0;
    return taken;
  }
}
