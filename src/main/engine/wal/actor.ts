/**
 * The writer actor: the one owner of a store's mutable write state - the open batch, the
 * pipeline of sealed batches, the creates in flight, the fence rounds, the certified sequence
 * B of the start gap, the durable ids and every waiter (wal.md "Writing", "Failure matrix";
 * control.md points 2 and 3). Everything it changes it changes inside `kick()`, synchronously,
 * from one event at a time (a command, a create's outcome, a fence result, a timer): there
 * are no locks because there is no interleaving inside a step. I/O is started from a step and
 * its result comes back as the next event.
 *
 * This file is the actor's public face and its step; each concern the step runs lives in
 * actor/: admission, sealing, creates, commit-front (with commit), failures, stop, snapshot,
 * over the one state of write-state.ts.
 *
 * It must never: report anything durable before a fence read that started after the object
 * was durable (unless `ackFence: 'none'`); start a create at or beyond B + 64; reuse a
 * sequence; index out of sequence order; acknowledge an append out of order.
 */
import type { AppendResult, WalEntry } from './entry';
import { StoppedError } from './errors';
import { seqOf, type EntryId, type Seq } from './ids';
import { planChangesAnything, planObsolete, type ObsoleteFacts } from './obsolete';
import type { RegionId } from './region-id';
import type { ControlState } from './session';
import type { CatalogObject } from './catalog';
import type { WriterSession } from './session';
import type { WalMetrics } from './metrics';
import { withWatermark } from './actor/control-changes';
import { appendCommand, drainCommands, enqueueControl } from './actor/admission';
import { startFenceRound } from './actor/commit-front';
import { startCreates } from './actor/creates';
import { checkExhausted, healSpentGap } from './actor/failures';
import { checkAppendFitsAnObject, largestEntryBytes } from './actor/open-batch';
import { sealWhenDue, seal } from './actor/sealing';
import { snapshotOf, type WriterStateSnapshot } from './actor/snapshot';
import { finishStopWhenDone, stopDurable, writeTailHint, type StopReport } from './actor/stop';
import { maxSeq, WriteState, type WriterActorOptions } from './actor/write-state';
import { startApplyingRequests, type AppliedRequests } from './watermark-requests/writer-apply';

export { START_GAP } from './recovery/start-sequence';
export type { WriterActorOptions } from './actor/write-state';
export type { StopReport } from './actor/stop';
export type { CreateInFlight, WriterStateSnapshot } from './actor/snapshot';

const NO_ENTRIES: readonly WalEntry[] = Object.freeze([]);

export class WriterActor {
  readonly metrics: WalMetrics;
  private readonly writeState: WriteState;
  /** `largestEntryBytes` of the store's `maxObjectBytes`: every append checks against it. */
  private readonly largestEntry: number;
  private kicking = false;
  private kickAgain = false;
  /** A step is queued for the appends that arrived since the last one (see `append`). */
  private admissionQueued = false;
  /** When the first append of that burst arrived: every append of it counts from here. */
  private burstArrivedAt = 0;
  /** The entries of the append whose promise is being made (see `queueArriving`). */
  private arrivingEntries: readonly WalEntry[] = NO_ENTRIES;
  private stopResult: Promise<StopReport> | null = null;
  private resolveStop: ((report: StopReport) => void) | null = null;
  private readonly listeners = new Set<(state: WriterStateSnapshot) => void>();
  private notifyScheduled = false;

  constructor(
    private readonly session: WriterSession,
    options: WriterActorOptions = {},
  ) {
    const state = new WriteState(session, options, () => this.kick());
    this.writeState = state;
    this.metrics = state.metrics;
    this.largestEntry = largestEntryBytes(state.config.maxObjectBytes);
    state.tailTimer = setInterval(() => writeTailHint(state), options.tailIntervalMs ?? 10_000);
    state.tailTimer.unref?.();
  }

  // ---- the public commands -------------------------------------------------------------

  append(entries: readonly WalEntry[]): Promise<AppendResult> {
    this.checkUsable();
    checkAppendFitsAnObject(entries, this.largestEntry);
    if (entries.length === 0) return Promise.resolve({ lastEntryIds: new Map() });
    this.arrivingEntries = entries;
    return new Promise<AppendResult>(this.queueArriving);
  }

