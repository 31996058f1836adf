/**
 * A text file's lines from a byte offset back to its start, read in blocks from the end: the
 * newest lines of a log of any size cost what they weigh, not the whole file. Memory stays
 * bounded whatever the file holds: a line longer than `maxLineBytes` (a torn write, a region of
 * zeros, a file that is not a log) is skipped whole - its bytes are never kept - and answered
 * as unreadable. Reads only; never throws for content, only for I/O.
 */
import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;

export interface BackwardLine {
  /** The line without its newline, or null when it was longer than allowed. */
  readonly text: string | null;
  /** Byte offset of the line's first byte: where a read of the lines before it ends. */
  readonly start: number;
}

export interface BackwardOptions {
  readonly blockBytes: number;
  readonly maxLineBytes: number;
}

export const BACKWARD_DEFAULTS: BackwardOptions = {
  blockBytes: 256 * 1024,
  maxLineBytes: 8 * 1024 * 1024,
};

/**
 * The lines of `file` that end at or before byte `end` (the file's size when larger), newest
 * first. Empty lines are passed over. A missing file has none.
 */
export async function* linesBackward(
  file: string,
  end: number,
  options: BackwardOptions = BACKWARD_DEFAULTS,
): AsyncGenerator<BackwardLine> {
  const handle = await open(file, 'r').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  });
  if (handle === null) return;
  try {
    const line = new PartialLine(options.maxLineBytes);
    let position = Math.min(end, (await handle.stat()).size);
    while (position > 0) {
      const size = Math.min(options.blockBytes, position);
      position -= size;
      const block = Buffer.allocUnsafe(size);
      const { bytesRead } = await handle.read(block, 0, size, position);
      if (bytesRead < size) block.fill(0, bytesRead); // Truncated meanwhile: read as garbage.
      let cut = size;
      while (cut > 0) {
        const newline = block.lastIndexOf(NEWLINE, cut - 1);
        if (newline < 0) break;
        line.prepend(block.subarray(newline + 1, cut));
        const done = line.take(position + newline + 1);
        if (done !== null) yield done;
        cut = newline;
      }
      line.prepend(block.subarray(0, cut));
    }
    const first = line.take(0);
    if (first !== null) yield first;
  } finally {
    await handle.close();
  }
}

/** The bytes of the line being gathered, back to front, dropped once it is too long. */
class PartialLine {
  private parts: Buffer[] = [];
  private bytes = 0;
  private tooLong = false;

  constructor(private readonly maxBytes: number) {}

  prepend(part: Buffer): void {
    if (part.length === 0 || this.tooLong) return;
    this.bytes += part.length;
    if (this.bytes > this.maxBytes) {
      this.tooLong = true;
      this.parts = [];
      return;
    }
    this.parts.unshift(part);
  }

  /** The line gathered so far, starting at `start`; null for an empty line. Starts a new one. */
  take(start: number): BackwardLine | null {
    const line: BackwardLine | null = this.tooLong
      ? { text: null, start }
      : this.bytes === 0
        ? null
        : { text: Buffer.concat(this.parts, this.bytes).toString('utf8'), start };
    this.parts = [];
    this.bytes = 0;
    this.tooLong = false;
    return line;
  }
}
