/**
 * Long work in slices: the engine's thread answers every client of the process (the console's
 * calls, browser-mode sockets, a writer's acknowledgements), so work that grows with a prefix
 * - indexing 100,000 objects, an object of 300,000 regions, building their rows - gives the
 * event loop a turn between slices instead of holding it for seconds. Only the order in which
 * other callbacks run changes: every slice still runs, in order.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Steps (objects, segments, rows) one slice runs before the loop gets a turn. */
export const SLICE_STEPS = 5_000;

/**
 * Counts steps; once a slice is full the caller gives the event loop a turn:
 * `if (slicer.due(n)) await slicer.turn();` after work of `n` steps (no await, and so no
 * microtask, for the steps in between).
 */
export class Slicer {
  private taken = 0;

  constructor(private readonly slice = SLICE_STEPS) {}

  /** True once `slice` steps were taken since the last turn. */
  due(steps = 1): boolean {
    this.taken += steps;
    return this.taken >= this.slice;
  }

  /** Resolves after the event loop has had a turn; starts a new slice. */
  turn(): Promise<void> {
    this.taken = 0;
    return nextTurn();
  }
}

/** `step` over every item, in order, giving the loop a turn between slices. */
export async function mapInSlices<T, R>(
  items: readonly T[],
  step: (item: T) => R,
  slicer = new Slicer(),
): Promise<R[]> {
  const results = new Array<R>(items.length);
  for (let at = 0; at < items.length; at++) {
    results[at] = step(items[at] as T);
    if (slicer.due()) await slicer.turn();
  }
  return results;
}

/**
 * Long work written once as a generator that yields how many steps it took since its last
 * yield (every few thousand), then run either at once (`runToEnd`) or with the event loop given
 * turns between slices (`runInSlices`): a decoder keeps one loop for a small footer and for
 * one of 300,000 entries.
 */
export type SlicedWork<R> = Generator<number, R, void>;

export function runToEnd<R>(work: SlicedWork<R>): R {
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
  }
}

export async function runInSlices<R>(work: SlicedWork<R>, slicer: Slicer): Promise<R> {
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
    if (slicer.due(step.value)) await slicer.turn();
  }
}
