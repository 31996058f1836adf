/**
 * The columns of a payload's row tables without their cells, for the CSV header's pass over a
 * replay: the walk that only counts (`checkPayload`'s), then each mutation's columns as
 * `decodePayload`'s tables name them. Null where only the tables can tell (bulk entries, whose
 * columns come from Arrow, or a column read after rows): the caller decodes that payload.
 */
import type { GtColumnView } from '../entry-table';
import { COUNT_ONLY, isPlausible } from '../decode/detect-payload';
import { columnViews } from '../decode/entry-table';
import { walkWalEntry } from '../decode/walk-entry';

/** Each mutation's columns (none for a payload that gives no rows), or null: decode it. */
export function entryColumns(
  payload: Uint8Array,
  onGreptimePrefix: boolean,
): GtColumnView[][] | null {
  const walked = walkWalEntry(payload, COUNT_ONLY);
  if (!walked.ok) return [];
  const { mutations, bulkEntries } = walked.entry;
  if (bulkEntries.length > 0) return null;
  if (!onGreptimePrefix && !isPlausible(walked.entry)) return [];
  const columns: GtColumnView[][] = [];
  for (const mutation of mutations) {
    const shape = mutation.rows?.shape;
    if (shape === undefined) continue;
    if (shape.lateSchema) return null;
    columns.push(columnViews(shape.schema, shape.width));
  }
  return columns;
}
