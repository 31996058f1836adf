import { describe, expect, it } from 'vitest';
import { furthestProgress } from '../../src/renderer/src/views/wal/furthest-progress';

describe('a polled job progress against what chunks delivered', () => {
  const delivered = (p: { delivered: number }) => p.delivered;

  it('keeps the furthest count and takes the poll run state', () => {
    const previous = { state: 'running', delivered: 40 };
    expect(furthestProgress(previous, { state: 'paused', delivered: 30 }, delivered)).toEqual({
      state: 'paused',
      delivered: 40,
    });
  });

  it('takes the poll whole when it is as far or further, or nothing came before', () => {
    const polled = { state: 'finished', delivered: 50 };
    expect(furthestProgress({ state: 'running', delivered: 50 }, polled, delivered)).toBe(polled);
    expect(furthestProgress(null, polled, delivered)).toBe(polled);
  });
});
