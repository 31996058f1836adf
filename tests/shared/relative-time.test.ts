import { describe, expect, it } from 'vitest';
import { relativeTime, utcText } from '../../src/shared/relative-time';

describe('relative times', () => {
  const now = Date.UTC(2026, 11, 2, 5, 0, 0);
  it.each([
    [now, 'just now'],
    [now - 4_000, '4 s ago'],
    [now - 119_000, '119 s ago'],
    [now - 5 * 60_000, '5 min ago'],
    [now - 3 * 3_600_000, '3 h ago'],
    [now - 3 * 86_400_000, '3 d ago'],
    [now + 5_000, 'in the future'],
  ])('%s reads %j', (at, text) => {
    expect(relativeTime(at, now)).toBe(text);
  });

  it('gives the absolute time in UTC', () => {
    expect(utcText(now - 4_000)).toBe('2026-12-02 04:59:56 UTC');
  });
});
