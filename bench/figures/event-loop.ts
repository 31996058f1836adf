/**
 * The event-loop delay of this process (the one hosting the engine, as Electron's main
 * process does) while some work runs: `perf_hooks.monitorEventLoopDelay`'s histogram, in ms.
 * It measures; the figure that runs the work judges it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const RESOLUTION_MS = 1;

export interface EventLoopDelay {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * Samples every 1 ms for as long as `work` runs. Node's samples are the whole interval between
 * two timer turns (an idle loop reads ~resolution), so a fine resolution keeps that offset
 * below 1 ms; it is reported as is, never subtracted.
 */
export async function withEventLoopDelay<T>(
  work: () => Promise<T>,
): Promise<{ result: T; delay: EventLoopDelay }> {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  try {
    const result = await work();
    histogram.disable();
    return {
      result,
      delay: {
        p50Ms: histogram.percentile(50) / 1e6,
        p99Ms: histogram.percentile(99) / 1e6,
        maxMs: histogram.max / 1e6,
      },
    };
  } finally {
    histogram.disable();
  }
}
