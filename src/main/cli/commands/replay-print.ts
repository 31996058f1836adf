/**
 * How `cairn wal replay` drives its printer over the region's read. NDJSON prints each entry as
 * it comes. CSV's header names every column, so the one read notes the columns and holds the
 * entries (`HeldForHeader`, the bound CSV search holds its hits within), then prints the header
 * and the held entries; past the bound, a second read prints them, its holes unsaid (the first
 * told them). Either way the same bytes. Reads nothing itself but through `reads`.
 */
import type { WalEntry } from '../../engine/wal/entry';
import { CSV_HELD_BYTES, HELD_ITEM_BYTES, HeldForHeader, heldOrAgain } from './held-for-header';
import type { DecodedReplayPrinter } from './replay-rows';

/** The region's read: the first tells its holes, `again` (CSV past the bound) does not. */
export interface ReplayReads {
  first(): AsyncIterable<WalEntry>;
  again(): AsyncIterable<WalEntry>;
}

export async function printReplay(
  printer: DecodedReplayPrinter,
  region: bigint,
  reads: ReplayReads,
  heldBytes = CSV_HELD_BYTES,
): Promise<void> {
  let entries = reads.first();
  if (printer.csv) {
    const held = new HeldForHeader<WalEntry>(heldBytes);
    for await (const entry of entries) {
      printer.noteColumns(entry);
      held.add(entry, HELD_ITEM_BYTES + entry.data.length);
    }
    printer.header();
    entries = heldOrAgain(held, () => reads.again());
  }
  for await (const entry of entries) await printer.entry(region, entry);
  await printer.end();
}
