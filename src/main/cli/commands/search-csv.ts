/**
 * `cairn wal search --format csv`: the header names every column of the hits, so the hits wait
 * for it. They are held while the one read of the prefix runs, up to `CSV_HELD_BYTES` of their
 * cells; then the header and they are printed. Past that bound the read goes on for the columns
 * alone and a second read prints the hits (its holes unsaid: the first read told them), as every
 * CSV search did before. Prints nothing itself but through the printer it is given.
 */
import type { GtColumnView } from '../../../shared/greptime/entry-table';
import {
  hitCsvHeader,
  hitCsvLine,
  HitColumns,
  type SearchHit,
} from '../../../shared/search/search-hits';

/** Bytes of hit cells held for the header at most: a search's hits mostly fit. */
export const CSV_HELD_BYTES = 32 * 1024 * 1024;

/** About what a hit holds: its cells' texts or its payload, and the row's own fields. */
function heldBytesOf(hit: SearchHit): number {
  if (hit.kind === 'entry') return 64 + hit.entry.data.length;
  let bytes = 64;
  for (const cell of hit.row.cells) bytes += cell.length;
  return bytes;
}

export class CsvHits {
  private readonly union = new HitColumns();
  private held: SearchHit[] | null = [];
  private bytes = 0;

  constructor(private readonly heldBytes = CSV_HELD_BYTES) {}

  add(hits: readonly SearchHit[]): void {
    for (const hit of hits) {
      this.union.add(hit);
      if (this.held === null) continue;
      this.bytes += heldBytesOf(hit);
      if (this.bytes > this.heldBytes) this.held = null;
      else this.held.push(hit);
    }
  }

  columns(): GtColumnView[] {
    return this.union.columns();
  }

  /** The hits held, in order; null when they outgrew the bound (a second read prints them). */
  heldHits(): readonly SearchHit[] | null {
    return this.held;
  }
}

/** The header, then every hit: the held ones, else those of `again` (a second read). */
export async function printCsvHits(
  line: (text: string) => void,
  kind: SearchHit['kind'],
  hits: CsvHits,
  again: () => AsyncIterable<{ readonly hits: readonly SearchHit[] }>,
): Promise<void> {
  const columns = hits.columns();
  line(hitCsvHeader(kind, columns));
  const held = hits.heldHits();
  if (held !== null) {
    for (const hit of held) line(hitCsvLine(hit, columns));
    return;
  }
  for await (const step of again()) for (const hit of step.hits) line(hitCsvLine(hit, columns));
}
