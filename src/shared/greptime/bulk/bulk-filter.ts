/**
 * A search's row filter on an entry's bulk entries (search.md): a bulk entry whose declared time
 * range (`min_ts` / `max_ts` in its schema's unit, schema-time.ts) lies wholly outside the
 * filter's is left out undecoded; any other is decoded as replay decodes it (decode-bulk.ts,
 * with its bounds) and its rows - PUTs numbered from its sequence, after the mutations' - meet
 * the filter whole (`rowMatches`, replay's own test). A bulk entry that gives no rows, or rows
 * outside its declared range, is named as replay names it. Pure but for the decoder handed in.
 */
import type { BulkRowsDecoder } from '../decode/decode-table';
import type { WalkedBulk } from '../decode/walk-entry';
import type { ReplayRow } from '../replay-rows';
import { rowMatches, type RowFilter } from '../row-filter';
import { bulkProblem } from './decode-bulk';
import { bulkTimeRange } from './schema-time';

export interface BulkFiltered {
  /** Rows that pass the filter, in the entries' order. */
  readonly hits: ReplayRow[];
  /** Rows decoded and looked at. */
  readonly rows: number;
  /** Bulk entries met, and of them those left out by their time range, undecoded. */
  readonly met: number;
  readonly skipped: number;
  /** Why a bulk entry counts as damage, in replay's words (`bulk entry N ...`). */
  readonly problems: string[];
}

export const NO_BULK: BulkFiltered = { hits: [], rows: 0, met: 0, skipped: 0, problems: [] };

/** Whether the bulk entry's declared time range lies wholly outside the filter's. */
export function bulkOutsideTime(bulk: WalkedBulk, filter: RowFilter): boolean {
  if (filter.since === null && filter.until === null) return false;
  const range = bulkTimeRange(bulk.summary, bulk.ipc);
  if (range === null) return false;
  const { since, until } = filter;
  const before = since !== null && range.min < since && range.max < since;
  const after = until !== null && range.min >= until && range.max >= until;
  return before || after;
}

/**
 * The rows of `bulkEntries` (of the entry `id` of `region`) that pass `filter`; `decoder` is
 * asked for only when a bulk entry has to be decoded.
 */
export function filterBulkRows(
  bulkEntries: readonly WalkedBulk[],
  region: bigint,
  id: bigint,
  filter: RowFilter,
  decoder: () => BulkRowsDecoder,
): BulkFiltered {
  if (bulkEntries.length === 0) return NO_BULK;
  const hits: ReplayRow[] = [];
  const problems: string[] = [];
  let rows = 0;
  let skipped = 0;
  bulkEntries.forEach((bulk, at) => {
    if (bulkOutsideTime(bulk, filter)) {
      skipped += 1;
      return;
    }
    const decoded = decoder()(bulk);
    const problem = bulkProblem(decoded, at);
    if (problem !== null) problems.push(problem);
    if (!decoded.ok) return;
    const { op, sequence, columns, rows: cells } = decoded.table;
    rows += cells.length;
    cells.forEach((row, index) => {
      const candidate = { region, id, op, sequence: sequence + BigInt(index), columns, cells: row };
      if (rowMatches(candidate, filter)) hits.push(candidate);
    });
  });
  return { hits, rows, met: bulkEntries.length, skipped, problems };
}
