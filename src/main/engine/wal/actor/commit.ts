/**
 * Committing one batch (wal.md "Writing": indexing and acknowledging): the batch at the front
 * of the pipeline, indexed in the catalog, becomes durable for readers and its appends are
 * acknowledged, in admission order; `waitDurable` callers whose id it reaches return. The
 * caller has already made sure the batch may be reported durable (its fence round passed, or
 * `ackFence: 'none'`). It never poisons: a failure is returned for the caller to poison with,
 * so failures.ts can commit what passed its fence without a cycle between the two.
 */
import { PoisonedError, SequenceExhaustedError } from '../errors';
import { MAX_SEQ } from '../ids';
import type { SealedBatch } from './sealed-batch';
import type { WriteState } from './write-state';

/** Read once: under tsx an imported binding is a getter, and this runs once per batch. */
const LAST_SEQ = MAX_SEQ;

/** Commits the front batch; returns the error to poison with (the catalog refused it, or it
 * took the last representable sequence - acknowledged first), else null. */
export function commitBatch(state: WriteState, batch: SealedBatch): Error | null {
  const { metrics } = state;
  try {
    state.session.catalog.index({
      seq: batch.seq,
      epoch: batch.epoch,
      link: batch.link,
      size: batch.encoded.bytes.length,
      segments: batch.encoded.segments,
    });
  } catch (error) {
    return new PoisonedError(error instanceof Error ? error : new Error(String(error)));
  }
  state.pipeline.take(batch, 'committed');
  state.forgetHandedOut(batch);
  state.gap.landed();
  const now = Date.now();
  metrics.indexedObjects.inc();
  metrics.indexedBytes.inc(batch.encoded.bytes.length);
  metrics.sealToDurableSeconds.observe((now - batch.sealedAt) / 1000);
  for (const waiter of batch.waiters) {
    waiter.resolve(waiter.result);
    metrics.appendAckSeconds.observe((now - waiter.arrivedAt) / 1000);
  }
  settleDurableWaiters(state);
  // Created and indexed: the store has its bytes and the catalog its segment index.
  state.objectBuffers.give(batch.encoded.bytes);
  return batch.seq === LAST_SEQ ? new SequenceExhaustedError(batch.seq) : null;
}

/** `waitDurable` callers whose region's latest id reached their target return. */
export function settleDurableWaiters(state: WriteState): void {
  if (state.durableWaiters.length === 0) return;
  state.durableWaiters = state.durableWaiters.filter((waiter) => {
    if (state.durableEntryId(waiter.region) < waiter.target) return true;
    waiter.resolve();
    return false;
  });
}

/**
 * The next fenced batch waiting its turn, committed; skips batches failed since their round
 * passed. Returns the error to poison with, else null (also when nothing was waiting).
 */
export function commitNextFenced(state: WriteState): Error | null {
  for (;;) {
    const batch = state.fenced[0];
    if (batch === undefined) return null;
    if (batch.phase === 'fencing' && state.pipeline.first() !== batch) {
      // Cannot happen (batches are indexed, fenced and committed in sequence order); were it
      // to, committing it would break that order. Giving up keeps every loop over it finite.
      state.fenced.length = 0;
      return null;
    }
    state.fenced.shift();
    if (batch.phase !== 'fencing') continue;
    const failure = commitBatch(state, batch);
    if (failure !== null) state.fenced.length = 0;
    return failure;
  }
}
