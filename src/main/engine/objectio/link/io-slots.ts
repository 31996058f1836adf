/**
 * `IoSlots`: what every read path takes to decide how many requests it keeps in flight - the
 * face of one connection's I/O controller (`IoController`). The whole contract:
 *
 * - `acquire(need)` resolves with a slot once the link has room for one more request: fewer
 *   requests in flight than the controller's limit, and the bytes `need` says the answer may
 *   hold within its memory budget. Waiters are served first come, first served, whoever they
 *   are (recovery, replay, verify, a listing), so paths sharing a connection share its link.
 * - A slot covers ONE request, or a few made together at once (a header and a tail read side
 *   by side), or a short sequence the caller cannot split (a footer read after the tail that
 *   located it). `release` it when the request ended, with the error if it threw: the time
 *   between grant and release is the latency the controller measures, and an `Unavailable`
 *   store (throttling, 5xx, timeouts) makes it halve its limit.
 * - Never acquire a slot while holding one: every slot could be held by a waiter, and nothing
 *   would ever be released.
 * - `width` is how many requests the link wants in flight now. A fan-out of units that each
 *   make several requests one after another (a prefix's read model, a shard's survey) starts
 *   about that many units and holds no slot itself: the units' own requests acquire theirs.
 * - `noteWork` (optional) is told how many units a fan-out has in all as they become known,
 *   and each one done, so the link can show the operator how far a long command is (the
 *   CLI's progress line). It changes nothing about what is granted.
 *
 * Helpers that run a fan-out through slots are in `link-fanout.ts`. Nothing here does I/O.
 */
import type { RequestKind } from './request-class';

export type { RequestKind } from './request-class';

/** What a request asks of the link. */
export interface SlotNeed {
  readonly kind: RequestKind;
  /** Bytes its answer may hold: counted against the memory budget while it runs. */
  readonly bytes?: number;
}

export interface IoSlot {
  /**
   * The request ended: `error` is what it threw, if it did. `bytes` is what it actually
   * moved when that differs from the need (for the rate the link reports). Idempotent.
   */
  release(outcome?: { readonly error?: unknown; readonly bytes?: number }): void;
}

export interface IoSlots {
  /** Requests the link wants in flight now (at least 1). */
  readonly width: number;
  acquire(need: SlotNeed): Promise<IoSlot>;
  /** `added` more units of work became known, `done` more finished (for progress only). */
  noteWork?(added: number, done: number): void;
}

/** Runs `request` in a slot of `slots`, released with its outcome whatever it was. */
export async function withSlot<T>(
  slots: IoSlots,
  need: SlotNeed,
  request: () => Promise<T>,
): Promise<T> {
  const slot = await slots.acquire(need);
  try {
    const answer = await request();
    slot.release();
    return answer;
  } catch (error) {
    slot.release({ error });
    throw error;
  }
}
