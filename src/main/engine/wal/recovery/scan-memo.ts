/**
 * What a prefix's read model remembers between two scans of the same prefix: the objects the
 * last listing found and what was read of each (its index, or its damage), so the next scan
 * lists only the keys after the highest one known and reads only objects it has not seen.
 *
 * Why that is enough: objects are immutable, and both formats delete oldest first (Cairn's GC
 * below the register's boundary, GreptimeDB below its reclaim boundary). So a scan keeps the
 * known objects at or above its start, checks with a one-key listing that the lowest of them
 * is still the lowest object there (else something below or at it was collected), and lists
 * after the highest. A read that finds an object gone and every
 * `FULL_LISTING_EVERY`-th scan list the prefix whole again - reads stay remembered by key, size
 * and ETag - which also catches what no protocol does (an object deleted or replaced by hand).
 */
import type { ObjectIo } from '../../objectio/object-io';
import type { Seq } from '../ids';
import { objectsFolder, objectsStartAfter, seqOfObjectKey } from '../keys';
import { compareSeq, listObjectPages, type ListedObject } from './listing';
import { listObjectPagesInRanges, type RangeListingOptions } from './parallel-listing';

/** One scan in this many lists the prefix whole (at a 5 s refresh: about once a minute). */
export const FULL_LISTING_EVERY = 12;

/** Rough bytes one remembered listing entry costs (key string, numbers, map slot). */
const LISTED_ENTRY_BYTES = 200;

interface Remembered<T> {
  readonly size: number;
  readonly etag: string | undefined;
  readonly value: T;
}

/** What a memo may recall from beyond its own memory (the local index of a prefix). */
export interface ScanMemoOptions<T> {
  readonly listing?: RangeListingOptions;
  /** An outcome remembered elsewhere of `object` as listed now (same key, size and ETag). */
  readonly recall?: (object: ListedObject) => T | undefined;
}

/** One remembered outcome, with the size and ETag of the object it was read from. */
export interface RememberedRead<T> {
  readonly key: string;
  readonly size: number;
  readonly etag: string | undefined;
  readonly value: T;
}

export class ScanMemo<T> {
  /** The last complete listing from its start, ascending by sequence; null: list whole. */
  private known: ListedObject[] | null = null;
  private readonly reads = new Map<string, Remembered<T>>();
  private scans = 0;
  private fullListings = 0;
  private changeCount = 0;

  /**
   * @param keep whether a read's outcome may be remembered (an object found gone may not).
   * @param weigh rough bytes one remembered outcome holds, for the owner's memory budget.
   */
  constructor(
    private readonly keep: (value: T) => boolean,
    private readonly weigh: (value: T) => number,
    private readonly options: ScanMemoOptions<T> = {},
  ) {}

  /** Moves whenever a read is remembered or forgotten (not when one is recalled from beyond). */
  get changes(): number {
    return this.changeCount;
  }

  /** Scans so far that listed the prefix whole (the first one included). */
  get wholeListings(): number {
    return this.fullListings;
  }

  /** The objects the last complete scan listed, ascending by sequence. */
  listedNow(): readonly ListedObject[] {
    return this.known ?? [];
  }

  /** Rough bytes held, for a memory budget. */
  bytes(): number {
    let total = (this.known?.length ?? 0) * LISTED_ENTRY_BYTES;
    for (const { value } of this.reads.values()) total += LISTED_ENTRY_BYTES + this.weigh(value);
    return total;
  }

  /** The objects of `prefix` at sequence `from` or above, page after page, as `listObjectPages`. */
  async *pages(io: ObjectIo, prefix: string, from: Seq): AsyncIterable<ListedObject[]> {
    const due = this.scans % FULL_LISTING_EVERY === 0;
    this.scans += 1;
    const kept = due || this.known === null ? null : this.known.filter((o) => o.seq >= from);
    // Not complete until the last page is seen: a scan that stops early lists whole next time.
    this.known = null;
    const seen: ListedObject[] = [];
    let after = objectsStartAfter(prefix, from);
    const whole = kept === null || !(await lowestStillFirst(io, prefix, from, kept[0]));
    if (whole) {
      this.fullListings += 1;
    } else {
      seen.push(...kept);
      yield kept;
      const highest = kept[kept.length - 1];
      if (highest !== undefined) after = highest.key;
    }
    // A whole listing goes in key ranges at once; the keys after the highest known, plainly.
    const pages = whole
      ? listObjectPagesInRanges(io, prefix, from, this.options.listing)
      : listObjectPages(io, prefix, from, after);
    for await (const page of pages) {
      seen.push(...page);
      yield page;
    }
    this.known = seen.sort(compareSeq);
    this.dropReadsOtherThan(seen);
  }