  /**
   * The executor of every append's promise, made once: the Promise constructor runs it at
   * once, so `arrivingEntries` is the append's own, and no closure is made per append.
   */
  private readonly queueArriving = (
    resolve: (result: AppendResult) => void,
    reject: (error: unknown) => void,
  ): void => {
    this.queueAdmission();
    this.writeState.commands.push(
      appendCommand(this.arrivingEntries, this.burstArrivedAt, resolve, reject),
    );
    this.arrivingEntries = NO_ENTRIES;
  };

  /**
   * Appends come in bursts: a commit acknowledges a batch's worth at once, and their callers'
   * next appends all run in the same microtask checkpoint. One step, queued behind them,
   * admits the whole burst (and reads the clock once), where a step per append would run
   * every concern of the step again for each. Anything that could observe the queued appends
   * (`state`, `stop`, the handed-out ids, `waitDurable`) runs the step first, and a control
   * command queues behind them, so callers see what a step per append showed them; only the
   * append-ack metric counts a burst's appends from the first one's arrival.
   */
  private queueAdmission(): void {
    if (this.admissionQueued) return;
    this.admissionQueued = true;
    this.burstArrivedAt = Date.now();
    queueMicrotask(this.admitQueuedAppends);
  }

  private readonly admitQueuedAppends = (): void => {
    if (this.admissionQueued) this.kick();
  };

  /** Raises the region's watermark (and, with it, the sequence floor) once the register CAS passed. */
  obsolete(region: RegionId, id: EntryId | 'latest'): Promise<void> {
    this.checkUsable();
    const state = this.writeState;
    return enqueueControl(state, 'obsolete', () => {
      const target = id === 'latest' ? state.durableEntryId(region) : id;
      const facts = this.obsoleteFacts(region);
      const plan = planObsolete(region, target, facts);
      if (!planChangesAnything(plan, facts)) return null;
      return this.session.register
        .update((control) => withWatermark(control, region, plan.watermark))
        .then(() => {
          // The CAS passed: watermark, floor and certified sequence move together.
          this.session.catalog.raiseWatermark(region, plan.watermark);
          if (plan.floor !== null && plan.floor > state.nextSeq && state.open === null)
            state.nextSeq = plan.floor;
          state.certified = maxSeq(state.certified, seqOf(plan.watermark));
        });
    });
  }

  /**
   * Settles the register's pending watermark requests by one CAS, in command order
   * (watermark-requests/writer-apply.ts); `report` hears what it settled once the CAS passed.
   */
  applyWatermarkRequests(report: (applied: AppliedRequests) => void): Promise<void> {
    this.checkUsable();
    return enqueueControl(this.writeState, 'control', () =>
      startApplyingRequests(this.writeState, report),
    );
  }

  /**
   * GC's boundary CAS (control.md point 5), in command order: `decide` picks the boundary from
   * the indexed chain and the persisted control state; once the CAS passed (which proves this
   * writer still holds the epoch - `Fenced` poisons it otherwise) the catalog forgets the
   * objects below it. Only the CAS runs here: listing and deletes stay off the write path.
   */
  raiseBoundary(
    decide: (chain: Iterable<CatalogObject>, control: ControlState) => Seq,
  ): Promise<{ previous: Seq; boundary: Seq }> {
    this.checkUsable();
    let raised = { previous: 0n, boundary: 0n };
    return enqueueControl(this.writeState, 'control', () => {
      const before = this.session.register.current().control;
      const target = decide(this.session.catalog.objects(), before);
      return this.session.register
        .update((control) =>
          target > control.boundary ? { ...control, boundary: target } : { ...control },
        )
        .then((control) => {
          this.session.catalog.dropBelow(control.boundary);
          raised = { previous: before.boundary, boundary: control.boundary };
        });
    }).then(() => raised);
  }

  /** A register change made in command order (the region table). */
  changeControl(change: (control: ControlState) => ControlState): Promise<void> {
    this.checkUsable();
    return enqueueControl(this.writeState, 'control', () =>
      this.session.register.update(change).then(() => undefined),
    );
  }

