/**
 * What `cairn wal inspect --json` prints by default: the report of either format without its
 * per-object lists (chain, orphans, excluded, below the boundary, missing), each list's length
 * under `objects` instead, so a prefix of a million objects answers in one short document.
 * `--chain` prints the whole report. Damage and instances are kept: they are what to act on.
 */
import type { AnyInspectReport } from '../../engine/wal-read/read-side';

const OBJECT_LISTS: ReadonlySet<string> = new Set([
  'chain',
  'orphans',
  'excluded',
  'belowBoundary',
  'missing',
]);

export function inspectSummary(report: AnyInspectReport): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  const objects: Record<string, number> = {};
  for (const [field, value] of Object.entries(report)) {
    if (OBJECT_LISTS.has(field) && Array.isArray(value)) objects[field] = value.length;
    else summary[field] = value;
  }
  return { ...summary, objects };
}
