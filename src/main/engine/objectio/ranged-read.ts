/**
 * Reading a span of an object of any size in bounded pieces: one ranged `get` per chunk, one
 * chunk held at a time by the caller. What a whole-object reader uses when the object may be
 * larger than it should hold (`MAX_GET_BYTES`, or far less when many run at once).
 */
import type { ObjectIo } from './object-io';

/** The default piece: large enough to amortise a request, small enough to hold a few of. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes of `key` from `start` (inclusive) to `end` (exclusive), in order, at most
 * `chunkBytes` per piece. A piece shorter than asked ends the span early (the object is
 * shorter than the caller believed); the caller compares what it counted with what it expected.
 */
export async function* readRanges(
  io: Pick<ObjectIo, 'get'>,
  key: string,
  start: number,
  end: number,
  chunkBytes: number = READ_CHUNK_BYTES,
): AsyncGenerator<Uint8Array> {
  for (let at = start; at < end;) {
    const last = Math.min(end, at + chunkBytes) - 1;
    const { bytes } = await io.get(key, { start: at, end: last });
    if (bytes.length === 0) return;
    yield bytes;
    if (bytes.length < last - at + 1) return;
    at += bytes.length;
  }
}
