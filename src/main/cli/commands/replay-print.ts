/**
 * How `cairn wal replay` drives its printer over the region's read: NDJSON prints each entry as
 * it comes; CSV, whose header names every column, as replay-csv.ts says (one read, its lines
 * spooled, a second read only past the bound). Reads nothing itself but through `reads`.
 */
import type { WalEntry } from '../../engine/wal/entry';
import { CSV_HELD_BYTES } from './held-for-header';
import { printCsvReplay } from './replay-csv';
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
  if (printer.csv) return printCsvReplay(printer, region, reads, heldBytes);
  for await (const entry of reads.first()) await printer.entry(region, entry);
  await printer.end();
}
