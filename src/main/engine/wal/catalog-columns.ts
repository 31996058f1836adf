/**
 * Growable typed-array columns for the catalog: push at the end, drop from the front (GC),
 * rewrite in place; and the binary search the catalog's lookups share. Numbers only; knows
 * nothing of the WAL.
 */
interface TypedStore<T> {
  readonly length: number;
  [index: number]: T;
  set(values: ArrayLike<T>, offset?: number): void;
  copyWithin(target: number, start: number, end?: number): unknown;
}

/** A growable typed array: push at the end, drop from the front (GC). */
export class Column<T extends number | bigint> {
  private store: TypedStore<T>;
  private count = 0;

  constructor(private readonly allocate: (capacity: number) => TypedStore<T>) {
    this.store = allocate(4);
  }

  get length(): number {
    return this.count;
  }

  at(i: number): T {
    return this.store[i] as T;
  }

  push(value: T): void {
    if (this.count === this.store.length) {
      const grown = this.allocate(this.store.length * 2);
      grown.set(this.store);
      this.store = grown;
    }
    this.store[this.count++] = value;
  }

  /** Rewrites every value in place (GC rebases offsets into a column it shortened). */
  update(change: (value: T) => T): void {
    for (let i = 0; i < this.count; i++) this.store[i] = change(this.store[i] as T);
  }

  dropFront(n: number): void {
    this.store.copyWithin(0, n, this.count);
    this.count -= n;
  }
}

export const doubles = (): Column<number> => new Column((n) => new Float64Array(n));
export const u32s = (): Column<number> => new Column((n) => new Uint32Array(n));
export const u64s = (): Column<bigint> => new Column((n) => new BigUint64Array(n));

/** First index in [0, length) whose value is not below `target` by `below`, else length. */
export function lowerBound(length: number, below: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
