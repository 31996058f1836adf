/**
 * Bounded concurrency for the engine's fan-out reads (recovery, verification, listings): run an async step over items with at
 * most `limit` in flight, results in item order. After the first failure no new step starts;
 * the steps in flight are awaited (nothing is left floating) and that first failure is thrown.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  step: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const at = next++;
      try {
        results[at] = await step(items[at] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}

/**
 * `mapBounded` over items that arrive in pages (a listing still in progress): steps start as
 * pages arrive, so the whole costs about the longer of the paging and the steps, not their
 * sum. Results are in arrival order. A paging failure stops new steps, waits for those in
 * flight and is thrown; so is the first failure of a step.
 */
export async function mapBoundedWhilePaging<T, R>(
  pages: AsyncIterable<readonly T[]>,
  limit: number,
  step: (item: T) => Promise<R>,
): Promise<{ items: T[]; results: R[] }> {
  const items: T[] = [];
  const results: R[] = [];
  let next = 0;
  let pagingDone = false;
  let failure: { error: unknown } | null = null;
  const idle = new IdleWorkers();
  const worker = async (): Promise<void> => {
    while (failure === null) {
      if (next < items.length) {
        const at = next++;
        try {
          results[at] = await step(items[at] as T);
        } catch (error) {
          failure ??= { error };
        }
      } else if (pagingDone) {
        return;
      } else {
        await idle.wait();
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, limit) }, worker);
  try {
    for await (const page of pages) {
      if (failure !== null) break;
      items.push(...page);
      idle.wakeAll();
    }
  } catch (error) {
    failure ??= { error };
  } finally {
    pagingDone = true;
    idle.wakeAll();
  }
  await Promise.all(workers);
  if (failure !== null) throw failure.error;
  return { items, results };
}

/** Workers waiting for more work, woken together when some arrives or the work ends. */
class IdleWorkers {
  private waiting: (() => void)[] = [];

  wait(): Promise<void> {
    return new Promise<void>((wake) => this.waiting.push(wake));
  }

  wakeAll(): void {
    const woken = this.waiting;
    this.waiting = [];
    for (const wake of woken) wake();
  }
}

/**
 * Runs `visit` over a tree from `root`, `limit` visits at a time, deepest first (a stack, the
 * children of a node taken in the order `visit` gives them), at most `maxVisits` in all.
 * Returns how many nodes that bound left unvisited. The first failure stops new visits, waits
 * for those in flight and is thrown.
 */
export async function walkTreeBounded<T>(
  root: T,
  limit: number,
  maxVisits: number,
  visit: (node: T) => Promise<T[]>,
): Promise<number> {
  const stack: T[] = [root];
  let visited = 0;
  let active = 0;
  let failure: { error: unknown } | null = null;
  const idle = new IdleWorkers();
  const worker = async (): Promise<void> => {
    while (failure === null) {
      const node = visited < maxVisits ? stack.pop() : undefined;
      if (node === undefined) {
        if (active === 0) return idle.wakeAll();
        await idle.wait();
        continue;
      }
      visited += 1;
      active += 1;
      try {
        stack.push(...(await visit(node)).reverse());
      } catch (error) {
        failure ??= { error };
      } finally {
        active -= 1;
        idle.wakeAll();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return stack.length;
}
