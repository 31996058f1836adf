/**
 * What one `WalEntry` may make, so a small payload cannot make a large result: the cells its
 * tables hold (rows x the width of each mutation, every short row padded with nulls) are
 * capped per entry, and a decimal column's scale is what GreptimeDB's decimal128 allows.
 * Past either the walk fails typed at the field that went past (`entry-too-wide`,
 * `decimal-scale`), so the entry is shown raw with the reason and never exhausts memory: a
 * 32 KB payload of ragged rows asked for 10^8 padded cells, a 40-byte one with scale 10^8
 * for a 100 MB cell. Pure.
 */
import type { EntryReader } from './entry-reader';

/**
 * The most cells one entry's tables hold: far past a real write request (GreptimeDB batches
 * rows per region by the thousand over tens of columns), small enough that the cell texts fit
 * a CLI's or a renderer's heap.
 */
export const MAX_ENTRY_CELLS = 4 * 1024 * 1024;

/**
 * decimal128's bounds (GreptimeDB, like Arrow): precision 1-38, so a scale of at most 38 digits
 * either way; a negative scale multiplies (123 at scale -2 is 12300), which GreptimeDB reads.
 */
export const MAX_DECIMAL_SCALE = 38;

/** Counts the cells an entry's tables will hold, failing the walk past the cap. */
export class EntryCellBudget {
  private cells = 0;

  /** A `Rows` message of `rows` rows, each `width` cells once padded. */
  spend(d: EntryReader, rows: number, width: number): void {
    this.cells += rows * width;
    if (this.cells > MAX_ENTRY_CELLS)
      d.fail(
        'entry-too-wide',
        `EntryTooWide: its tables would hold ${this.cells} cells (${rows} rows x ${width} columns here), past the cap of ${MAX_ENTRY_CELLS}`,
      );
  }
}

/** Fails the walk on a decimal scale decimal128 cannot have. */
export function checkDecimalScale(d: EntryReader, scale: number): void {
  if (scale < -MAX_DECIMAL_SCALE || scale > MAX_DECIMAL_SCALE)
    d.fail(
      'decimal-scale',
      `a decimal128 scale is -${MAX_DECIMAL_SCALE} to ${MAX_DECIMAL_SCALE}, this column says ${scale}`,
    );
}
