/**
 * One connection's I/O controller (the `IoSlots` every read path takes): it grants request
 * slots first come, first served, within a limit it sizes from what it measures, and within a
 * memory budget; and it keeps the latency and rate the operator sees (`LinkStats`).
 *
 * The limit moves once a round (`limit-rule.ts`): a round is the answers to the requests
 * granted under one limit, at least `MIN_ROUND` of them and at least as many as the limit (a
 * round trip's worth), judged on the median of their stretch over their class's floor
 * (`request-class.ts`). Answers to requests granted under an earlier limit are measured for
 * the operator but judge no round: they say nothing about the limit in force.
 *
 * The bounds come from the backend (`LinkShape`): never above the sockets its HTTP agent
 * keeps (a request past them would queue inside the SDK, out of sight), never below a floor
 * that keeps its thread busy. It owns no I/O and no process-wide state: each connection (or
 * each CLI command, or each engine call given none) makes its own.
 */
import { isStorageError } from '../errors';
import type { IoSlot, IoSlots, SlotNeed } from './io-slots';
import { initialLimitState, nextLimit, type LimitBounds, type LimitState } from './limit-rule';
import { LinkStatsWindow, quantile, type LinkStats } from './link-stats';
import { LatencyFloors, requestClass } from './request-class';

export interface IoControllerOptions extends LimitBounds {
  /** The limit before anything was measured. */
  readonly initial: number;
  /** Bytes the answers of requests in flight may hold at once. */
  readonly memoryBytes: number;
  /** Milliseconds, monotonic (tests give their own clock). */
  readonly now?: () => number;
}

/** The link as the console and Test connection show it. */
export interface IoLinkStats extends LinkStats {
  readonly limit: number;
  readonly inFlight: number;
  /** Requests waiting for a slot. */
  readonly waiting: number;
  /** Answers since the controller was made. */
  readonly answered: number;
  /** Units of work the fan-outs on this link announced, and finished (`IoSlots.noteWork`). */
  readonly work: { readonly done: number; readonly total: number };
  /** The link's round trip: its fastest answer so far (`LatencyFloors.lowest`); null before any. */
  readonly roundTripMs: number | null;
}

/**
 * Answers a round needs at least before it judges the limit: a median of fewer swings with
 * every busy moment of a shared machine.
 */
const MIN_ROUND = 16;

interface Waiter {
  readonly need: SlotNeed;
  readonly grant: (slot: IoSlot) => void;
}

export class IoController implements IoSlots {
  private state: LimitState;
  private readonly bounds: LimitBounds;
  private readonly now: () => number;
  private readonly floors = new LatencyFloors();
  private readonly window = new LinkStatsWindow();
  private readonly queue: Waiter[] = [];
  private inFlight = 0;
  private bytesInFlight = 0;
  private answered = 0;
  private readonly work = { done: 0, total: 0 };
  /** The round in progress: the limit's epoch, its answers' stretches, what it met. */
  private round = 0;
  private stretches: number[] = [];
  private limited = false;
  private throttled = false;

  constructor(private readonly options: IoControllerOptions) {
    this.bounds = { floor: Math.max(1, options.floor), ceiling: Math.max(1, options.ceiling) };
    this.state = initialLimitState(options.initial, this.bounds);
    this.now = options.now ?? (() => performance.now());
  }

  get width(): number {
    return this.state.limit;
  }

  acquire(need: SlotNeed): Promise<IoSlot> {
    if (this.queue.length === 0 && this.fits(need)) return Promise.resolve(this.grant(need));
    return new Promise<IoSlot>((grant) => this.queue.push({ need, grant }));
  }

  stats(): IoLinkStats {
    return {
      ...this.window.stats(this.now()),
      limit: this.state.limit,
      inFlight: this.inFlight,
      waiting: this.queue.length,
      answered: this.answered,
      work: { ...this.work },
      roundTripMs: this.floors.lowest(),
    };
  }

  noteWork(added: number, done: number): void {
    this.work.total += added;
    this.work.done += done;
  }

  /** Room for `need` now; notes a round bound by the limit rather than by its demand. */
  private fits(need: SlotNeed): boolean {
    if (this.inFlight >= this.state.limit) {
      this.limited = true;
      return false;
    }
    return (
      this.inFlight === 0 || this.bytesInFlight + this.reserved(need) <= this.options.memoryBytes
    );
  }

  /** What `need` holds of the budget: never more than all of it (a huge read runs alone). */
  private reserved(need: SlotNeed): number {
    return Math.min(need.bytes ?? 0, this.options.memoryBytes);
  }

  private grant(need: SlotNeed): IoSlot {
    const bytes = this.reserved(need);
    const round = this.round;
    const grantedAt = this.now();
    this.inFlight += 1;
    this.bytesInFlight += bytes;
    // The round filled its limit: the limit, not the demand, bounds it.
    if (this.inFlight >= this.state.limit) this.limited = true;
    let released = false;
    return {
      release: (outcome = {}) => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        this.bytesInFlight -= bytes;
        this.answer(need, round, this.now() - grantedAt, outcome);
        this.drain();
      },
    };
  }

  private answer(
    need: SlotNeed,
    round: number,
    latencyMs: number,
    outcome: { readonly error?: unknown; readonly bytes?: number },
  ): void {
    this.answered += 1;
    this.window.record(this.now(), latencyMs, outcome.bytes ?? need.bytes ?? 0);
    const failedLink = isStorageError(outcome.error, 'Unavailable');
    // Only answers the store gave count towards the floors: a failure's time is no latency.
    const stretch =
      outcome.error === undefined || !failedLink
        ? this.floors.inflationOf(requestClass(need.kind, need.bytes), latencyMs)
        : null;
    if (round !== this.round) return;
    if (failedLink) this.throttled = true;
    if (stretch !== null) this.stretches.push(stretch);
    if (this.throttled || this.stretches.length >= Math.max(MIN_ROUND, this.state.limit))
      this.judgeRound();
  }

  private judgeRound(): void {
    const stretches = this.stretches.sort((a, b) => a - b);
    this.state = nextLimit(
      this.state,
      {
        limit: this.state.limit,
        inflation: quantile(stretches, 0.5) ?? 1,
        limited: this.limited,
        throttled: this.throttled,
        settingUp: this.round === 0,
      },
      this.bounds,
    );
    this.round += 1;
    this.stretches = [];
    this.limited = this.inFlight >= this.state.limit || this.queue.length > 0;
    this.throttled = false;
  }

  private drain(): void {
    for (
      let head = this.queue[0];
      head !== undefined && this.fits(head.need);
      head = this.queue[0]
    ) {
      this.queue.shift();
      head.grant(this.grant(head.need));
    }
  }
}