  /** Resolves once the region is durable and indexed through `id` (at once in durable mode). */
  waitDurable(region: RegionId, id: EntryId): Promise<void> {
    this.checkUsable();
    this.admitQueuedAppends();
    const state = this.writeState;
    if (state.lost.entries > 0) return Promise.reject(state.lostBacklog());
    if (state.config.ackMode === 'durable') return Promise.resolve();
    const handed = state.handedOutEntryId(region);
    const target = id < handed ? id : handed;
    if (state.durableEntryId(region) >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      state.durableWaiters.push({ region, target, resolve, reject });
    });
  }

  /** The region's latest id: its largest durable, indexed (and fenced) id, or its persisted
   * watermark if larger (wal.md: never below the watermark after GC), 0 if none. */
  durableEntryId(region: RegionId): EntryId {
    return this.writeState.durableEntryId(region);
  }

  /** The largest id handed out for the region (enqueued mode runs ahead of the durable id). */
  handedOutEntryId(region: RegionId): EntryId {
    this.admitQueuedAppends();
    return this.writeState.handedOutEntryId(region);
  }

  /** Throws the terminal error verbatim once poisoned, `Stopped` once stop began. */
  checkUsable(): void {
    if (this.writeState.terminal !== null) throw this.writeState.terminal;
    if (this.writeState.stopping) throw new StoppedError(this.session.prefix);
  }

  terminalError(): Error | null {
    return this.writeState.terminal;
  }

  stop(): Promise<StopReport> {
    if (this.stopResult !== null) return this.stopResult;
    this.admitQueuedAppends();
    const state = this.writeState;
    state.stopping = true;
    this.stopResult = new Promise<StopReport>((resolve) => {
      this.resolveStop = resolve;
    });
    const stoppedError = new StoppedError(this.session.prefix);
    for (const command of state.commands.takeAll()) command.reject(stoppedError);
    if (state.terminal === null) {
      if (state.config.ackMode === 'durable') stopDurable(state, stoppedError);
      else if (state.open !== null) seal(state);
    }
    this.kick();
    return this.stopResult;
  }

  state(): WriterStateSnapshot {
    this.admitQueuedAppends();
    return snapshotOf(this.writeState);
  }

  onStateChange(listener: (state: WriterStateSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- the step: every decision, synchronously --------------------------------------------

  private kick(): void {
    if (this.kicking) {
      this.kickAgain = true;
      return;
    }
    this.kicking = true;
    try {
      do {
        this.kickAgain = false;
        // This step admits every queued append: the queued admission has nothing left to do.
        this.admissionQueued = false;
        this.step();
      } while (this.kickAgain);
    } finally {
      this.kicking = false;
    }
    this.scheduleNotify();
  }

  private step(): void {
    const state = this.writeState;
    if (state.terminal === null && !state.halted && !state.gap.active) {
      drainCommands(state);
      sealWhenDue(state);
      startCreates(state);
      startFenceRound(state);
      checkExhausted(state);
      healSpentGap(state);
    }
    finishStopWhenDone(state, (report) => {
      this.resolveStop?.(report);
      this.scheduleNotify();
    });
  }

  private obsoleteFacts(region: RegionId): ObsoleteFacts {
    const state = this.writeState;
    const firstUnsettled = state.pipeline.first()?.seq ?? state.open?.seq ?? state.nextSeq;
    return {
      ackMode: state.config.ackMode,
      durableId: state.durableEntryId(region),
      handedOutId: state.handedOutEntryId(region),
      nextSeq: state.nextSeq,
      firstUnsettledSeq: firstUnsettled,
      openBatchHoldsEntries: state.open !== null && state.open.entries > 0,
      currentWatermark: this.session.catalog.watermark(region),
    };
  }

  private scheduleNotify(): void {
    if (this.notifyScheduled || this.listeners.size === 0) return;
    this.notifyScheduled = true;
    queueMicrotask(() => {
      this.notifyScheduled = false;
      const snapshot = snapshotOf(this.writeState);
      for (const listener of this.listeners) listener(snapshot);
    });
  }
}
