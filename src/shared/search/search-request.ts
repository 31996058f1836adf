/**
 * A search's filters and scope as typed (the CLI's flags, the console's boxes, its link) read
 * into what the search runs, in one place so both refuse the same input with the same words:
 * conditions (`parseCondition`), UTC times, regions, ids, limit. Pure; a problem names the
 * flag it is in.
 */
import {
  parseCondition,
  parseUtcTime,
  type RowCondition,
  type RowFilter,
} from '../greptime/row-filter';
import { parseIdRange, parseRegionList, type IdRange } from './search-scope-text';

export interface SearchTextInput {
  readonly where: readonly string[];
  readonly since?: string;
  readonly until?: string;
  readonly regions?: string;
  readonly ids?: string;
  /** '' or absent: any payload. */
  readonly text?: string;
  readonly limit?: number;
  readonly order?: string;
}

export interface SearchParts {
  readonly regions: bigint[] | null;
  readonly ids: IdRange;
  readonly rows: RowFilter;
  readonly text: string | null;
  readonly limit: number | null;
  readonly order: 'ids' | 'newest';
}

/** What is wrong with one flag. */
export interface SearchInputProblem {
  /** The flag's name without dashes: `where`, `since`, `regions`... */
  readonly flag: string;
  readonly message: string;
}

function timeOf(flag: string, text: string | undefined): bigint | null | SearchInputProblem {
  if (text === undefined || text.trim() === '') return null;
  return (
    parseUtcTime(text) ?? {
      flag,
      message: `must be a UTC time like 2026-01-02T03:04:05.123Z, got "${text}"`,
    }
  );
}

function isProblem(value: unknown): value is SearchInputProblem {
  return typeof value === 'object' && value !== null && 'flag' in value && 'message' in value;
}

/** The row filter of `--where`, `--since` and `--until`, or the first problem. */
export function rowFilterOfText(
  where: readonly string[],
  since: string | undefined,
  until: string | undefined,
): RowFilter | SearchInputProblem {
  const conditions: RowCondition[] = [];
  for (const text of where) {
    const condition = parseCondition(text);
    if (condition instanceof Error) return { flag: 'where', message: condition.message };
    conditions.push(condition);
  }
  const from = timeOf('since', since);
  const to = timeOf('until', until);
  if (isProblem(from)) return from;
  if (isProblem(to)) return to;
  return { conditions, since: from, until: to };
}

export function searchPartsOf(input: SearchTextInput): SearchParts | SearchInputProblem {
  const rows = rowFilterOfText(input.where, input.since, input.until);
  if (isProblem(rows)) return rows;
  const regions = parseRegionList(input.regions ?? 'all');
  if (regions instanceof Error) return { flag: 'regions', message: regions.message };
  const ids = parseIdRange(input.ids ?? '');
  if (ids instanceof Error) return { flag: 'ids', message: ids.message };
  const limit = input.limit ?? null;
  if (limit !== null && (!Number.isSafeInteger(limit) || limit < 1))
    return { flag: 'limit', message: `must be a positive integer, got "${limit}"` };
  const order = input.order ?? 'ids';
  if (order !== 'ids' && order !== 'newest')
    return { flag: 'order', message: `must be ids or newest, got "${order}"` };
  const text = input.text === undefined || input.text === '' ? null : input.text;
  return { regions, ids, rows, text, limit, order };
}

export function isSearchInputProblem(
  value: SearchParts | SearchInputProblem,
): value is SearchInputProblem {
  return isProblem(value);
}
