/**
 * The order a fan-out takes the items waiting for a step: as they arrived, or the highest
 * priority first (a progressive open reads the newest objects first, whatever order the
 * listing's pages arrive in). Holds indexes into the fan-out's item list; does no I/O.
 */
export interface WaitingOrder {
  add(at: number): void;
  /** The next index to step, or undefined when none waits. */
  take(): number | undefined;
}

export function waitingOrder<T>(
  items: readonly T[],
  priority: ((item: T) => number) | undefined,
): WaitingOrder {
  return priority === undefined ? new ArrivalOrder() : new HighestFirst(items, priority);
}

class ArrivalOrder implements WaitingOrder {
  private next = 0;
  private count = 0;

  add(at: number): void {
    this.count = at + 1;
  }

  take(): number | undefined {
    return this.next < this.count ? this.next++ : undefined;
  }
}

/** A binary heap of indexes by their item's priority. */
class HighestFirst<T> implements WaitingOrder {
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
