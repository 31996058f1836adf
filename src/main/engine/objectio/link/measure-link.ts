/**
 * Test connection's measure of a link: a burst of small requests, as many at once as the link
 * allows, each timed from its call to its answer: their latency (p50, p99) and the rate the
 * burst reached. The requests go through the link's own slots, so its controller learns from
 * them too. Reads only what `request` reads.
 */
import { fanOut } from './link-fanout';
import type { IoSlots } from './io-slots';
import { quantile } from './link-stats';

/** Requests a test makes: enough for a p99 that is more than the slowest of a handful. */
export const LINK_TEST_REQUESTS = 64;

export interface LinkMeasure {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers per second over the burst. */
  readonly requestsPerSecond: number;
}

export async function measureLink(
  slots: Pick<IoSlots, 'width'>,
  request: () => Promise<unknown>,
  requests = LINK_TEST_REQUESTS,
  now: () => number = () => performance.now(),
): Promise<LinkMeasure> {
  const started = now();
  const latencies = await fanOut(
    Array.from({ length: requests }, (_, at) => at),
    slots,
    async () => {
      const sent = now();
      await request();
      return now() - sent;
    },
  );
  const sorted = latencies.sort((a, b) => a - b);
  const seconds = Math.max(1e-6, (now() - started) / 1000);
  return {
    requests,
    p50Ms: quantile(sorted, 0.5) ?? 0,
    p99Ms: quantile(sorted, 0.99) ?? 0,
    requestsPerSecond: requests / seconds,
  };
}
