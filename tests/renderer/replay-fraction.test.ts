/** Replay progress counts from the start id: a replay from the middle starts empty. */
import { describe, expect, it } from 'vitest';
import { replayFraction } from '../../src/renderer/src/views/wal/replay/replay-fraction';

describe('replayFraction', () => {
  it('counts from the start id, not the region start', () => {
    expect(replayFraction({ fromId: 500n, lastId: 0n, latestId: 1000n })).toBe(0);
    expect(replayFraction({ fromId: 500n, lastId: 500n, latestId: 1000n })).toBe(0);
    expect(replayFraction({ fromId: 500n, lastId: 750n, latestId: 1000n })).toBe(0.5);
    expect(replayFraction({ fromId: 500n, lastId: 1000n, latestId: 1000n })).toBe(1);
  });

  it('is whole for a one-entry range once reached, empty before', () => {
    expect(replayFraction({ fromId: 7n, lastId: 0n, latestId: 7n })).toBe(0);
    expect(replayFraction({ fromId: 7n, lastId: 7n, latestId: 7n })).toBe(1);
  });
});
