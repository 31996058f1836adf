/**
 * `cairn wal search --format csv`: the header names every column of the hits, so the hits wait
 * for it. They are held while the one read of the prefix runs (`HeldForHeader`, up to
 * `CSV_HELD_BYTES` of their cells); then the header and they are printed. Past that bound the
 * read goes on for the columns alone and a second read prints the hits (its holes unsaid: the
 * first read told them), as every CSV search did before. Prints nothing itself but through the
 * printer it is given.
 */
import type { GtColumnView } from '../../../shared/greptime/entry-table';
import {
  hitCsvHeader,
  hitCsvLine,
  HitColumns,
  type SearchHit,
} from '../../../shared/search/search-hits';
import { CSV_HELD_BYTES, HELD_ITEM_BYTES, HeldForHeader, heldOrAgain } from './held-for-header';

/** About what a hit holds: its cells' texts or its payload, and the row's own fields. */
function heldBytesOf(hit: SearchHit): number {
  if (hit.kind === 'entry') return HELD_ITEM_BYTES + hit.entry.data.length;
  let bytes = HELD_ITEM_BYTES;
  for (const cell of hit.row.cells) bytes += cell.length;
  return bytes;
}

export class CsvHits {
  private readonly union = new HitColumns();
  readonly held: HeldForHeader<SearchHit>;

  constructor(heldBytes = CSV_HELD_BYTES) {
    this.held = new HeldForHeader(heldBytes);
  }

  add(hits: readonly SearchHit[]): void {
    for (const hit of hits) {
      this.union.add(hit);
      this.held.add(hit, heldBytesOf(hit));
    }
  }

  columns(): GtColumnView[] {
    return this.union.columns();
  }
}

/** A search's steps as their hits, one by one. */
async function* hitsOf(
  steps: AsyncIterable<{ readonly hits: readonly SearchHit[] }>,
): AsyncIterable<SearchHit> {
  for await (const step of steps) yield* step.hits;
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
  for await (const hit of heldOrAgain(hits.held, () => hitsOf(again())))
    line(hitCsvLine(hit, columns));
}
