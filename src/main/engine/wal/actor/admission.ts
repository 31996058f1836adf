/**
 * Admission (wal.md "Writing": admission, backpressure): the command queue run in arrival
 * order - appends admitted into the one open batch, which assigns their ids, and register
 * changes (an `obsolete`'s CAS, the region table, GC's boundary) run one at a time between
 * them. Decides when an append must wait: no room in the pipeline, and in `enqueued` mode
 * too many unpersisted bytes or too old a backlog. It never drops or reorders a command and
 * never acknowledges a `durable` append (the commit front does).
 */
import type { AppendResult, WalEntry } from '../entry';
import { FencedError } from '../errors';
import { MAX_SEQ } from '../ids';
import { appendBytes, OpenBatch } from './open-batch';
import { poison } from './failures';
import { seal } from './sealing';
import type { AppendCommand, Command, ControlCommand, WriteState } from './write-state';

/** Read once: under tsx an imported binding is a getter, and this runs once per batch. */
const LAST_SEQ = MAX_SEQ;

/** What an admitted command's entries become (see `AppendCommand.entries`). */
const ADMITTED: readonly WalEntry[] = Object.freeze([]);

/** What an append's result is before it is admitted; never handed to a caller. */
const NOT_YET_ADMITTED: AppendResult = Object.freeze({ lastEntryIds: new Map() });

export function appendCommand(
  entries: readonly WalEntry[],
  arrivedAt: number,
  resolve: (result: AppendResult) => void,
  reject: (error: unknown) => void,
): AppendCommand {
  return {
    kind: 'append',
    entries,
    arrivedAt,
    stalledSince: null,
    result: NOT_YET_ADMITTED,
    resolve,
    reject,
  };
}

export function enqueueControl(
  state: WriteState,
  kind: ControlCommand['kind'],
  start: ControlCommand['start'],
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    state.commands.push({ kind, start, resolve, reject });
    state.kick();
  });
}

/** Runs the queue from its head until a command must wait (backpressure or a CAS running). */
export function drainCommands(state: WriteState): void {
  if (state.commands.length === 0) return;
  // One clock read for the whole run: appends admitted together are admitted at one time.
  const now = Date.now();
  while (!state.commandBusy && state.terminal === null && !state.halted) {
    const command: Command | undefined = state.commands.first();
    if (command === undefined) return;
    if (command.kind === 'append') {
      if (!tryAdmit(state, command, now)) {
        if (command.stalledSince === null) {
          command.stalledSince = now;
          state.metrics.stalledAppends.inc();
        }
        return;
      }
      state.commands.shift();
    } else {
      state.commands.shift();
      runControl(state, command);
    }
  }
}

function runControl(state: WriteState, command: ControlCommand): void {
  let pending: Promise<void> | null;
  try {
    pending = command.start();
  } catch (error) {
    command.reject(error);
    return;
  }
  if (pending === null) {
    command.resolve();
    return;
  }
  state.commandBusy = true;
  pending.then(
    () => {
      state.commandBusy = false;
      command.resolve();
      state.kick();
    },
    (error: unknown) => {
      state.commandBusy = false;
      if (error instanceof FencedError) poison(state, error);
      command.reject(error);
      state.kick();
    },
  );
}

/** Admits one append into the open batch, or says it must wait (backpressure). */
function tryAdmit(state: WriteState, command: AppendCommand, now: number): boolean {
  const { config } = state;
  if (state.open !== null && !state.open.fits(command.entries)) {
    if (!state.hasPipelineRoom()) return false;
    seal(state);
  }
  if (!state.hasPipelineRoom()) return false;
  if (config.ackMode === 'enqueued' && overUnpersistedLimits(state, command.entries, now)) {
    // Make sure there is an upload to wait for.
    if (state.createsRunning === 0 && state.open !== null) seal(state);
    return false;
  }
  const open = state.open ?? openNewBatch(state, now);
  if (open === null) return false;
  command.result = open.admit(command.entries);
  command.entries = ADMITTED;
  if (command.stalledSince !== null)
    state.metrics.stalledSeconds.inc((now - command.stalledSince) / 1000);
  if (config.ackMode === 'enqueued') {
    command.resolve(command.result);
    state.metrics.appendAckSeconds.observe((now - command.arrivedAt) / 1000);
  } else {
    open.waiters.push(command);
  }
  if (open.bytes >= config.maxBatchBytes) {
    state.openDue = true;
    if (state.hasPipelineRoom()) seal(state);
  }
  return true;
}

/** A new open batch under the next sequence, due `flushIntervalMs` from now; null past the last sequence. */
function openNewBatch(state: WriteState, now: number): OpenBatch | null {
  // Only here: while a batch is open the next sequence is the open batch's own.
  if (state.nextSeq > LAST_SEQ) return null;
  const batch = new OpenBatch(state.nextSeq, now);
  state.open = batch;
  state.openDue = false;
  state.flushTimer = setTimeout(() => {
    if (state.open === batch) {
      state.openDue = true;
      state.kick();
    }
  }, state.config.flushIntervalMs);
  return batch;
}

/** Bytes sealed or admitted and not yet committed (enqueued backpressure, the state view). */
export function unpersistedBytes(state: WriteState): number {
  let bytes = state.open?.bytes ?? 0;
  for (const batch of state.pipeline) bytes += batch.encoded.bytes.length;
  return bytes;
}

function overUnpersistedLimits(
  state: WriteState,
  entries: readonly WalEntry[],
  now: number,
): boolean {
  const bytes = unpersistedBytes(state);
  if (bytes > 0 && bytes + appendBytes(entries) > state.config.maxUnpersistedBytes) return true;
  const oldest = state.pipeline.first()?.firstAdmittedAt ?? state.open?.openedAt;
  return oldest !== undefined && now - oldest >= state.config.maxUnpersistedAgeMs;
}
