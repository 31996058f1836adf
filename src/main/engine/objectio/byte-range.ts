/** Resolves a `ByteRange` against an object's size the way S3 does (416 past the end). */
import type { ByteRange } from './object-io';

/** Half-open `[start, end)` slice bounds, or null when the range cannot be satisfied. */
export function resolveRange(
  size: number,
  range?: ByteRange,
): { start: number; end: number } | null {
  if (range === undefined) return { start: 0, end: size };
  // An empty object has no byte to start a range at: S3 answers every range on it with 416.
  if (size === 0) return null;
  if ('suffix' in range) {
    if (range.suffix <= 0) return null;
    return { start: Math.max(0, size - range.suffix), end: size };
  }
  if (range.start < 0 || range.start >= size) return null;
  const last = range.end === undefined ? size - 1 : Math.min(range.end, size - 1);
  if (last < range.start) return null;
  return { start: range.start, end: last + 1 };
}
