/**
 * What a scan tells while it runs, for a progressive open: objects as the listing finds them,
 * the end of the listing, and each object's outcome as it is read or recalled (from a read
 * model's memory or the local index). The scan calls these synchronously and never waits on
 * them; the watcher only records (and must never throw).
 */
import type { IoSlots } from '../../objectio/link';
import type { ListedObject } from './listing';
import type { ScanMemo } from './scan-memo';

export interface ScanWatch<T> {
  listed(objects: readonly ListedObject[]): void;
  listingDone(): void;
  /** `recalled`: the outcome was remembered (no read of the object). */
  read(object: ListedObject, outcome: T, recalled: boolean): void;
}

/** `pages`, telling `watch` of each page and of the listing's end (not of a failed listing). */
export async function* watchedPages<T>(
  pages: AsyncIterable<readonly ListedObject[]>,
  watch: ScanWatch<T> | undefined,
): AsyncIterable<readonly ListedObject[]> {
  for await (const page of pages) {
    watch?.listed(page);
    yield page;
  }
  watch?.listingDone();
}

/** Newest first: the order a progressive open reads objects in. */
export function newestFirst(object: ListedObject): number {
  return Number(object.seq);
}

/** How a scan runs: the link it reads on, what it may recall, who watches it. */
export interface ScanOptions<T> {
  /** The link whose slots its reads take (a new one for the store when absent). */
  readonly slots?: IoSlots;
  /** A read model's memory: only what it has not seen is listed and read. */
  readonly memo?: ScanMemo<T>;
  readonly watch?: ScanWatch<T>;
}

/**
 * The step a scan runs for each listed object: recalled when the memo has it, else `fetch`ed
 * (and remembered); `watch` told either way.
 */
export function scanStep<T>(
  options: ScanOptions<T>,
  fetch: (object: ListedObject) => Promise<T>,
): (object: ListedObject) => Promise<T> {
  const { memo, watch } = options;
  return async (object) => {
    const recalled = memo?.recall(object);
    const outcome =
      recalled ??
      (memo === undefined ? await fetch(object) : await memo.read(object, () => fetch(object)));
    watch?.read(object, outcome, recalled !== undefined);
    return outcome;
  };
}
