/**
 * Issue #47 item 5: every text that reaches a terminal is escaped. A stored record's text (a
 * damaged shard's key and reason) carrying ESC sequences is printed with them escaped, never
 * raw: `cairn ns ls` wrote them to stderr as they were.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportDamaged } from '../../src/main/cli/output';

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('terminal output', () => {
  it('escapes control characters of a damaged part on stderr', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    reportDamaged([
      { what: 'shard 03', key: 'ns/\u001b[2Jshard', reason: 'bad \u001b]0;owned\u0007 \u202e' },
    ]);
    const text = written.join('');
    expect([...text].filter((c) => (c < ' ' && c !== '\n') || c === '\u202e')).toEqual([]);
    expect(text).toContain('\\u{1b}[2J');
    expect(text.endsWith('\n')).toBe(true);
  });
});
