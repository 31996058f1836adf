/**
 * Fan-outs sized by a link (recovery's tail reads, the GreptimeDB scan, verify, discovery, the
 * fleet's prefix reads, the namespace shards): a step starts while fewer than the link's
 * `width` run, so the steps follow the controller as it learns the link. A step holds no slot:
 * its requests take their own (through `linkIo`), which keeps the rule of never acquiring a
 * slot while holding one, lets steps that make no request (a read model's memo) finish at
 * once, and lets fan-outs nested in another's steps share the link without deadlock.
 *
 * After the first failure no new step starts; the steps running are awaited (nothing is left
 * floating) and that first failure is thrown. Each fan-out tells the link its items as they
 * arrive and each step as it ends (`noteWork`), for the operator's progress.
 */
import type { IoSlots } from './io-slots';
import { waitingOrder } from './waiting-order';

/** `step` over `items`, at most the link's width at a time; results in item order. */
export async function fanOut<T, R>(
  items: readonly T[],
  slots: Pick<IoSlots, 'width' | 'noteWork'>,
  step: (item: T) => Promise<R>,
): Promise<R[]> {
  return (await fanOutWhilePaging(arrayPages(items), slots, step)).results;
}

/**
 * `fanOut` over items that arrive in pages (a listing still in progress): steps start as pages
 * arrive, so the whole costs about the longer of the paging and the steps, not their sum.
 * Results in arrival order. With `priority`, the waiting item of the highest priority is
 * stepped first (a progressive open reads the newest objects first), else the first to arrive.
 * A paging failure stops new steps, waits for those running and is thrown; so is the first
 * failure of a step.
 */
export async function fanOutWhilePaging<T, R>(
  pages: AsyncIterable<readonly T[]>,
  slots: Pick<IoSlots, 'width' | 'noteWork'>,
  step: (item: T) => Promise<R>,
  priority?: (item: T) => number,
): Promise<{ items: T[]; results: R[] }> {
  const items: T[] = [];
  const results: R[] = [];
  const waiting = waitingOrder(items, priority);
  const wake = new Wakeup();
  let pagingDone = false;
  let failure: { error: unknown } | null = null;
  const paging = (async () => {
    try {
      for await (const page of pages) {
        if (failure !== null) break;
        for (const item of page) waiting.add(items.push(item) - 1);
        slots.noteWork?.(page.length, 0);
        wake.all();
      }
    } catch (error) {
      failure ??= { error };
    } finally {
      pagingDone = true;
      wake.all();
    }
  })();
  let running = 0;
  let stepped = 0;
  while (failure === null) {
    const at = running < slots.width ? waiting.take() : undefined;
    if (at !== undefined) {
      stepped += 1;
      running += 1;
      void started(step, items[at] as T).then(
        (result) => {
          results[at] = result;
          running -= 1;
          slots.noteWork?.(0, 1);
          wake.all();
        },
        (error: unknown) => {
          failure ??= { error };
          running -= 1;
          wake.all();
        },
      );
    } else if (stepped >= items.length && pagingDone) break;
    else await wake.next();
  }
  await paging;
  while (running > 0) await wake.next();
  if (failure !== null) throw (failure as { error: unknown }).error;
  return { items, results };
}

/**
 * Runs `visit` over a tree from `root`, at most the link's width of visits at a time, deepest
 * first (a stack, the children of a node taken in the order `visit` gives them), at most
 * `maxVisits` in all. Returns how many nodes that bound left unvisited.
 */
export async function walkTree<T>(
  root: T,
  slots: Pick<IoSlots, 'width' | 'noteWork'>,
  maxVisits: number,
  visit: (node: T) => Promise<T[]>,
): Promise<number> {
  const stack: T[] = [root];
  slots.noteWork?.(1, 0);
  const wake = new Wakeup();
  let visited = 0;
  let running = 0;
  let failure: { error: unknown } | null = null;
  while (failure === null) {
    if (stack.length > 0 && visited < maxVisits && running < slots.width) {
      const node = stack.pop() as T;
      visited += 1;
      running += 1;
      void started(visit, node).then(
        (children) => {
          stack.push(...children.reverse());
          running -= 1;
          slots.noteWork?.(children.length, 1);
          wake.all();
        },
        (error: unknown) => {
          failure ??= { error };
          running -= 1;
          wake.all();
        },
      );
    } else if (running === 0) break;
    else await wake.next();
  }
  while (running > 0) await wake.next();
  if (failure !== null) throw (failure as { error: unknown }).error;
  return stack.length;
}

/** `step(item)`, a synchronous throw made a rejection like any other failure. */
async function started<T, R>(step: (item: T) => Promise<R>, item: T): Promise<R> {
  return step(item);
}

async function* arrayPages<T>(items: readonly T[]): AsyncIterable<readonly T[]> {
  yield items;
}

/** Loops waiting for a step to end or a page to arrive, woken together. */
class Wakeup {
  private waiting: (() => void)[] = [];

  next(): Promise<void> {
    return new Promise<void>((wake) => this.waiting.push(wake));
  }

  all(): void {
    const woken = this.waiting;
    this.waiting = [];
    for (const wake of woken) wake();
  }
}
