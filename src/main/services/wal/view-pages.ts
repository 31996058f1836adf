/**
 * How the WAL views cut what a big prefix holds into what one reply carries: a page of region
 * rows, the newest rows of an inspection's lists, and rows built once per snapshot rather than
 * on every page asked for (a 300,000-region table is built once, then sliced). Pure; never
 * reads storage.
 */
import { INSPECT_LIST_ROWS, type OpenProgress } from '../../../shared/contract/wal-pages';
import type { RegionRow, RegionsView } from '../../../shared/contract/wal';

/** Every region row of a prefix, before paging. */
export interface RegionRows {
  readonly source: RegionsView['source'];
  readonly readOnlyReason: string | null;
  /** By region id. */
  readonly rows: readonly RegionRow[];
}

export function regionsPage(
  all: RegionRows,
  offset: number,
  limit: number,
  progress: OpenProgress,
): RegionsView {
  return {
    source: all.source,
    readOnlyReason: all.readOnlyReason,
    regions: all.rows.slice(offset, offset + limit),
    total: all.rows.length,
    offset,
    progress,
  };
}

/** The last `INSPECT_LIST_ROWS` of a list ascending by sequence: its newest objects. */
export function newestRows<T>(ascending: readonly T[]): T[] {
  return ascending.slice(-INSPECT_LIST_ROWS);
}

/** The first `INSPECT_LIST_ROWS` of a list. */
export function firstRows<T>(list: readonly T[]): T[] {
  return list.slice(0, INSPECT_LIST_ROWS);
}

/**
 * `build` memoized per key object (a snapshot's data): views ask for page after page of the
 * same snapshot, and building its rows is the costly part. Entries go with their key.
 */
export function perSnapshot<S, V>(build: (source: S) => V): { of(key: object, source: S): V } {
  const built = new WeakMap<object, V>();
  return {
    of(key, source) {
      const known = built.get(key);
      if (known !== undefined) return known;
      const value = build(source);
      built.set(key, value);
      return value;
    },
  };
}
