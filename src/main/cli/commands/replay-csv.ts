/**
 * `cairn wal replay --rows --format csv` from one read: the header names every column of the
 * region, so nothing reaches stdout before the read ends, but the lines need not wait to be
 * made. While the read runs they are written under the columns met so far into a spool (the
 * walk that writes an entry's lines notes its columns), and the entries are held; at the end
 * the header and the spool are printed. A column met after the first line (the header would
 * have more) drops the spool and the held entries are printed under the whole header; past the
 * bound (`CSV_HELD_BYTES` of lines, of entries) what outgrew it is let go, and without either a
 * second read prints the lines, its holes unsaid (the first read told them). The same bytes
 * every way. On a remote store the lines are made while the next segments are fetched, not
 * after the last one.
 */
import type { WalEntry } from '../../engine/wal/entry';
import type { OutputSink } from '../output';
import { CSV_HELD_BYTES, HELD_ITEM_BYTES, HeldForHeader, heldOrAgain } from './held-for-header';
import type { ReplayReads } from './replay-print';
import type { DecodedReplayPrinter } from './replay-rows';

/** Reads the region once, spooling its lines; true when the spool holds them all. */
async function readSpooling(
  printer: DecodedReplayPrinter,
  region: bigint,
  entries: AsyncIterable<WalEntry>,
  held: HeldForHeader<WalEntry>,
  spool: HeldForHeader<Uint8Array>,
): Promise<boolean> {
  let spooling = true;
  const stop = (): void => {
    spooling = false;
    printer.forget();
  };
  printer.useColumns();
  for await (const entry of entries) {
    held.add(entry, HELD_ITEM_BYTES + entry.data.length);
    // Once the spool is let go, only the columns: the walk that writes no line.
    if (!spooling) printer.noteColumns(entry);
    else if (printer.spoolEntry(region, entry)) stop();
    else {
      await printer.flushIfFull();
      if (spool.items() === null) stop();
    }
  }
  if (spooling) await printer.flush();
  if (spooling && spool.items() === null) stop();
  return spooling;
}

export async function printCsvReplay(
  printer: DecodedReplayPrinter,
  region: bigint,
  reads: ReplayReads,
  heldBytes = CSV_HELD_BYTES,
): Promise<void> {
  const held = new HeldForHeader<WalEntry>(heldBytes);
  const spool = new HeldForHeader<Uint8Array>(heldBytes);
  const stdout: OutputSink = printer.redirect((lines) => {
    // Counted as the buffer it holds on to: a 64 KiB write is a view of a larger one.
    spool.add(lines, lines.buffer.byteLength);
    return undefined;
  });
  const spooled = await readSpooling(printer, region, reads.first(), held, spool);
  printer.redirect(stdout);
  printer.header();
  if (spooled) {
    await printer.flush();
    for (const lines of spool.items() ?? []) await stdout(lines);
  } else
    for await (const entry of heldOrAgain(held, () => reads.again()))
      await printer.entry(region, entry);
  await printer.end();
}
