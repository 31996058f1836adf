/**
 * Failures (wal.md "Failure matrix", "A spent start gap"): what the writer does once something
 * went wrong - batches failed and taken out of the pipeline (a create still running lands as
 * an orphan), an `enqueued` backlog dropped and counted, the store poisoned with its terminal
 * error, a clash turned into `Fenced`, the last sequence spent, a spent start gap healed by a
 * reopen (gap-reopen.ts). It must never fail an append that was acknowledged, nor one whose
 * fence round passed: those are committed first.
 */
import { FencedError, PoisonedError, SequenceExhaustedError, WriterReopenedError } from '../errors';
import { MAX_SEQ } from '../ids';
import { START_GAP } from '../recovery/start-sequence';
import { commitNextFenced } from './commit';
import { isStartGapSpent } from './gap-reopen';
import type { AppendWaiter } from './open-batch';
import { isUnindexed, type SealedBatch } from './sealed-batch';
import type { WriteState } from './write-state';

/** Read once: under tsx an imported binding is a getter, and this runs on every step. */
const LAST_SEQ = MAX_SEQ;

/** Takes a batch out of the pipeline; a create still in flight lands as an orphan. */
function retire(state: WriteState, batch: SealedBatch): void {
  state.pipeline.take(batch, 'failed');
  if (state.createEnded(batch)) state.orphanCreates += 1;
}

export function failBatches(state: WriteState, doomed: readonly SealedBatch[], cause: Error): void {
  for (const batch of doomed) retire(state, batch);
  for (const batch of doomed) for (const waiter of batch.waiters) waiter.reject(cause);
}

/** durable: a transient failure fails this and every batch not yet indexed. */
export function failUnindexed(state: WriteState, cause: Error): void {
  failBatches(state, state.pipeline.filter(isUnindexed), cause);
}

/** enqueued, stop begun: these batches will never be durable; stop reports them. */
export function dropBacklog(state: WriteState, doomed: readonly SealedBatch[]): void {
  for (const batch of doomed) {
    retire(state, batch);
    state.lost.entries += batch.entries;
    state.lost.batches += 1;
  }
  const lost = state.lostBacklog();
  for (const waiter of state.durableWaiters) waiter.reject(lost);
  state.durableWaiters = [];
}

/** The open batch's waiters fail with `error`; its sequence is never used. */
export function discardOpenBatch(state: WriteState, error: Error): void {
  const open = state.open;
  if (open === null) return;
  // Its ids were handed out all the same (the writer's answer for them must not change).
  state.rememberHandedOut(open.lastIds());
  for (const waiter of open.waiters) waiter.reject(error);
  if (state.flushTimer !== null) clearTimeout(state.flushTimer);
  state.open = null;
}

/** Terminal: every waiter fails, every later operation but stop throws `error`. */
export function poison(state: WriteState, error: Error): void {
  if (state.terminal !== null) return;
  // Batches whose fence round passed only wait their commit turn (commit-front.ts):
  // acknowledged, as they would have been had their turn come before this failure.
  while (state.fenced.length > 0 && commitNextFenced(state) === null);
  state.fenced.length = 0;
  state.terminal = error;
  state.metrics.poisoned.set(1);
  const { pipeline } = state;
  let unpersisted = state.open?.entries ?? 0;
  for (const batch of pipeline) unpersisted += batch.entries;
  const unpersistedBatches = pipeline.length + (state.open === null ? 0 : 1);
  if (state.config.ackMode === 'enqueued' && unpersisted > 0) {
    state.lost.entries += unpersisted;
    state.lost.batches += unpersistedBatches;
  }
  for (const command of state.commands.takeAll()) command.reject(error);
  const waiters: AppendWaiter[] = [...(state.open?.waiters ?? [])];
  if (state.flushTimer !== null) clearTimeout(state.flushTimer);
  state.open = null;
  for (const batch of pipeline.toArray()) {
    waiters.push(...batch.waiters);
    retire(state, batch);
  }
  for (const waiter of waiters) waiter.reject(error);
  const forWaiters = state.lost.entries > 0 ? state.lostBacklog() : error;
  for (const waiter of state.durableWaiters) waiter.reject(forWaiters);
  state.durableWaiters = [];
  // Nothing reads the handed-out ids of a poisoned writer (every operation throws).
  state.handedOut.clear();
}

/** A same-or-later-epoch object at our sequence: ask the register who holds the epoch now. */
export function haltAsFenced(state: WriteState, objectEpoch: bigint | null): void {
  state.halted = true;
  const fallback = new FencedError(
    objectEpoch ?? state.session.epoch,
    "unknown (met through an object at this writer's sequence)",
  );
  state.session.register
    .update((control) => control)
    .then(
      () => poison(state, fallback),
      (error: unknown) => poison(state, error instanceof FencedError ? error : fallback),
    )
    .finally(() => {
      state.halted = false;
      state.kick();
    });
}

/** Past the last representable sequence with nothing left to commit: `SequenceExhausted`. */
export function checkExhausted(state: WriteState): void {
  // The pipeline test first: it fails on nearly every step, and costs no bigint comparison.
  if (state.open !== null || state.pipeline.length > 0) return;
  if (state.nextSeq > LAST_SEQ) poison(state, new SequenceExhaustedError(LAST_SEQ));
}

/** Re-opens under a new epoch once nothing can certify a higher B; admitted appends fail. */
export function healSpentGap(state: WriteState): void {
  const { pipeline } = state;
  const facts = {
    ackMode: state.config.ackMode,
    ackFence: state.config.ackFence,
    stopping: state.stopping,
    busy: state.terminal !== null || state.halted || state.commandBusy || state.round !== null,
    createsInFlight: state.createsInFlight(),
    onlyQueued: pipeline.count('queued') === pipeline.length,
    firstQueuedSeq: pipeline.firstQueued()?.seq ?? null,
    certified: state.certified,
    gap: START_GAP,
    highestLanded: state.highestLanded,
  };
  if (state.gap.active || !isStartGapSpent(facts)) return;
  const reason = `start gap spent: every sequence below ${state.certified + START_GAP} consumed, none certifiable`;
  const cause = new WriterReopenedError(state.session.prefix, state.session.epoch, reason);
  discardOpenBatch(state, cause);
  failBatches(state, pipeline.toArray(), cause);
  state.gap.start(
    state.session,
    state.metrics,
    () => !state.stopping,
    (error) => {
      if (error === null) {
        // The session was re-opened in place: start over from its start object.
        state.nextSeq = state.session.nextSeq;
        state.certified = state.highestLanded = state.session.startObject.seq;
        state.lastTail = state.control().tail;
      } else {
        poison(state, error instanceof FencedError ? error : new PoisonedError(error));
      }
      state.kick();
    },
  );
}
