/**
 * Bounded concurrency for the engine's fan-out work: items mapped with a bound on steps in
 * flight (a list, pages still arriving, a tree), the first failure stopping new steps. Never
 * reads storage itself: the steps do.
 */
import { Slicer } from './slices';

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
 * sum. Results are in arrival order. With `priority`, the waiting item of the highest priority
 * is taken first (a progressive open reads the newest objects first), else the first to
 * arrive. A paging failure stops new steps, waits for those in flight and is thrown; so is the
 * first failure of a step.
 */
export async function mapBoundedWhilePaging<T, R>(
  pages: AsyncIterable<readonly T[]>,
  limit: number,
  step: (item: T) => R | Promise<R>,
  priority?: (item: T) => number,
): Promise<{ items: T[]; results: R[] }> {
  const items: T[] = [];
  const results: R[] = [];
  const waiting = priority === undefined ? new ArrivalOrder() : new HighestFirst(items, priority);
  let pagingDone = false;
  let failure: { error: unknown } | null = null;
  const idle = new IdleWorkers();
  // A step may answer at once (an outcome remembered): no await then, but a turn for the
  // event loop every slice, so 100,000 of them do not hold it.
  const slicer = new Slicer();
  const worker = async (): Promise<void> => {
    while (failure === null) {
      const at = waiting.take();
      if (at !== undefined) {
        try {
          const result = step(items[at] as T);
          if (result instanceof Promise) results[at] = await result;
          else {
            results[at] = result;
            if (slicer.due()) await slicer.turn();
          }
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
      for (const item of page) waiting.add(items.push(item) - 1);
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

/** Indexes of items waiting for a step, taken in arrival order. */
class ArrivalOrder {
  private next = 0;
  private count = 0;

  add(at: number): void {
    this.count = at + 1;
  }

  take(): number | undefined {
    return this.next < this.count ? this.next++ : undefined;
  }
}

/** Indexes of items waiting for a step, the highest priority taken first (a binary heap). */
class HighestFirst<T> {
  private readonly heap: number[] = [];

  constructor(
    private readonly items: readonly T[],
    private readonly priority: (item: T) => number,
  ) {}

  add(at: number): void {
    const heap = this.heap;
    heap.push(at);
    for (let child = heap.length - 1; child > 0;) {
      const parent = (child - 1) >> 1;
      if (!this.above(heap[child]!, heap[parent]!)) break;
      [heap[child], heap[parent]] = [heap[parent]!, heap[child]!];
      child = parent;
    }
  }

  take(): number | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    for (let parent = 0; ;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let best = parent;
      if (left < heap.length && this.above(heap[left]!, heap[best]!)) best = left;
      if (right < heap.length && this.above(heap[right]!, heap[best]!)) best = right;
      if (best === parent) break;
      [heap[best], heap[parent]] = [heap[parent]!, heap[best]!];
      parent = best;
    }
    return top;
  }

  private above(a: number, b: number): boolean {
    return this.priority(this.items[a] as T) > this.priority(this.items[b] as T);
  }
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
