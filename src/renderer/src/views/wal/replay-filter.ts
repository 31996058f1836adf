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

/** The filter `text` names; an Error naming what is wrong when it is malformed. */
export function parseJsonPath(text: string): JsonPathFilter | Error {
  const match = /^\s*(\$[^=!]*?)\s*(?:(==|!=)\s*(.*?))?\s*$/.exec(text);
  if (match === null || match[1] === undefined)
    return new Error('expected $.path, $.path == value or $.path != value');
  const path: Array<string | number> = [];
  const expression = match[1];
  PATH_PART.lastIndex = 1;
  while (PATH_PART.lastIndex < expression.length) {
    const at = PATH_PART.lastIndex;
    const part = PATH_PART.exec(expression);
    if (part === null) return new Error(`cannot read the path at "${expression.slice(at)}"`);
    path.push(part[2] !== undefined ? Number(part[2]) : (part[1] ?? part[3] ?? ''));
  }
  const op = (match[2] as '==' | '!=' | undefined) ?? 'exists';
  return { path, op, value: op === 'exists' ? undefined : literalOf(match[3] ?? '') };
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
