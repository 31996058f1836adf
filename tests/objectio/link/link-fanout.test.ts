/**
 * Fan-outs sized by a link: never more steps running than its width, following the width as
 * it moves; results in order; the first failure (a step's or the paging's) stops new steps,
 * waits for those running and is thrown; a tree walk deepest first within its bound.
 */
import { describe, expect, it } from 'vitest';
import { fanOut, fanOutWhilePaging, walkTree } from '../../../src/main/engine/objectio/link';

/** A width the test moves, and the most steps it saw running at once for each width. */
function movingWidth(initial: number) {
  let running = 0;
  const seen = new Map<number, number>();
  const gate = { width: initial };
  const step = async <T>(item: T): Promise<T> => {
    running += 1;
    seen.set(gate.width, Math.max(seen.get(gate.width) ?? 0, running));
    await new Promise((resolve) => setImmediate(resolve));
    running -= 1;
    return item;
  };
  return { gate, seen, step };
}

async function* pagesOf<T>(pages: T[][], failAfter?: number): AsyncIterable<T[]> {
  for (const [at, page] of pages.entries()) {
    if (at === failAfter) throw new Error('listing failed');
    await new Promise((resolve) => setImmediate(resolve));
    yield page;
  }
}

describe('fan-outs sized by a link', () => {
  it('runs at most the width at once, follows it as it moves, results in order', async () => {
    const { gate, seen, step } = movingWidth(3);
    const items = Array.from({ length: 40 }, (_, i) => i);
    const results = await fanOut(items, gate, async (item) => {
      if (item === 10) gate.width = 7;
      return step(item);
    });
    expect(results).toEqual(items);
    expect(seen.get(3)).toBe(3);
    expect(seen.get(7)).toBe(7);
  });

  it('stops starting steps after the first failure and throws it once the others ended', async () => {
    const started: number[] = [];
    let running = 0;
    const failure = fanOut(
      Array.from({ length: 50 }, (_, i) => i),
      { width: 4 },
      async (item) => {
        started.push(item);
        running += 1;
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        if (item === 5) throw new Error('step 5 failed');
        return item;
      },
    );
    await expect(failure).rejects.toThrow('step 5 failed');
    expect(running).toBe(0);
    expect(Math.max(...started)).toBeLessThan(10);
  });

  it('starts steps as pages arrive; a paging failure is thrown after the steps ended', async () => {
    const { items, results } = await fanOutWhilePaging(
      pagesOf([[1, 2], [3], [4, 5, 6]]),
      { width: 2 },
      async (item) => item * 10,
    );
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([10, 20, 30, 40, 50, 60]);
    let running = 0;
    const failing = fanOutWhilePaging(pagesOf([[1, 2], [3], [4]], 2), { width: 2 }, async () => {
      running += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    });
    await expect(failing).rejects.toThrow('listing failed');
    expect(running).toBe(0);
  });

  it('walks a tree deepest first within its bound of visits', async () => {
    const children: Record<string, string[]> = { r: ['a', 'b'], a: ['a1', 'a2'], b: ['b1'] };
    const visited: string[] = [];
    const left = await walkTree('r', { width: 1 }, 4, async (node) => {
      visited.push(node);
      return children[node] ?? [];
    });
    expect(visited).toEqual(['r', 'a', 'a1', 'a2']);
    expect(left).toBe(1);
  });
});
