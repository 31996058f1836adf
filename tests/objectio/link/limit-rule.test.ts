/**
 * The limit rule against simulated links: a long round trip with room climbs to the ceiling in
 * a few rounds; a store that saturates settles near its knee with its throughput kept; a
 * throttled round halves; a round the demand bound changes nothing; bounds always hold.
 */
import { describe, expect, it } from 'vitest';
import {
  initialLimitState,
  nextLimit,
  type LimitBounds,
  type LimitState,
} from '../../../src/main/engine/objectio/link/limit-rule';

const BOUNDS: LimitBounds = { floor: 4, ceiling: 128 };

/**
 * A link of round trip `rttMs` to a store that answers at most `perMs` requests a millisecond:
 * with `n` in flight an answer takes the round trip, or n / perMs once the store's queue holds
 * the rest (Little's law). Returns how stretched that is and the throughput.
 */
function link(rttMs: number, perMs: number): (n: number) => { inflation: number; rate: number } {
  return (n) => {
    const latency = Math.max(rttMs, n / perMs);
    return { inflation: latency / rttMs, rate: n / latency };
  };
}

function run(
  model: (n: number) => { inflation: number },
  rounds: number,
  start = initialLimitState(16, BOUNDS),
): LimitState[] {
  const states = [start];
  for (let round = 0; round < rounds; round++) {
    const state = states[states.length - 1]!;
    const { inflation } = model(state.limit);
    states.push(
      nextLimit(state, { limit: state.limit, inflation, limited: true, throttled: false }, BOUNDS),
    );
  }
  return states;
}

/** The limits of rounds 20 to 60 on `model`, once the start has passed. */
function settledLimits(model: (n: number) => { inflation: number }): number[] {
  return run(model, 60)
    .slice(20)
    .map((state) => state.limit);
}

describe('limit rule', () => {
  it('climbs to the ceiling within three rounds on a 50 ms link with room', () => {
    const limits = run(link(50, 10), 3).map((state) => state.limit);
    expect(limits).toEqual([16, 32, 64, 128]);
  });

  it('settles near the knee of a saturating store and keeps its throughput', () => {
    // 2 ms round trip, 4 answers a ms: the knee is at 8 in flight.
    const model = link(2, 4);
    for (const limit of settledLimits(model)) {
      expect(model(limit).rate).toBeGreaterThanOrEqual(0.9 * 4);
      expect(limit).toBeLessThanOrEqual(24);
    }
  });

  it('stops where a 50 ms link is store-bound rather than at the sockets', () => {
    // 1.6 answers a ms through 50 ms: the knee is at 80 in flight.
    const model = link(50, 1.6);
    for (const limit of settledLimits(model)) {
      expect(limit).toBeGreaterThanOrEqual(80);
      expect(model(limit).inflation).toBeLessThanOrEqual(1.6);
    }
  });

  it('halves on a throttled round and learns again from there', () => {
    const state = initialLimitState(64, BOUNDS);
    const next = nextLimit(
      state,
      { limit: 64, inflation: 1, limited: true, throttled: true },
      BOUNDS,
    );
    expect(next).toEqual({ limit: 32, slowStart: false, best: null });
  });

  it("keeps slow start through a link's first round, whose answers paid its setup", () => {
    const state = initialLimitState(16, BOUNDS);
    const first = { limit: 16, inflation: 3, limited: true, throttled: false, settingUp: true };
    expect(nextLimit(state, first, BOUNDS)).toEqual({ limit: 32, slowStart: true, best: null });
    // The same stretch on a later round is a queue: slow start ends there.
    expect(nextLimit(state, { ...first, settingUp: false }, BOUNDS)).toMatchObject({
      limit: 20,
      slowStart: false,
    });
    // A first round the store throttled halves all the same.
    expect(nextLimit(state, { ...first, throttled: true }, BOUNDS)).toEqual({
      limit: 8,
      slowStart: false,
      best: null,
    });
  });

  it('changes nothing on a round its demand bound, however the answers looked', () => {
    const state = initialLimitState(16, BOUNDS);
    for (const inflation of [1, 3, 50])
      expect(
        nextLimit(state, { limit: 16, inflation, limited: false, throttled: false }, BOUNDS),
      ).toBe(state);
  });

  it('stays within its bounds whatever the rounds say', () => {
    let state = initialLimitState(1_000, BOUNDS);
    expect(state.limit).toBe(128);
    for (let round = 0; round < 50; round++) {
      state = nextLimit(
        state,
        {
          limit: state.limit,
          inflation: 1 + (round % 4),
          limited: true,
          throttled: round % 3 === 0,
        },
        BOUNDS,
      );
      expect(state.limit).toBeGreaterThanOrEqual(BOUNDS.floor);
      expect(state.limit).toBeLessThanOrEqual(BOUNDS.ceiling);
    }
  });
});
