/**
 * What the first walk of a pushed-down filter (row-filter.ts) tests in the rows of one schema:
 * the conditions by column place, how many columns must be reached, the time index's place.
 * Made once per schema a search meets - consecutive payloads mostly share theirs - rather than
 * once per payload (the column views it needs cost more than the walk of a small payload).
 * Pure but for that cache of the last schema per filter, which changes no result.
 */
import type { RowCondition, RowFilter } from '../row-filter';
import { columnViews } from './entry-table';
import type { GtColumnSchema } from './wal-entry';

/** The time index's semantic type number (`SemanticType.TIMESTAMP`). */
const TIMESTAMP_SEMANTIC = 2;

/** Keys a row line takes from the entry and mutation, never from a column. */
export const ROW_KEYS: ReadonlySet<string> = new Set([
  'region',
  'regionU64',
  'id',
  'idU64',
  'op',
  'sequence',
]);

/** What the first walk tests of a schema's rows: made once per schema met, not per payload. */
export interface ChecksPlan {
  /** Per column place, the conditions on it. */
  readonly checks: readonly (RowCondition[] | undefined)[];
  /** Columns with conditions: a row that reached fewer is left to the whole test. */
  readonly needed: number;
  /** The time index's place, when the filter has a time range; else -1. */
  readonly timeAt: number;
  /** A condition this walk cannot test exactly: every row is kept for the whole test. */
  readonly undecided: boolean;
}

function sameSchema(a: readonly GtColumnSchema[], b: readonly GtColumnSchema[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) {
    const x = a[at]!;
    const y = b[at]!;
    if (x.name !== y.name || x.datatype !== y.datatype || x.semanticType !== y.semanticType)
      return false;
  }
  return true;
}

/** The conditions by column place, from the schema as the first row finds it. */
function checksPlanOf(filter: RowFilter, schema: readonly GtColumnSchema[]): ChecksPlan {
  const views = columnViews(schema, schema.length);
  const checks: (RowCondition[] | undefined)[] = [];
  let undecided = false;
  let needed = 0;
  for (const condition of filter.conditions) {
    if (ROW_KEYS.has(condition.key)) continue;
    const at = views.findIndex((view) => view.key === condition.key);
    // A key past the schema may still name a value a long row holds: the whole test decides.
    if (at < 0) {
      undecided = true;
      continue;
    }
    if (checks[at] === undefined) needed += 1;
    (checks[at] ??= []).push(condition);
  }
  const timed = filter.since !== null || filter.until !== null;
  const timeAt = timed
    ? schema.findIndex((column) => column.semanticType === TIMESTAMP_SEMANTIC)
    : -1;
  return { checks, needed, timeAt, undecided };
}

/** Per filter, the plan of the last schema met: a search's payloads mostly share theirs. */
const lastPlans = new WeakMap<RowFilter, { schema: readonly GtColumnSchema[]; plan: ChecksPlan }>();

export function checksPlan(filter: RowFilter, schema: readonly GtColumnSchema[]): ChecksPlan {
  const last = lastPlans.get(filter);
  if (last !== undefined && sameSchema(last.schema, schema)) return last.plan;
  const plan = checksPlanOf(filter, schema);
  // A copy: the walker's schema array grows if a later part of the payload adds columns.
  lastPlans.set(filter, { schema: [...schema], plan });
  return plan;
}
