/**
 * Filters for replayed entries: a plain text match on the payload decoded as UTF-8, and a
 * simple JSON-path test - `$.a.b[0] == value`, `!=`, or the path alone (it exists) - where
 * value is a JSON literal or bare text. Pure; a payload that is not JSON never matches a path.
 */
import { REPLAY_PAYLOAD_BYTES } from '../../../../shared/contract/wal';

export interface JsonPathFilter {
  readonly path: ReadonlyArray<string | number>;
  readonly op: 'exists' | '==' | '!=';
  readonly value: unknown;
}

const PATH_PART = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]*)"\]/y;

/** The longest filter taken: a path a person types is far shorter; a link may carry anything. */
export const MAX_JSON_PATH_CHARS = 1024;

const SYNTAX = 'expected $.path, $.path == value or $.path != value';

/**
 * `$path`, `$path == value` or `$path != value` split in one pass (the path holds no `=` or
 * `!`): linear in the text, where a backtracking pattern took 12 s on 4,000 spaces.
 */
function splitFilter(text: string): { expression: string; op?: '==' | '!='; value: string } | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('$')) return null;
  const at = trimmed.search(/[=!]/);
  if (at < 0) return { expression: trimmed, value: '' };
  const op = trimmed.slice(at, at + 2);
  if (op !== '==' && op !== '!=') return null;
  return { expression: trimmed.slice(0, at).trimEnd(), op, value: trimmed.slice(at + 2).trim() };
}

/** The filter `text` names; an Error naming what is wrong when it is malformed. */
export function parseJsonPath(text: string): JsonPathFilter | Error {
  if (text.length > MAX_JSON_PATH_CHARS)
    return new Error(`a path filter is at most ${MAX_JSON_PATH_CHARS} characters`);
  const match = splitFilter(text);
  if (match === null) return new Error(SYNTAX);
  const path: Array<string | number> = [];
  const expression = match.expression;
  PATH_PART.lastIndex = 1;
  while (PATH_PART.lastIndex < expression.length) {
    const at = PATH_PART.lastIndex;
    const part = PATH_PART.exec(expression);
    if (part === null) return new Error(`cannot read the path at "${expression.slice(at)}"`);
    path.push(part[2] !== undefined ? Number(part[2]) : (part[1] ?? part[3] ?? ''));
  }
  const op = match.op ?? 'exists';
  return { path, op, value: op === 'exists' ? undefined : literalOf(match.value) };
}

function literalOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function valueAt(
  document: unknown,
  path: ReadonlyArray<string | number>,
): { found: boolean; value: unknown } {
  let current: unknown = document;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part))
      return { found: false, value: undefined };
    current = (current as Record<string | number, unknown>)[part];
  }
  return { found: true, value: current };
}

function sameValue(a: unknown, b: unknown): boolean {
  // JSON text compares structures, and a number field with a quoted number ("5") too.
  return (
    a === b ||
    JSON.stringify(a) === JSON.stringify(b) ||
    (typeof a !== 'object' && typeof b === 'string' && JSON.stringify(a) === b)
  );
}

export function matchesJsonPath(filter: JsonPathFilter, payloadText: string): boolean {
  let document: unknown;
  try {
    document = JSON.parse(payloadText) as unknown;
  } catch {
    return false;
  }
  const { found, value } = valueAt(document, filter.path);
  if (filter.op === 'exists') return found;
  if (filter.op === '==') return found && sameValue(value, filter.value);
  return !found || !sameValue(value, filter.value);
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * The text the filters read: a payload's first REPLAY_PAYLOAD_BYTES, what reaches the page of
 * any payload (a `WalEntry`'s bytes come whole, up to 1 MiB, and every kept entry's text is
 * made again as chunks arrive).
 */
export function payloadText(bytes: Uint8Array): string {
  return decoder.decode(bytes.subarray(0, REPLAY_PAYLOAD_BYTES));
}
