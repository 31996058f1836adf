/**
 * How an audit entry reads on a row: the connection by name (as recorded, else as saved now,
 * else its id) and the call's parameters as compact JSON without what other columns show.
 */
import type { AuditEntry } from '../../../../shared/contract';

/** Shown in their own columns, or noise (the typed confirmation repeats the target). */
const SHOWN_ELSEWHERE = new Set(['connectionId', 'confirm']);
/** Characters of parameters on a row; the whole text is the cell's title. */
export const PARAMETERS_SHOWN = 140;

/** Parameters carry bigint ids, which JSON has no number for: written as exact text. */
export function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

export function parametersText(parameters: unknown): string {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
    return JSON.stringify(parameters, bigintAsText) ?? '';
  const shown = Object.fromEntries(
    Object.entries(parameters).filter(([key]) => !SHOWN_ELSEWHERE.has(key)),
  );
  return Object.keys(shown).length === 0 ? '' : JSON.stringify(shown, bigintAsText);
}

export function connectionText(entry: AuditEntry, namesById: ReadonlyMap<string, string>): string {
  if (entry.connection !== undefined) return entry.connection;
  if (entry.connectionId === null) return '—';
  return namesById.get(entry.connectionId) ?? entry.connectionId;
}

/**
 * The prefix an entry's call acted on when its target is something within it (a region, "all
 * regions"): the Target cell names both. Null when the target is the prefix or there is none.
 */
export function targetPrefixOf(entry: AuditEntry): string | null {
  const parameters = entry.parameters;
  if (typeof parameters !== 'object' || parameters === null || !('prefix' in parameters))
    return null;
  const prefix = parameters.prefix;
  return typeof prefix === 'string' && prefix !== entry.target ? prefix : null;
}
