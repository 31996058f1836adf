/**
 * The commit front (wal.md "Writing": indexing and acknowledging; control.md point 3): created
 * batches are indexed strictly in sequence order; with `ackFence: register` a durability-fence
 * round - one at a time, started after every batch it covers was durable - passes before they
 * are committed and acknowledged (commit.ts). A passed round also certifies, as B, the highest
 * sequence known to exist before it started. It never reports a batch durable before its round
 * passed, never commits out of sequence order, and never starts a round while batches of the
 * last one still wait their turn (a later round's failure must not reach them).
 */
import { PoisonedError } from '../errors';
import { runFenceRound } from '../durability-fence';
import { commitBatch, commitNextFenced, settleDurableWaiters } from './commit';
import { dropBacklog, failBatches, poison } from './failures';
import { maxSeq, type FenceRound, type WriteState } from './write-state';

/** Indexes, strictly in sequence order, the created batches at the front of the pipeline. */
export function indexCreatedPrefix(state: WriteState): void {
  // A copy: with ackFence 'none' a commit takes the batch out of the pipeline while the loop
  // runs, and iterating the live pipeline would skip the batch behind each commit.
  for (const batch of state.pipeline.toArray()) {
    if (batch.phase === 'indexed' || batch.phase === 'fencing') continue;
    if (batch.phase !== 'created') return;
    state.pipeline.move(batch, 'indexed');
    if (state.config.ackFence === 'none') {
      // The RFC's behaviour: no fence, so nothing but the index certifies the gap.
      state.certified = maxSeq(state.certified, batch.seq);
      const failure = commitBatch(state, batch);
      if (failure !== null) return poison(state, failure);
    }
  }
}

/** Starts a fence round over everything indexed and not yet covered (rounds are serialized). */
export function startFenceRound(state: WriteState): void {
  if (state.round !== null || state.config.ackFence === 'none' || state.fenced.length > 0) return;
  const { pipeline } = state;
  // Nothing indexed to cover and nothing landed to certify: most steps end here, unallocated.
  if (pipeline.count('indexed') === 0 && !shouldCertifyLanded(state)) return;
  const covers = pipeline.filter((b) => b.phase === 'indexed');
  for (const batch of covers) pipeline.move(batch, 'fencing');
  const round: FenceRound = { covers, candidate: state.highestLanded, startedAt: Date.now() };
  state.round = round;
  runFenceRound(state.session.register, state.fence, (s) =>
    state.metrics.fenceReadSeconds.observe(s),
  ).then(
    (result) => {
      state.round = null;
      if (state.terminal !== null) return state.kick();
      if (result.kind === 'current') {
        onRoundPassed(state, round);
      } else if (result.kind === 'fenced') {
        poison(state, result.error);
      } else {
        onFenceDeadline(state, round, result.error);
      }
      state.kick();
    },
    (error: unknown) => {
      state.round = null;
      poison(state, new PoisonedError(error instanceof Error ? error : new Error(String(error))));
      state.kick();
    },
  );
}

/**
 * Objects that landed but were never acknowledged (orphans of failed batches, objects found
 * on a clash) still count for B once a read that started after them passed: a newer writer
 * lists them. Without this a writer whose failures consumed the whole gap would stall.
 */
function shouldCertifyLanded(state: WriteState): boolean {
  if (state.highestLanded <= state.certified) return false;
  const first = state.pipeline.firstQueued();
  return first !== undefined && !state.withinGap(first.seq);
}

function onRoundPassed(state: WriteState, round: FenceRound): void {
  state.certified = maxSeq(state.certified, round.candidate);
  state.fenced.push(...round.covers);
  settleDurableWaiters(state);
  commitFencedTurn(state);
}

/**
 * Commits the next fenced batch and, while more wait, yields to the event loop before the
 * one after: each commit resolves up to a batch's worth of appends at once, and their
 * continuations run before the loop turns again. One batch per turn keeps the host's event
 * loop (Electron's main process, whose IPC waits on it) responsive during a saturating run.
 * Order is kept: batches wait in sequence order, and nothing else commits meanwhile.
 */
function commitFencedTurn(state: WriteState): void {
  const failure = commitNextFenced(state);
  if (failure !== null) return poison(state, failure);
  if (state.fenced.length === 0 || state.commitTurnScheduled) return;
  state.commitTurnScheduled = true;
  setImmediate(() => {
    state.commitTurnScheduled = false;
    if (state.terminal === null) commitFencedTurn(state);
    state.kick();
  });
}

function onFenceDeadline(state: WriteState, round: FenceRound, error: unknown): void {
  const cause = error instanceof Error ? error : new Error(String(error));
  if (state.config.ackMode === 'durable') {
    // Its batches fail as transient and are unindexed; so does every batch linked above them.
    failBatches(state, state.pipeline.toArray(), cause);
  } else if (state.stopping) {
    dropBacklog(state, state.pipeline.toArray());
  } else {
    for (const batch of round.covers)
      if (batch.phase === 'fencing') state.pipeline.move(batch, 'indexed');
  }
}
