/**
 * Ranged reads of one object planned together: neighbouring ranges whose gap is at most
 * `COALESCE_GAP_BYTES` become one read covering both, so a reader that needs an object's
 * header and one of its segments, or a scan that needs its header and its tail, sends one
 * request where the bytes between cost less than a second request would. Pure planning: no
 * I/O.
 *
 * The gap: a request costs a round trip of the link's time and a share of the store's request
 * rate, whatever its size; 256 KiB more of one answer costs ~2.6 ms at 100 MB/s - far less than
 * a 50 ms round trip, and on loopback about what a second request costs the S3 thread.
 */

/** Bytes between two ranges below which one read covers both. */
export const COALESCE_GAP_BYTES = 256 * 1024;

/** Bytes `start` (inclusive) to `end` (exclusive) of one object. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The reads covering `spans`, ascending: spans sorted by start, each merged into the read
 * before it when it starts at most `maxGap` bytes after that read ends. Every span lies
 * within exactly one read; empty spans are dropped.
 */
export function coveringReads(spans: readonly Span[], maxGap = COALESCE_GAP_BYTES): Span[] {
  const sorted = spans.filter((span) => span.end > span.start).sort((a, b) => a.start - b.start);
  const reads: Span[] = [];
  for (const span of sorted) {
    const last = reads[reads.length - 1];
    if (last !== undefined && span.start - last.end <= maxGap)
      reads[reads.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else reads.push({ start: span.start, end: span.end });
  }
  return reads;
}
