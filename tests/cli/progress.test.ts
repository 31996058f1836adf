/**
 * The CLI's progress line: what it says (units done of those known, request rate, in flight,
 * p50), redrawn in place on a terminal and erased at the end; nothing at all on a pipe.
 */
import { describe, expect, it } from 'vitest';
import type { IoLinkStats } from '../../src/main/engine/objectio/link';
import { progressLine, showProgress } from '../../src/main/cli/progress';

const STATS: IoLinkStats = {
  p50Ms: 52.4,
  p99Ms: 80,
  requestsPerSecond: 1234.4,
  bytesPerSecond: 0,
  limit: 64,
  inFlight: 48,
  waiting: 3,
  answered: 900,
  work: { done: 1_200, total: 2_000 },
  roundTripMs: 50.1,
};

function stream(isTTY: boolean): { isTTY: boolean; written: string[]; write(text: string): void } {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => void written.push(text) };
}

describe('CLI progress', () => {
  it('says units done of those known, the request rate, requests in flight and p50', () => {
    expect(progressLine('verify', STATS)).toBe(
      'cairn verify: 1,200/2,000 done · 1,234 requests/s · 48 in flight · p50 52 ms',
    );
    expect(progressLine('gc', { ...STATS, p50Ms: null, work: { done: 3, total: 0 } })).toBe(
      'cairn gc: 3/3 done · 1,234 requests/s · 48 in flight',
    );
  });

  it('draws on a terminal and erases its line at the end; writes nothing to a pipe', async () => {
    const terminal = stream(true);
    const stop = showProgress('inspect', { stats: () => STATS }, terminal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    expect(terminal.written[0]).toBe(`\r${progressLine('inspect', STATS)}`);
    expect(terminal.written[terminal.written.length - 1]).toMatch(/^\r +\r$/);

    const pipe = stream(false);
    showProgress('inspect', { stats: () => STATS }, pipe)();
    expect(pipe.written).toEqual([]);
  });
});
