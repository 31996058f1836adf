/**
 * Issue #47 item 5: the replay view's JSON-path filter parses in linear time with a length
 * cap (4,000 spaces took 12.3 s; a 15 KB link froze the page), reading what it read before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_PATH_CHARS, parseJsonPath } from '../../src/renderer/src/views/wal/replay-filter';

/** How the filter was read before (a backtracking pattern): the reference for short texts. */
function reference(text: string): unknown {
  const match = /^\s*(\$[^=!]*?)\s*(?:(==|!=)\s*(.*?))?\s*$/.exec(text);
  if (match === null || match[1] === undefined) return 'error';
  const part = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]*)"\]/y;
  const path: Array<string | number> = [];
  part.lastIndex = 1;
  while (part.lastIndex < match[1].length) {
    const found = part.exec(match[1]);
    if (found === null) return 'error';
    path.push(found[2] !== undefined ? Number(found[2]) : (found[1] ?? found[3] ?? ''));
  }
  const op = match[2] ?? 'exists';
  if (op === 'exists') return { path, op, value: undefined };
  try {
    return { path, op, value: JSON.parse(match[3] ?? '') as unknown };
  } catch {
    return { path, op, value: match[3] ?? '' };
  }
}

describe('the JSON-path filter', () => {
  it('refuses a filter past the cap, and reads the bombs at once', () => {
    expect(parseJsonPath(`$.a == ${'x'.repeat(MAX_JSON_PATH_CHARS)}`)).toBeInstanceOf(Error);
    expect(parseJsonPath(`$${' '.repeat(15_000)}`)).toBeInstanceOf(Error);
    // Just under the cap, the shapes that backtracked: answered in linear time.
    for (const text of [
      `$${' '.repeat(1_000)}x`,
      `$.a${' '.repeat(1_000)}=`,
      `$.a ==${' '.repeat(1_000)}x${' '.repeat(10)}`,
    ])
      parseJsonPath(text);
    expect(parseJsonPath(' $.a.b[0] == "x" ')).toEqual({
      path: ['a', 'b', 0],
      op: '==',
      value: 'x',
    });
  });

  it('reads every short text as the earlier pattern did', () => {
    const piece = fc.constantFrom(
      '$',
      '.a',
      '[0]',
      ' ',
      '=',
      '==',
      '!=',
      '!',
      '1',
      '"x"',
      '\t',
      'b',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const now = parseJsonPath(text);
        expect(now instanceof Error ? 'error' : now).toEqual(reference(text));
      }),
      { numRuns: 2_000 },
    );
  });
});
