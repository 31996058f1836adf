/**
 * How many requests a link should have in flight, decided once a round from what the round
 * measured: a pure function of the state and the round, so it is tested without a store.
 *
 * A round is the answers to the requests granted under one limit. What it reports:
 * - `inflation`: the median, over its answers, of latency / the class's floor
 *   (`request-class.ts`): 1 when no queue stretched them;
 * - `limited`: a request waited for a slot, so the limit, not the demand, bound the round;
 * - `throttled`: the store answered `Unavailable` (throttling, 5xx, a timeout).
 *
 * By Little's law a round's throughput is its limit over its latency, so `limit / inflation`
 * scores it in the link's own units whatever its round trip. The rule climbs that score:
 * - while answers come back unstretched (inflation <= FLAT), the link has room: double the
 *   limit from the start (slow start), then grow by a quarter;
 * - once they stretch, more requests in flight pay only while they buy throughput: grow by a
 *   quarter while the score beats the best seen by GAIN, and go back to the best's limit when
 *   it does not. The best score fades by FADE a round, so a limit held a few rounds is probed
 *   higher again, and a link that changed is learnt again;
 * - a throttled round halves the limit.
 * A round that was not limited changes nothing: it says nothing about more requests. A link's
 * first round ends slow start only if throttled: its answers paid what a new link pays once -
 * each socket's handshake, a new thread's first compiles of the client's code - and a new CLI
 * process left slow start on it every time, its median stretched 2-3.6x at 16 in flight while
 * its fastest answers were flat (docs/design/io-controller.md).
 *
 * On a 50 ms link the answers stay flat up to what the store or the sockets allow, so the
 * limit climbs to them in a few rounds; on loopback a store that answers in a millisecond
 * stretches them early, and the limit stops where more requests stop buying answers.
 */

export interface LimitBounds {
  readonly floor: number;
  readonly ceiling: number;
}

export interface RoundReport {
  /** The limit the round's requests were granted under. */
  readonly limit: number;
  readonly inflation: number;
  readonly limited: boolean;
  readonly throttled: boolean;
  /** The link's first round: its answers paid the link's setup, not a queue. */
  readonly settingUp?: boolean;
}

export interface LimitState {
  readonly limit: number;
  /** Doubling until the first stretched or throttled round. */
  readonly slowStart: boolean;
  /** The highest score seen (faded a round) and the limit that made it. */
  readonly best: { readonly limit: number; readonly score: number } | null;
}

/** Answers at most this stretched count as unqueued. */
export const FLAT = 1.5;
/** A score this much above the best pays for the extra requests. */
export const GAIN = 0.05;
export const FADE = 0.97;

export function initialLimitState(limit: number, bounds: LimitBounds): LimitState {
  return { limit: clamp(limit, bounds), slowStart: true, best: null };
}

export function nextLimit(state: LimitState, round: RoundReport, bounds: LimitBounds): LimitState {
  if (round.throttled)
    return { limit: clamp(state.limit / 2, bounds), slowStart: false, best: null };
  if (!round.limited) return state;
  if (round.settingUp && state.slowStart)
    return { ...state, limit: clamp(grown(state.limit, 2), bounds) };
  const score = round.limit / Math.max(1, round.inflation);
  const faded = state.best === null ? null : { ...state.best, score: state.best.score * FADE };
  const moved = (limit: number, best = faded, slowStart = false): LimitState => ({
    limit: clamp(limit, bounds),
    slowStart,
    best,
  });
  if (round.inflation <= FLAT) {
    const best = faded === null || score > faded.score ? { limit: round.limit, score } : faded;
    return moved(grown(state.limit, state.slowStart ? 2 : 1.25), best, state.slowStart);
  }
  if (faded === null || score > faded.score * (1 + GAIN))
    return moved(grown(state.limit, 1.25), { limit: round.limit, score });
  return moved(Math.min(state.limit, faded.limit));
}

function grown(limit: number, factor: number): number {
  return Math.max(limit + 1, limit * factor);
}

function clamp(limit: number, bounds: LimitBounds): number {
  return Math.round(Math.min(bounds.ceiling, Math.max(bounds.floor, limit)));
}
