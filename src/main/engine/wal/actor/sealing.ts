/**
 * Sealing (wal.md "Writing": sealing): the open batch becomes a sealed batch - encoded under
 * its sequence with this writer's epoch and a link to its pipeline predecessor - at the back
 * of the pipeline, when it is due (full, or `flushIntervalMs` old) and the pipeline has room.
 * It never starts a create (creates.ts does) and never reuses a sequence: the next sequence
 * moves past the sealed one before anything can fail.
 */
import { PoisonedError } from '../errors';
import { encodeObject, type EncodedObject, type ObjectLink } from '../format';
import { objectKey } from '../keys';
import { poison } from './failures';
import type { WriteState } from './write-state';

export function sealWhenDue(state: WriteState): void {
  if (state.open !== null && state.openDue && state.hasPipelineRoom()) seal(state);
}

/** Encodes the open batch under its sequence, linked to its pipeline predecessor. */
export function seal(state: WriteState): void {
  const open = state.open;
  if (open === null) return;
  state.open = null;
  state.openDue = false;
  if (state.flushTimer !== null) clearTimeout(state.flushTimer);
  state.flushTimer = null;
  state.nextSeq = open.seq + 1n;
  const link = pipelineTip(state);
  let encoded: EncodedObject;
  try {
    encoded = encodeObject(
      { seq: open.seq, epoch: state.session.epoch, link, segments: open.segments() },
      (size) => state.objectBuffers.takeToOverwrite(size),
    );
  } catch (error) {
    for (const waiter of open.waiters) waiter.reject(error);
    poison(state, new PoisonedError(error instanceof Error ? error : new Error(String(error))));
    return;
  }
  const lastIds = open.lastIds();
  state.rememberHandedOut(lastIds);
  state.pipeline.push({
    seq: open.seq,
    key: objectKey(state.session.prefix, open.seq),
    epoch: state.session.epoch,
    link,
    encoded,
    entries: open.entries,
    waiters: open.waiters,
    lastIds,
    firstAdmittedAt: open.openedAt,
    sealedAt: Date.now(),
    phase: 'queued',
    attempt: 0,
    createStartedAt: null,
    createRunning: false,
    retryAt: 0,
  });
}

/** The last sealed batch not yet committed, else the last indexed object. */
function pipelineTip(state: WriteState): ObjectLink | null {
  const last = state.pipeline.last();
  if (last !== undefined) return { seq: last.seq, epoch: last.epoch };
  return state.session.catalog.tip();
}
