/**
 * Growable typed-array columns for the catalog: push at the end, drop from the front (GC),
 * rewrite in place; and the binary search the catalog's lookups share. Numbers only; knows
 * nothing of the WAL.
 *
 * A column holds its first values in a plain array and moves to a typed array once it grows
 * past `SMALL`: a region's columns hold one value per object it is in, and an object of
 * 300,000 regions made 2.1 million typed arrays (each its own backing store, which the
 * collector tracks one by one): indexing it took 6.8 s, mostly in the collector.
 */
interface TypedStore<T> {
  readonly length: number;
  [index: number]: T;
  set(values: ArrayLike<T>, offset?: number): void;
  copyWithin(target: number, start: number, end?: number): unknown;
}

/** Values a column keeps in a plain array before it takes a typed one. */
const SMALL = 16;

/** A growable typed array: push at the end, drop from the front (GC). */
export class Column<T extends number | bigint> {
  private store: TypedStore<T> | T[] = [];
  private count = 0;

  constructor(private readonly allocate: (capacity: number) => TypedStore<T>) {}

  get length(): number {
    return this.count;
  }

  at(i: number): T {
    return this.store[i] as T;
  }

  push(value: T): void {
    const store = this.store;
    if (Array.isArray(store)) {
      if (this.count < SMALL) {
        store.push(value);
        this.count += 1;
        return;
      }
      const typed = this.allocate(SMALL * 2);
      typed.set(store);
      this.store = typed;
    } else if (this.count === store.length) {
      const grown = this.allocate(store.length * 2);
      grown.set(store);
      this.store = grown;
    }
    (this.store as TypedStore<T>)[this.count++] = value;
  }

  /** Rewrites every value in place (GC rebases offsets into a column it shortened). */
  update(change: (value: T) => T): void {
    for (let i = 0; i < this.count; i++) this.store[i] = change(this.store[i] as T);
  }

  dropFront(n: number): void {
    if (Array.isArray(this.store)) this.store.splice(0, n);
    else this.store.copyWithin(0, n, this.count);
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
