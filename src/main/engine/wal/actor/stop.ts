/**
 * Stop and the tail hint: the register records a writer leaves outside command order
 * (wal.md "Stop"; control.md: the tail hint, the epoch's seal). `durable`: the open batch and
 * the sealed batches whose create has not started fail with `Stopped`; creates in flight
 * finish and are acknowledged in order; then a clean stop records the epoch's seal
 * (`lastSeq`, `stopped`) and the tail in one CAS. A hint's write failing changes nothing but a
 * `Fenced`, which poisons. It never records a seal while anything could still be committed.
 */
import { DEFAULT_MAX_DIRECTORY_BYTES } from '../../manifest/manifest-store';
import { isStorageError } from '../../objectio/errors';
import { FencedError, type LostBacklogError, type StoppedError } from '../errors';
import type { Seq } from '../ids';
import { withStoppedSeal, withTail } from './control-changes';
import { discardOpenBatch, failBatches, poison } from './failures';
import type { WriteState } from './write-state';

export interface StopReport {
  /** Whether the epoch's seal (and the tail) were recorded in the register. */
  readonly sealed: boolean;
  /** The last indexed object when the store stopped. */
  readonly lastSeq: Seq | null;
  /** enqueued: the backlog that will never be durable, exactly; null when nothing was lost. */
  readonly lost: LostBacklogError | null;
  /** The terminal error if the store was poisoned. */
  readonly terminal: Error | null;
}

/** durable: the open batch and sealed batches whose create has not started get `Stopped`. */
export function stopDurable(state: WriteState, stopped: StoppedError): void {
  discardOpenBatch(state, stopped);
  failBatches(
    state,
    state.pipeline.filter((b) => b.phase === 'queued'),
    stopped,
  );
}

/** Once nothing is left to commit (or the store is poisoned), records the stop and reports it. */
export function finishStopWhenDone(state: WriteState, report: (stop: StopReport) => void): void {
  if (!state.stopping || state.stopFinishing) return;
  const settled =
    state.pipeline.length === 0 &&
    state.round === null &&
    !state.commandBusy &&
    !state.halted &&
    !state.gap.active;
  if (state.terminal === null && !settled) return;
  state.stopFinishing = true;
  if (state.tailTimer !== null) clearInterval(state.tailTimer);
  void recordStop(state).then((stop) => {
    state.stopped = true;
    report(stop);
  });
}

/** A clean stop records the epoch's seal (lastSeq, 'stopped') and the tail in one CAS. */
async function recordStop(state: WriteState): Promise<StopReport> {
  const tip = state.session.catalog.tip();
  const lastSeq = tip?.seq ?? null;
  const lost = state.lost.entries > 0 || state.lost.batches > 0 ? state.lostBacklog() : null;
  if (state.terminal !== null) return { sealed: false, lastSeq, lost, terminal: state.terminal };
  const deadline = Date.now() + state.fence.deadlineMs;
  for (;;) {
    try {
      await state.session.register.update((control) => {
        const sealed = withStoppedSeal(
          control,
          state.session.epoch,
          lastSeq,
          directoryBudget(state),
        );
        return tip === null ? sealed : withTail(sealed, tip);
      });
      return { sealed: true, lastSeq, lost, terminal: null };
    } catch (error) {
      if (error instanceof FencedError) {
        poison(state, error);
        return {
          sealed: false,
          lastSeq,
          lost: state.lost.entries > 0 ? state.lostBacklog() : null,
          terminal: error,
        };
      }
      if (!isStorageError(error) || Date.now() >= deadline) {
        return { sealed: false, lastSeq, lost, terminal: null };
      }
      await new Promise((resolve) => setTimeout(resolve, state.fence.retryDelayMs));
    }
  }
}

function directoryBudget(state: WriteState): number {
  // EpochRegister knows its store's budget; the seam's interface does not carry it.
  const register = state.session.register;
  return 'directoryBudget' in register && typeof register.directoryBudget === 'number'
    ? register.directoryBudget
    : DEFAULT_MAX_DIRECTORY_BYTES;
}

/** Records the indexed tip as the register's tail hint, when it moved since the last one. */
export function writeTailHint(state: WriteState): void {
  const tip = state.session.catalog.tip();
  if (tip === null || state.terminal !== null || state.stopping || state.gap.active) return;
  const last = state.lastTail;
  if (last !== null && last.seq === tip.seq && last.epoch === tip.epoch) return;
  state.session.register
    .update((control) => withTail(control, tip))
    .then(
      () => {
        state.lastTail = tip;
      },
      (error: unknown) => {
        // A hint: only a fence matters; a transient failure waits for the next tick.
        if (error instanceof FencedError) {
          poison(state, error);
          state.kick();
        }
      },
    );
}
