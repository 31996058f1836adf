import { describe, expect, it } from 'vitest';
import { ReadAhead, type ReadAheadLimits } from '../../src/main/engine/wal/read-ahead';

/** Limits that a test may move: `width` fetches running, `held` at most, `bytes` held at most. */
function limitsOf(
  width: { value: number },
  held: number,
  heldBytes = Infinity,
  bytesOf: (location: number) => number = () => 1,
): ReadAheadLimits<number> {
  return { inFlight: () => width.value, held: () => held, heldBytes, bytesOf };
}

/** Fetches the test finishes by hand, in any order, with a count of those running. */
function manualFetches(): {
  fetch: (location: number) => Promise<number>;
  finish: (location: number) => void;
  started: number[];
  running: () => number;
} {
  const pending = new Map<number, () => void>();
  const started: number[] = [];
  return {
    fetch: (location) =>
      new Promise<number>((resolve) => {
        started.push(location);
        pending.set(location, () => {
          pending.delete(location);
          resolve(location * 10);
        });
      }),
    finish: (location) => pending.get(location)?.(),
    started,
    running: () => pending.size,
  };
}

function locationsUpTo(last: number): () => number | undefined {
  let next = 0;
  return () => (next <= last ? next++ : undefined);
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('read-ahead', () => {
  it('keeps the in-flight limit busy past a slow head, holds at most `held`, hands out in order', async () => {
    const fetches = manualFetches();
    const ahead = new ReadAhead(limitsOf({ value: 2 }, 3), locationsUpTo(5), fetches.fetch);
    const first = ahead.take()!;
    expect(fetches.started).toEqual([0, 1]);

    // The second fetch finishes before the head: its slot starts the next location at once.
    fetches.finish(1);
    await settle();
    expect(fetches.started).toEqual([0, 1, 2]);
    expect(fetches.running()).toBe(2);

    // 1 and 2 done, 3 running behind the slow head: three held, so nothing more starts.
    fetches.finish(2);
    await settle();
    expect(fetches.started).toEqual([0, 1, 2, 3]);
    fetches.finish(3);
    await settle();
    expect(fetches.started).toEqual([0, 1, 2, 3]);
    expect(fetches.running()).toBe(1);

    fetches.finish(0);
    expect(await first).toBe(0);
    const rest: number[] = [];
    for (let next = ahead.take(); next !== undefined; next = ahead.take()) {
      expect(fetches.running()).toBeLessThanOrEqual(2);
      for (const location of [...fetches.started]) fetches.finish(location);
      rest.push(await next);
    }
    expect(rest).toEqual([10, 20, 30, 40, 50]);
    expect(fetches.started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('follows the width as it grows, and holds no more bytes than allowed but always one fetch', async () => {
    const fetches = manualFetches();
    const width = { value: 1 };
    // Location 3 alone is larger than the budget: it starts only once nothing else is held.
    const bytesOf = (location: number): number => (location === 3 ? 100 : 10);
    const ahead = new ReadAhead(limitsOf(width, 8, 30, bytesOf), locationsUpTo(5), fetches.fetch);
    const first = ahead.take()!;
    expect(fetches.started).toEqual([0]);
    width.value = 4;
    fetches.finish(0);
    expect(await first).toBe(0);
    const second = ahead.take()!;
    expect(fetches.started).toEqual([0, 1, 2]);
    for (const location of [1, 2]) fetches.finish(location);
    expect(await second).toBe(10);
    expect(fetches.started).toEqual([0, 1, 2]);
    expect(await ahead.take()!).toBe(20);
    expect(fetches.started).toEqual([0, 1, 2, 3]);
  });

  it('starts nothing once closed', async () => {
    const fetches = manualFetches();
    const ahead = new ReadAhead(limitsOf({ value: 1 }, 2), locationsUpTo(9), fetches.fetch);
    void ahead.take();
    ahead.close();
    fetches.finish(0);
    await settle();
    expect(fetches.started).toEqual([0]);
  });
});
