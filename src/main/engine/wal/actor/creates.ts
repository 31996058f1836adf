/**
 * Creates in flight (wal.md "Writing": creates; "Failure matrix"): sealed batches are handed
 * to the uploader in sequence order, at most `maxInFlightCreates` at once (orphans count),
 * each only below B + 64; each outcome comes back as an event and is judged by the failure
 * matrix (failure-matrix.ts) and applied here. It must never start a create at or beyond
 * B + 64 nor create a sequence twice except the `enqueued` retry of the same bytes.
 */
import { ConflictingObjectError, PoisonedError } from '../errors';
import { createObject, type CreateOutcome } from '../uploader';
import { indexCreatedPrefix } from './commit-front';
import { judgeCreate } from './failure-matrix';
import { dropBacklog, failUnindexed, haltAsFenced, poison } from './failures';
import { isUnindexed, type SealedBatch } from './sealed-batch';
import { maxSeq, type WriteState } from './write-state';

/** Starts creates in sequence order, within the in-flight limit and the start gap. */
export function startCreates(state: WriteState): void {
  const { pipeline } = state;
  // Nothing waits for a create: most steps end here, without a clock read or a pass.
  if (pipeline.count('queued') === 0 && pipeline.count('retry-wait') === 0) return;
  const now = Date.now();
  for (const batch of pipeline) {
    if (state.createsInFlight() >= state.config.maxInFlightCreates) return;
    if (batch.phase === 'retry-wait') {
      if (batch.retryAt <= now && state.withinGap(batch.seq)) startCreate(state, batch);
      continue;
    }
    if (batch.phase !== 'queued') continue;
    if (!state.withinGap(batch.seq)) return;
    startCreate(state, batch);
  }
}

function startCreate(state: WriteState, batch: SealedBatch): void {
  state.pipeline.move(batch, 'creating');
  batch.attempt += 1;
  batch.createStartedAt = Date.now();
  state.createStarted(batch);
  void createObject(state.session.io, batch.key, batch.encoded.bytes).then((outcome) =>
    onCreateOutcome(state, batch, outcome),
  );
}

function onCreateOutcome(state: WriteState, batch: SealedBatch, outcome: CreateOutcome): void {
  // A batch retired while its create ran: that create was an orphan.
  if (!state.createEnded(batch)) state.orphanCreates -= 1;
  if (outcome.kind === 'created' || outcome.kind === 'conflict') {
    state.highestLanded = maxSeq(state.highestLanded, batch.seq);
  }
  if (batch.phase !== 'failed' && state.terminal === null) judge(state, batch, outcome);
  state.kick();
}

/** The failure matrix, applied. */
function judge(state: WriteState, batch: SealedBatch, outcome: CreateOutcome): void {
  const { metrics } = state;
  const verdict = judgeCreate(outcome, {
    ackMode: state.config.ackMode,
    stopping: state.stopping,
    epoch: state.session.epoch,
  });
  if (outcome.kind === 'conflict') metrics.createConflicts.inc();
  if (outcome.kind === 'transient') metrics.createFailures.inc();
  switch (verdict) {
    case 'index':
      state.pipeline.move(batch, 'created');
      metrics.createdObjects.inc();
      metrics.objectBytes.observe(batch.encoded.bytes.length);
      metrics.objectEntries.observe(batch.entries);
      indexCreatedPrefix(state);
      return;
    case 'fail-transient':
      failUnindexed(state, failureOf(batch, outcome));
      return;
    case 'retry':
      retryLater(state, batch);
      return;
    case 'drop-backlog':
      dropBacklog(state, state.pipeline.filter(isUnindexed));
      return;
    case 'poison-fenced':
      haltAsFenced(state, outcome.kind === 'conflict' ? outcome.epoch : null);
      return;
    case 'poison':
      poison(state, new PoisonedError(failureOf(batch, outcome)));
      return;
  }
}

/** enqueued: the same bytes are created again after a delay (doubling, capped at 2 s). */
function retryLater(state: WriteState, batch: SealedBatch): void {
  state.pipeline.move(batch, 'retry-wait');
  const delay = Math.min(2000, state.createRetryDelayMs * 2 ** Math.min(5, batch.attempt - 1));
  batch.retryAt = Date.now() + delay;
  // The timer is the retry's only trigger: when it fires, the batch is due whatever
  // Date.now() says. A timer may fire a millisecond before Date.now() reaches retryAt
  // (libuv's cached loop time), and the wall clock may step back; either way
  // `retryAt <= now` failed in startCreates and nothing ever kicked again: the backlog
  // hung for good (found by the WAL model test, enqueued mode). Only this attempt's
  // timer may release it, so a late timer never shortens a later retry's delay.
  const attempt = batch.attempt;
  setTimeout(() => {
    if (batch.phase === 'retry-wait' && batch.attempt === attempt) batch.retryAt = 0;
    state.kick();
  }, delay);
}

/** The error the waiters of a failed or poisoning create see. */
function failureOf(batch: SealedBatch, outcome: CreateOutcome): Error {
  switch (outcome.kind) {
    case 'transient':
    case 'terminal':
      return outcome.error;
    case 'conflict':
      return new ConflictingObjectError(
        batch.key,
        outcome.epoch === null
          ? 'an unreadable object holds the sequence'
          : `an object of epoch ${outcome.epoch} holds the sequence (this writer has epoch ${batch.epoch})`,
      );
    case 'created':
      return new Error(`WAL object ${batch.key} was created`);
  }
}