  /**
   * True when a scan from `from` now would list exactly the objects of the last one, and no
   * whole listing is due: the caller may keep what it built from that scan. Two one-key
   * listings (the lowest object still first, nothing after the highest), made at once: a
   * console refreshing many prefixes waits for one listing's round trip, not two. Counts as a
   * scan.
   */
  async unchanged(io: ObjectIo, prefix: string, from: Seq): Promise<boolean> {
    const known = this.known;
    if (known === null || this.scans % FULL_LISTING_EVERY === 0) return false;
    if (known.some((o) => o.seq < from)) return false;
    const highest = known[known.length - 1];
    const [lowestFirst, after] = await Promise.all([
      lowestStillFirst(io, prefix, from, known[0]),
      io.listPage(objectsFolder(prefix), {
        startAfter: highest?.key ?? objectsStartAfter(prefix, from),
        pageSize: 1,
      }),
    ]);
    if (!lowestFirst || after.objects.length > 0) return false;
    this.scans += 1;
    return true;
  }

  /**
   * What was read of `object` while it had its size and ETag now: remembered here, or recalled
   * from beyond (then remembered here too); undefined when it must be read.
   */
  recall(object: ListedObject): T | undefined {
    const hit = this.reads.get(object.key);
    if (hit !== undefined && hit.size === object.size && hit.etag === object.etag) return hit.value;
    const recalled = this.options.recall?.(object);
    if (recalled !== undefined && this.keep(recalled))
      this.reads.set(object.key, { size: object.size, etag: object.etag, value: recalled });
    return recalled;
  }

  /** What `fetch` reads of `object`, remembered while the object keeps its size and ETag. */
  async read(object: ListedObject, fetch: () => Promise<T>): Promise<T> {
    const known = this.recall(object);
    if (known !== undefined) return known;
    const value = await fetch();
    this.remember(object, value);
    return value;
  }

  /**
   * Remembers `value` as what was read of `object` as listed: the outcome of a read made for
   * another reason (a verify reads each object whole, which holds all a scan reads).
   */
  remember(object: ListedObject, value: T): void {
    this.changeCount += 1;
    if (this.keep(value)) {
      this.reads.set(object.key, { size: object.size, etag: object.etag, value });
    } else {
      this.reads.delete(object.key);
      this.known = null;
    }
  }

  /** Outcomes remembered. */
  get rememberedCount(): number {
    return this.reads.size;
  }

  /** Every outcome remembered, for a local index to keep. */
  *remembered(): IterableIterator<RememberedRead<T>> {
    for (const [key, read] of this.reads) yield { key, ...read };
  }

  private dropReadsOtherThan(listed: readonly ListedObject[]): void {
    const keys = new Set(listed.map((o) => o.key));
    for (const key of this.reads.keys())
      if (!keys.has(key)) {
        this.reads.delete(key);
        this.changeCount += 1;
      }
  }
}

/**
 * True when the first object key at or after `from` is still `lowest` (no object known was
 * collected) - or, with nothing known, when there is still no object there.
 */
async function lowestStillFirst(
  io: ObjectIo,
  prefix: string,
  from: Seq,
  lowest: ListedObject | undefined,
): Promise<boolean> {
  const page = await io.listPage(objectsFolder(prefix), {
    startAfter: objectsStartAfter(prefix, from),
    pageSize: 1,
  });
  const first = page.objects[0];
  if (first === undefined) return lowest === undefined;
  return (
    lowest !== undefined && first.key === lowest.key && seqOfObjectKey(prefix, first.key) !== null
  );
}
