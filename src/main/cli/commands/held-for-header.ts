/**
 * What a CSV command holds while its one read runs: the header names every column met, so
 * nothing can be printed before the read ends. The items (search's hits, replay's entries)
 * are kept in order up to a bound of bytes; past it none are, and a second read gives them
 * again (`heldOrAgain`), as every CSV search and replay did before. Holds; prints nothing.
 */

/** Bytes held for the header at most: a search's hits and most regions' entries fit. */
export const CSV_HELD_BYTES = 32 * 1024 * 1024;

/** About what an item holds in memory besides its bytes: its object, its fields. */
export const HELD_ITEM_BYTES = 64;

export class HeldForHeader<T> {
  private held: T[] | null = [];
  private bytes = 0;

  constructor(private readonly heldBytes = CSV_HELD_BYTES) {}

  /** Keeps `item` (of about `bytes`) while the bound allows; past it, lets all of them go. */
  add(item: T, bytes: number): void {
    if (this.held === null) return;
    this.bytes += bytes;
    if (this.bytes > this.heldBytes) this.held = null;
    else this.held.push(item);
  }

  /** The items held, in order; null when they outgrew the bound (a second read gives them). */
  items(): readonly T[] | null {
    return this.held;
  }
}

/** Every item of the read: the held ones, else those of `again`, a second read. */
export async function* heldOrAgain<T>(
  held: HeldForHeader<T>,
  again: () => AsyncIterable<T>,
): AsyncIterable<T> {
  const items = held.items();
  if (items !== null) yield* items;
  else yield* again();
}
