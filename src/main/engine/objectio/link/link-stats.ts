/**
 * What a connection's link shows the operator: the latency of its recent answers (p50, p99)
 * and the rate of the last seconds (answers and bytes per second). Kept in fixed memory: the
 * last `LATENCIES` answers, and one-second buckets of the last `RATE_SECONDS` seconds.
 * Pure data: the caller gives the time.
 */

const LATENCIES = 512;
const RATE_SECONDS = 5;

/** The link as last measured; latencies are null before any answer. */
export interface LinkStats {
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  /** Answers per second over the last seconds. */
  readonly requestsPerSecond: number;
  readonly bytesPerSecond: number;
}

export class LinkStatsWindow {
  private readonly latencies = new Float64Array(LATENCIES);
  private recorded = 0;
  private readonly buckets: { second: number; answers: number; bytes: number }[] = [];
  private firstAtMs: number | null = null;

  record(atMs: number, latencyMs: number, bytes: number): void {
    this.latencies[this.recorded % LATENCIES] = latencyMs;
    this.recorded += 1;
    this.firstAtMs ??= atMs;
    const second = Math.floor(atMs / 1000);
    let last = this.buckets[this.buckets.length - 1];
    if (last?.second !== second) {
      last = { second, answers: 0, bytes: 0 };
      this.buckets.push(last);
      while (this.buckets.length > RATE_SECONDS + 1) this.buckets.shift();
    }
    last.answers += 1;
    last.bytes += bytes;
  }

  stats(nowMs: number): LinkStats {
    const count = Math.min(this.recorded, LATENCIES);
    const sorted = Array.from(this.latencies.subarray(0, count)).sort((a, b) => a - b);
    const since = nowMs - RATE_SECONDS * 1000;
    let answers = 0;
    let bytes = 0;
    for (const bucket of this.buckets) {
      if ((bucket.second + 1) * 1000 <= since) continue;
      answers += bucket.answers;
      bytes += bucket.bytes;
    }
    // A link measured for less than the window is rated over the time it was measured.
    const spanMs = Math.max(1, Math.min(RATE_SECONDS * 1000, nowMs - (this.firstAtMs ?? nowMs)));
    return {
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      requestsPerSecond: (answers * 1000) / spanMs,
      bytesPerSecond: (bytes * 1000) / spanMs,
    };
  }
}

/** The `q` quantile of ascending `sorted` (nearest rank), null when empty. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
