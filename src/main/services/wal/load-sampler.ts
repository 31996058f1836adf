/**
 * Turns the load generator's acknowledgements into periodic samples for the console's chart:
 * appends per second and ack latency (mean, max) over each interval. Holds only the current
 * interval's sums, so memory does not grow with the run.
 */
import type { LoadSample } from '../../../shared/contract/wal';

export class LoadSampler {
  private acknowledged = 0;
  private failed = 0;
  private windowAcks = 0;
  private windowLatencySum = 0;
  private windowLatencyMax = 0;
  private windowStartedAt = performance.now();

  recordAck(latencyMs: number): void {
    this.acknowledged += 1;
    this.windowAcks += 1;
    this.windowLatencySum += latencyMs;
    if (latencyMs > this.windowLatencyMax) this.windowLatencyMax = latencyMs;
  }

  recordFailures(count: number): void {
    this.failed = count;
  }

  get totals(): { acknowledged: number; failed: number } {
    return { acknowledged: this.acknowledged, failed: this.failed };
  }

  /** The interval since the last sample; starts the next one. */
  sample(now = performance.now()): LoadSample {
    const seconds = Math.max((now - this.windowStartedAt) / 1000, 1e-3);
    const sample: LoadSample = {
      atMs: Date.now(),
      appendsPerSecond: this.windowAcks / seconds,
      ackLatencyMs: {
        mean: this.windowAcks === 0 ? 0 : this.windowLatencySum / this.windowAcks,
        max: this.windowLatencyMax,
      },
      acknowledged: this.acknowledged,
      failed: this.failed,
    };
    this.windowAcks = 0;
    this.windowLatencySum = 0;
    this.windowLatencyMax = 0;
    this.windowStartedAt = now;
    return sample;
  }
}
