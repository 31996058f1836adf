/**
 * The writer actor: the one owner of a store's mutable write state - the open batch, the
 * pipeline of sealed batches, the creates in flight, the fence rounds, the certified sequence
 * B of the start gap, the durable ids and every waiter (wal.md "Writing", "Failure matrix";
 * control.md points 2 and 3). Everything it changes it changes inside `kick()`, synchronously,
 * from one event at a time (a command, a create's outcome, a fence result, a timer): there
 * are no locks because there is no interleaving inside a step. I/O is started from a step and
 * its result comes back as the next event.
 *
 * It must never: report anything durable before a fence read that started after the object
 * was durable (unless `ackFence: 'none'`); start a create at or beyond B + 64; reuse a
 * sequence; index out of sequence order; acknowledge an append out of order.
 */
import { CairnError } from '../errors';
import { DEFAULT_MAX_DIRECTORY_BYTES } from '../manifest/manifest-store';
import { isStorageError } from '../objectio/errors';
import type { ObjectStoreWalConfig } from './config';
import { runFenceRound, type FenceOptions } from './durability-fence';
import type { AppendResult, WalEntry } from './entry';
import {
  ConflictingObjectError,
  FencedError,
  LostBacklogError,
  PoisonedError,
  SequenceExhaustedError,
  StoppedError,
  WriterReopenedError,
} from './errors';
import { encodeObject, type ObjectLink } from './format';
import { MAX_SEQ, NO_ENTRY, seqOf, type EntryId, type Seq } from './ids';
import { objectKey } from './keys';
import { createWalMetrics, type WalMetrics } from './metrics';
import { planChangesAnything, planObsolete, type ObsoleteFacts } from './obsolete';
import type { RegionId } from './region-id';
import type { ControlState, TailHint, WriterSession } from './session';
import type { CatalogObject } from './catalog';
import { createObject, type CreateOutcome } from './uploader';
import { withStoppedSeal, withTail, withWatermark } from './actor/control-changes';
import { judgeCreate } from './actor/failure-matrix';
import {
  appendBytes,
  checkAppendFitsAnObject,
  OpenBatch,
  type AppendWaiter,
} from './actor/open-batch';
import { isUnindexed, moveTo, type SealedBatch } from './actor/sealed-batch';
import { GapReopener, isStartGapSpent, type ReopenRecord } from './actor/gap-reopen';

/** The start gap of control.md point 2: creates only below B + START_GAP. */
export const START_GAP = 64n;

export interface WriterActorOptions {
  /** A fence round whose reads keep failing fails its batches this long after it started. */
  readonly fenceDeadlineMs?: number;
  readonly fenceRetryDelayMs?: number;
  /** enqueued: first delay before a transiently failed create is tried again (doubles, capped). */
  readonly createRetryDelayMs?: number;
  /** How often the `tail` hint is written (control.md: every 10 s). */
  readonly tailIntervalMs?: number;
  readonly metrics?: WalMetrics;
}

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

export interface CreateInFlight {
  readonly seq: Seq;
  readonly attempt: number;
  readonly elapsedMs: number;
}

export interface WriterStateSnapshot {
  readonly prefix: string;
  readonly epoch: bigint;
  readonly writerId: string;
  readonly ackMode: ObjectStoreWalConfig['ackMode'];
  readonly ackFence: ObjectStoreWalConfig['ackFence'];
  readonly openBatch: {
    readonly seq: Seq;
    readonly entries: number;
    readonly bytes: number;
    readonly ageMs: number;
  } | null;
  /** Sealed batches not yet indexed (what backpressure counts). */
  readonly sealedWaiting: number;
  /** Indexed batches waiting for a fence round. */
  readonly awaitingFence: number;
  readonly createsInFlight: readonly CreateInFlight[];
  readonly orphanCreatesInFlight: number;
  readonly heldAppends: number;
  readonly indexedTip: ObjectLink | null;
  readonly nextSeq: Seq;
  /** B: the highest certified sequence; creates run only below B + 64. */
  readonly certified: Seq;
  readonly gapBlocked: boolean;
  /** Re-opening itself under a new epoch because its start gap was spent (gap-reopen.ts). */
  readonly reopening: ReopenRecord['reopening'];
  readonly reopens: ReopenRecord['reopens'];
  readonly lastReopen: ReopenRecord['lastReopen'];
  readonly fenceRound: { readonly covers: number; readonly elapsedMs: number } | null;
  readonly unpersistedBytes: number;
  readonly stopping: boolean;
  readonly stopped: boolean;
  readonly poisoned: { readonly code: string; readonly message: string } | null;
}

interface AppendCommand {
  readonly kind: 'append';
  readonly entries: readonly WalEntry[];
  readonly arrivedAt: number;
  stalledSince: number | null;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

interface ControlCommand {
  readonly kind: 'obsolete' | 'control';
  /** Runs when the command reaches the head; returns the CAS to await, or null when done. */
  readonly start: () => Promise<void> | null;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

type Command = AppendCommand | ControlCommand;

interface DurableWaiter {
  readonly region: RegionId;
  readonly target: EntryId;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

interface FenceRound {
  readonly covers: readonly SealedBatch[];
  /** Highest sequence known to exist before the round's read started. */
  readonly candidate: Seq;
  readonly startedAt: number;
}

const maxSeq = (a: Seq, b: Seq): Seq => (a > b ? a : b);

export class WriterActor {
  readonly metrics: WalMetrics;
  private readonly config: ObjectStoreWalConfig;
  private readonly fence: FenceOptions;
  private readonly createRetryDelayMs: number;
  private readonly tailIntervalMs: number;

  private nextSeq: Seq;
  /** B of the start gap. */
  private certified: Seq;
  /** Highest sequence this writer has seen holding an object (created, or found on a clash). */
  private highestLanded: Seq;
  private open: OpenBatch | null = null;
  private openDue = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly batches: SealedBatch[] = [];
  private orphanCreates = 0;
  /** Batches whose create is running (orphans are counted apart). */
  private readonly inFlight = new Set<SealedBatch>();
  private readonly commands: Command[] = [];
  private commandBusy = false;
  private round: FenceRound | null = null;
  private readonly handedOut = new Map<RegionId, EntryId>();
  private durableWaiters: DurableWaiter[] = [];
  private terminal: Error | null = null;
  /** Set while a clash is turned into the `Fenced` error naming the new writer. */
  private halted = false;
  private lost = { entries: 0, batches: 0 };
  private stopping = false;
  private stopFinishing = false;
  private stopped = false;
  private stopResult: Promise<StopReport> | null = null;
  private resolveStop: ((report: StopReport) => void) | null = null;
  private tailTimer: ReturnType<typeof setInterval> | null = null;
  private lastTail: TailHint | null;
  private kicking = false;
  private kickAgain = false;
  private readonly listeners = new Set<(state: WriterStateSnapshot) => void>();
  /** Reopens after a spent start gap (actor/gap-reopen.ts). */
  private readonly gap = new GapReopener();
  private notifyScheduled = false;

  constructor(
    private readonly session: WriterSession,
    options: WriterActorOptions = {},
  ) {
    this.config = session.config;
    this.metrics = options.metrics ?? createWalMetrics();
    this.fence = {
      deadlineMs: options.fenceDeadlineMs ?? Math.max(5000, 50 * this.config.flushIntervalMs),
      retryDelayMs: options.fenceRetryDelayMs ?? 50,
    };
    this.createRetryDelayMs = options.createRetryDelayMs ?? 100;
    this.tailIntervalMs = options.tailIntervalMs ?? 10_000;
    this.nextSeq = session.nextSeq;
    this.certified = session.startObject.seq;
    this.highestLanded = session.startObject.seq;
    this.lastTail = session.register.current().control.tail;
    this.tailTimer = setInterval(() => this.writeTailHint(), this.tailIntervalMs);
    this.tailTimer.unref?.();
  }

  // ---- the public commands -------------------------------------------------------------

  append(entries: readonly WalEntry[]): Promise<AppendResult> {
    this.checkUsable();
    checkAppendFitsAnObject(entries, this.config.maxObjectBytes);
    if (entries.length === 0) return Promise.resolve({ lastEntryIds: new Map() });
    return new Promise<AppendResult>((resolve, reject) => {
      this.commands.push({
        kind: 'append',
        entries,
        arrivedAt: Date.now(),
        stalledSince: null,
        resolve,
        reject,
      });
      this.kick();
    });
  }

  /** Raises the region's watermark (and, with it, the sequence floor) once the register CAS passed. */
  obsolete(region: RegionId, id: EntryId | 'latest'): Promise<void> {
    this.checkUsable();
    return this.enqueueControl('obsolete', () => {
      const target = id === 'latest' ? this.durableEntryId(region) : id;
      const facts = this.obsoleteFacts(region);
      const plan = planObsolete(region, target, facts);
      if (!planChangesAnything(plan, facts)) return null;
      return this.session.register
        .update((control) => withWatermark(control, region, plan.watermark))
        .then(() => {
          // The CAS passed: watermark, floor and certified sequence move together.
          this.session.catalog.raiseWatermark(region, plan.watermark);
          if (plan.floor !== null && plan.floor > this.nextSeq && this.open === null)
            this.nextSeq = plan.floor;
          this.certified = maxSeq(this.certified, seqOf(plan.watermark));
        });
    });
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
    return this.enqueueControl('control', () => {
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
    return this.enqueueControl('control', () =>
      this.session.register.update(change).then(() => undefined),
    );
  }

  /** Resolves once the region is durable and indexed through `id` (at once in durable mode). */
  waitDurable(region: RegionId, id: EntryId): Promise<void> {
    this.checkUsable();
    if (this.lost.entries > 0) return Promise.reject(this.lostBacklog());
    if (this.config.ackMode === 'durable') return Promise.resolve();
    const handed = this.handedOut.get(region) ?? NO_ENTRY;
    const target = id < handed ? id : handed;
    if (this.durableEntryId(region) >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.durableWaiters.push({ region, target, resolve, reject });
    });
  }

  /** The region's latest id: its largest durable, indexed (and fenced) id, or its persisted
   * watermark if larger (wal.md: never below the watermark after GC), 0 if none. */
  durableEntryId(region: RegionId): EntryId {
    return this.session.catalog.latestEntryId(region);
  }

  /** The largest id handed out for the region (enqueued mode runs ahead of the durable id). */
  handedOutEntryId(region: RegionId): EntryId {
    const handed = this.handedOut.get(region) ?? NO_ENTRY;
    const durable = this.durableEntryId(region);
    return handed > durable ? handed : durable;
  }

  /** Throws the terminal error verbatim once poisoned, `Stopped` once stop began. */
  checkUsable(): void {
    if (this.terminal !== null) throw this.terminal;
    if (this.stopping) throw new StoppedError(this.session.prefix);
  }

  terminalError(): Error | null {
    return this.terminal;
  }

  stop(): Promise<StopReport> {
    if (this.stopResult !== null) return this.stopResult;
    this.stopping = true;
    this.stopResult = new Promise<StopReport>((resolve) => {
      this.resolveStop = resolve;
    });
    const stoppedError = new StoppedError(this.session.prefix);
    for (const command of this.commands.splice(0)) command.reject(stoppedError);
    if (this.terminal === null) {
      if (this.config.ackMode === 'durable') this.stopDurable(stoppedError);
      else if (this.open !== null) this.seal();
    }
    this.kick();
    return this.stopResult;
  }

  state(): WriterStateSnapshot {
    const now = Date.now();
    const firstQueued = this.batches.find((b) => b.phase === 'queued');
    return {
      prefix: this.session.prefix,
      epoch: this.session.epoch,
      writerId: this.session.writerId,
      ackMode: this.config.ackMode,
      ackFence: this.config.ackFence,
      openBatch:
        this.open === null
          ? null
          : {
              seq: this.open.seq,
              entries: this.open.entries,
              bytes: this.open.bytes,
              ageMs: now - this.open.openedAt,
            },
      sealedWaiting: this.unindexedCount(),
      awaitingFence: this.batches.filter((b) => b.phase === 'indexed' || b.phase === 'fencing')
        .length,
      createsInFlight: this.batches
        .filter((b) => b.phase === 'creating')
        .map((b) => ({
          seq: b.seq,
          attempt: b.attempt,
          elapsedMs: now - (b.createStartedAt ?? now),
        })),
      orphanCreatesInFlight: this.orphanCreates,
      heldAppends: this.commands.filter((c) => c.kind === 'append').length,
      indexedTip: this.session.catalog.tip(),
      nextSeq: this.nextSeq,
      certified: this.certified,
      gapBlocked: firstQueued !== undefined && !this.withinGap(firstQueued.seq),
      ...this.gap.record(),
      fenceRound:
        this.round === null
          ? null
          : { covers: this.round.covers.length, elapsedMs: now - this.round.startedAt },
      unpersistedBytes: this.unpersistedBytes(),
      stopping: this.stopping,
      stopped: this.stopped,
      poisoned:
        this.terminal === null
          ? null
          : {
              code: this.terminal instanceof CairnError ? this.terminal.code : this.terminal.name,
              message: this.terminal.message,
            },
    };
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
        this.step();
      } while (this.kickAgain);
    } finally {
      this.kicking = false;
    }
    this.scheduleNotify();
  }

  private step(): void {
    if (this.terminal === null && !this.halted && !this.gap.active) {
      this.drainCommands();
      this.sealWhenDue();
      this.startCreates();
      this.startFenceRound();
      this.checkExhausted();
      this.healSpentGap();
    }
    this.finishStopWhenDone();
  }

  private drainCommands(): void {
    while (!this.commandBusy && this.terminal === null && !this.halted) {
      const command = this.commands[0];
      if (command === undefined) return;
      if (command.kind === 'append') {
        if (!this.tryAdmit(command)) {
          if (command.stalledSince === null) {
            command.stalledSince = Date.now();
            this.metrics.stalledAppends.inc();
          }
          return;
        }
        this.commands.shift();
      } else {
        this.commands.shift();
        this.runControl(command);
      }
    }
  }

  private runControl(command: ControlCommand): void {
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
    this.commandBusy = true;
    pending.then(
      () => {
        this.commandBusy = false;
        command.resolve();
        this.kick();
      },
      (error: unknown) => {
        this.commandBusy = false;
        if (error instanceof FencedError) this.poison(error);
        command.reject(error);
        this.kick();
      },
    );
  }

  private enqueueControl(
    kind: ControlCommand['kind'],
    start: ControlCommand['start'],
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.commands.push({ kind, start, resolve, reject });
      this.kick();
    });
  }

  /** Admits one append into the open batch, or says it must wait (backpressure). */
  private tryAdmit(command: AppendCommand): boolean {
    if (this.open !== null && !this.open.fits(command.entries)) {
      if (!this.hasPipelineRoom()) return false;
      this.seal();
    }
    if (!this.hasPipelineRoom()) return false;
    if (this.config.ackMode === 'enqueued' && this.overUnpersistedLimits(command.entries)) {
      // Make sure there is an upload to wait for.
      if (this.inFlight.size === 0 && this.open !== null) this.seal();
      return false;
    }
    if (this.nextSeq > MAX_SEQ) return false;
    const now = Date.now();
    if (this.open === null) this.openBatch(now);
    const open: OpenBatch | null = this.open;
    if (open === null) return false;
    const lastEntryIds = open.admit(command.entries);
    for (const [region, id] of lastEntryIds) this.handedOut.set(region, id);
    if (command.stalledSince !== null)
      this.metrics.stalledSeconds.inc((now - command.stalledSince) / 1000);
    const result: AppendResult = { lastEntryIds };
    if (this.config.ackMode === 'enqueued') {
      command.resolve(result);
      this.metrics.appendAckSeconds.observe((now - command.arrivedAt) / 1000);
    } else {
      open.waiters.push({
        result,
        admittedAt: command.arrivedAt,
        resolve: command.resolve,
        reject: command.reject,
      });
    }
    if (open.bytes >= this.config.maxBatchBytes) {
      this.openDue = true;
      if (this.hasPipelineRoom()) this.seal();
    }
    return true;
  }

  private openBatch(now: number): void {
    const batch = new OpenBatch(this.nextSeq, now);
    this.open = batch;
    this.openDue = false;
    this.flushTimer = setTimeout(() => {
      if (this.open === batch) {
        this.openDue = true;
        this.kick();
      }
    }, this.config.flushIntervalMs);
  }

  private sealWhenDue(): void {
    if (this.open !== null && this.openDue && this.hasPipelineRoom()) this.seal();
  }

  /** Encodes the open batch under its sequence, linked to its pipeline predecessor. */
  private seal(): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    this.openDue = false;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.nextSeq = open.seq + 1n;
    const link = this.pipelineTip();
    let encoded;
    try {
      encoded = encodeObject({
        seq: open.seq,
        epoch: this.session.epoch,
        link,
        segments: open.records,
      });
    } catch (error) {
      for (const waiter of open.waiters) waiter.reject(error);
      this.poison(new PoisonedError(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    this.batches.push({
      seq: open.seq,
      key: objectKey(this.session.prefix, open.seq),
      epoch: this.session.epoch,
      link,
      encoded,
      entries: open.entries,
      waiters: open.waiters,
      lastIds: open.lastIds(),
      firstAdmittedAt: open.openedAt,
      sealedAt: Date.now(),
      phase: 'queued',
      attempt: 0,
      createStartedAt: null,
      retryAt: 0,
    });
  }

  /** The last sealed batch not yet committed, else the last indexed object. */
  private pipelineTip(): ObjectLink | null {
    const last = this.batches[this.batches.length - 1];
    if (last !== undefined) return { seq: last.seq, epoch: last.epoch };
    return this.session.catalog.tip();
  }

  private withinGap(seq: Seq): boolean {
    return seq < this.certified + START_GAP;
  }

  /** Starts creates in sequence order, within the in-flight limit and the start gap. */
  private startCreates(): void {
    const now = Date.now();
    for (const batch of this.batches) {
      if (this.inFlight.size + this.orphanCreates >= this.config.maxInFlightCreates) return;
      if (batch.phase === 'retry-wait') {
        if (batch.retryAt <= now && this.withinGap(batch.seq)) this.startCreate(batch);
        continue;
      }
      if (batch.phase !== 'queued') continue;
      if (!this.withinGap(batch.seq)) return;
      this.startCreate(batch);
    }
  }

  private startCreate(batch: SealedBatch): void {
    moveTo(batch, 'creating');
    batch.attempt += 1;
    batch.createStartedAt = Date.now();
    this.inFlight.add(batch);
    void createObject(this.session.io, batch.key, batch.encoded.bytes).then((outcome) =>
      this.onCreateOutcome(batch, outcome),
    );
  }

  private onCreateOutcome(batch: SealedBatch, outcome: CreateOutcome): void {
    // A batch retired while its create ran: that create was an orphan.
    if (!this.inFlight.delete(batch)) this.orphanCreates -= 1;
    if (outcome.kind === 'created' || outcome.kind === 'conflict') {
      this.highestLanded = maxSeq(this.highestLanded, batch.seq);
    }
    if (batch.phase !== 'failed' && this.terminal === null) this.judge(batch, outcome);
    this.kick();
  }

  /** The failure matrix, applied. */
  private judge(batch: SealedBatch, outcome: CreateOutcome): void {
    const verdict = judgeCreate(outcome, {
      ackMode: this.config.ackMode,
      stopping: this.stopping,
      epoch: this.session.epoch,
    });
    if (outcome.kind === 'conflict') this.metrics.createConflicts.inc();
    if (outcome.kind === 'transient') this.metrics.createFailures.inc();
    switch (verdict) {
      case 'index':
        moveTo(batch, 'created');
        this.metrics.createdObjects.inc();
        this.metrics.objectBytes.observe(batch.encoded.bytes.length);
        this.metrics.objectEntries.observe(batch.entries);
        this.indexCreatedPrefix();
        return;
      case 'fail-transient':
        this.failUnindexed(failureOf(batch, outcome));
        return;
      case 'retry': {
        moveTo(batch, 'retry-wait');
        const delay = Math.min(2000, this.createRetryDelayMs * 2 ** Math.min(5, batch.attempt - 1));
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
          this.kick();
        }, delay);
        return;
      }
      case 'drop-backlog':
        this.dropBacklog(this.batches.filter(isUnindexed));
        return;
      case 'poison-fenced':
        this.haltAsFenced(outcome.kind === 'conflict' ? outcome.epoch : null);
        return;
      case 'poison':
        this.poison(new PoisonedError(failureOf(batch, outcome)));
        return;
    }
  }

  /** Indexes, strictly in sequence order, the created batches at the front of the pipeline. */
  private indexCreatedPrefix(): void {
    // A copy: with ackFence 'none' commitFront shifts this.batches while the loop runs, and
    // iterating the live array would skip the batch behind each commit, stranding it.
    for (const batch of [...this.batches]) {
      if (batch.phase === 'indexed' || batch.phase === 'fencing') continue;
      if (batch.phase !== 'created') return;
      moveTo(batch, 'indexed');
      if (this.config.ackFence === 'none') {
        // The RFC's behaviour: no fence, so nothing but the index certifies the gap.
        this.certified = maxSeq(this.certified, batch.seq);
        this.commitFront([batch]);
        if (this.terminal !== null) return;
      }
    }
  }

  /** Starts a fence round over everything indexed and not yet covered (rounds are serialized). */
  private startFenceRound(): void {
    if (this.round !== null || this.config.ackFence === 'none') return;
    const covers = this.batches.filter((b) => b.phase === 'indexed');
    if (covers.length === 0 && !this.shouldCertifyLanded()) return;
    for (const batch of covers) moveTo(batch, 'fencing');
    const round: FenceRound = { covers, candidate: this.highestLanded, startedAt: Date.now() };
    this.round = round;
    runFenceRound(this.session.register, this.fence, (s) =>
      this.metrics.fenceReadSeconds.observe(s),
    ).then(
      (result) => {
        this.round = null;
        if (this.terminal !== null) return this.kick();
        if (result.kind === 'current') {
          this.certified = maxSeq(this.certified, round.candidate);
          this.commitFront(round.covers);
        } else if (result.kind === 'fenced') {
          this.poison(result.error);
        } else {
          this.onFenceDeadline(round, result.error);
        }
        this.kick();
      },
      (error: unknown) => {
        this.round = null;
        this.poison(new PoisonedError(error instanceof Error ? error : new Error(String(error))));
        this.kick();
      },
    );
  }

  /**
   * Objects that landed but were never acknowledged (orphans of failed batches, objects found
   * on a clash) still count for B once a read that started after them passed: a newer writer
   * lists them. Without this a writer whose failures consumed the whole gap would stall.
   */
  private shouldCertifyLanded(): boolean {
    const first = this.batches.find((b) => b.phase === 'queued');
    return first !== undefined && !this.withinGap(first.seq) && this.highestLanded > this.certified;
  }

  private onFenceDeadline(round: FenceRound, error: unknown): void {
    const cause = error instanceof Error ? error : new Error(String(error));
    if (this.config.ackMode === 'durable') {
      // Its batches fail as transient and are unindexed; so does every batch linked above them.
      this.failBatches(this.batches.slice(), cause);
    } else if (this.stopping) {
      this.dropBacklog(this.batches.slice());
    } else {
      for (const batch of round.covers) if (batch.phase === 'fencing') moveTo(batch, 'indexed');
    }
  }

  /** Commits fenced batches to the catalog in order and reports them durable. */
  private commitFront(covers: readonly SealedBatch[]): void {
    const now = Date.now();
    for (const batch of covers) {
      if (this.batches[0] !== batch) break;
      try {
        this.session.catalog.index({
          seq: batch.seq,
          epoch: batch.epoch,
          link: batch.link,
          size: batch.encoded.bytes.length,
          segments: batch.encoded.segments,
        });
      } catch (error) {
        this.poison(new PoisonedError(error instanceof Error ? error : new Error(String(error))));
        return;
      }
      this.batches.shift();
      moveTo(batch, 'committed');
      this.gap.landed();
      this.metrics.indexedObjects.inc();
      this.metrics.indexedBytes.inc(batch.encoded.bytes.length);
      this.metrics.sealToDurableSeconds.observe((now - batch.sealedAt) / 1000);
      for (const waiter of batch.waiters) {
        waiter.resolve(waiter.result);
        this.metrics.appendAckSeconds.observe((now - waiter.admittedAt) / 1000);
      }
      if (batch.seq === MAX_SEQ) {
        this.poison(new SequenceExhaustedError(batch.seq));
        return;
      }
    }
    this.settleDurableWaiters();
  }

  private settleDurableWaiters(): void {
    this.durableWaiters = this.durableWaiters.filter((waiter) => {
      if (this.durableEntryId(waiter.region) < waiter.target) return true;
      waiter.resolve();
      return false;
    });
  }

  /** durable: a transient failure fails this and every batch not yet indexed. */
  private failUnindexed(cause: Error): void {
    this.failBatches(this.batches.filter(isUnindexed), cause);
  }

  private failBatches(doomed: readonly SealedBatch[], cause: Error): void {
    for (const batch of doomed) this.retire(batch);
    for (const batch of doomed) for (const waiter of batch.waiters) waiter.reject(cause);
  }

  /** enqueued, stop begun: these batches will never be durable; stop reports them. */
  private dropBacklog(doomed: readonly SealedBatch[]): void {
    for (const batch of doomed) {
      this.retire(batch);
      this.lost.entries += batch.entries;
      this.lost.batches += 1;
    }
    const lost = this.lostBacklog();
    for (const waiter of this.durableWaiters) waiter.reject(lost);
    this.durableWaiters = [];
  }

  /** Takes a batch out of the pipeline; a create still in flight lands as an orphan. */
  private retire(batch: SealedBatch): void {
    const at = this.batches.indexOf(batch);
    if (at >= 0) this.batches.splice(at, 1);
    if (this.inFlight.delete(batch)) this.orphanCreates += 1;
    moveTo(batch, 'failed');
  }

  private checkExhausted(): void {
    if (this.nextSeq > MAX_SEQ && this.open === null && this.batches.length === 0) {
      this.poison(new SequenceExhaustedError(MAX_SEQ));
    }
  }

  /** A same-or-later-epoch object at our sequence: ask the register who holds the epoch now. */
  private haltAsFenced(objectEpoch: bigint | null): void {
    this.halted = true;
    const fallback = new FencedError(
      objectEpoch ?? this.session.epoch,
      "unknown (met through an object at this writer's sequence)",
    );
    this.session.register
      .update((control) => control)
      .then(
        () => this.poison(fallback),
        (error: unknown) => this.poison(error instanceof FencedError ? error : fallback),
      )
      .finally(() => {
        this.halted = false;
        this.kick();
      });
  }

  /** Terminal: every waiter fails, every later operation but stop throws `error`. */
  private poison(error: Error): void {
    if (this.terminal !== null) return;
    this.terminal = error;
    this.metrics.poisoned.set(1);
    const unpersisted = this.batches.reduce((n, b) => n + b.entries, 0) + (this.open?.entries ?? 0);
    const unpersistedBatches = this.batches.length + (this.open === null ? 0 : 1);
    if (this.config.ackMode === 'enqueued' && unpersisted > 0) {
      this.lost.entries += unpersisted;
      this.lost.batches += unpersistedBatches;
    }
    for (const command of this.commands.splice(0)) command.reject(error);
    const waiters: AppendWaiter[] = [...(this.open?.waiters ?? [])];
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.open = null;
    for (const batch of this.batches.slice()) {
      waiters.push(...batch.waiters);
      this.retire(batch);
    }
    for (const waiter of waiters) waiter.reject(error);
    const forWaiters = this.lost.entries > 0 ? this.lostBacklog() : error;
    for (const waiter of this.durableWaiters) waiter.reject(forWaiters);
    this.durableWaiters = [];
  }

  private lostBacklog(): LostBacklogError {
    return new LostBacklogError(this.lost.entries, this.lost.batches);
  }

  // ---- stop ------------------------------------------------------------------------------

  /** durable: the open batch and sealed batches whose create has not started get `Stopped`. */
  private stopDurable(stopped: StoppedError): void {
    this.discardOpenBatch(stopped);
    this.failBatches(
      this.batches.filter((b) => b.phase === 'queued'),
      stopped,
    );
  }

  /** The open batch's waiters fail with `error`; its sequence is never used. */
  private discardOpenBatch(error: Error): void {
    if (this.open === null) return;
    for (const waiter of this.open.waiters) waiter.reject(error);
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.open = null;
  }

  // ---- a spent start gap (actor/gap-reopen.ts) --------------------------------------------

  /** Re-opens under a new epoch once nothing can certify a higher B; admitted appends fail. */
  private healSpentGap(): void {
    const facts = {
      ackMode: this.config.ackMode,
      ackFence: this.config.ackFence,
      stopping: this.stopping,
      busy: this.terminal !== null || this.halted || this.commandBusy || this.round !== null,
      createsInFlight: this.inFlight.size + this.orphanCreates,
      onlyQueued: this.batches.every((b) => b.phase === 'queued'),
      firstQueuedSeq: this.batches.find((b) => b.phase === 'queued')?.seq ?? null,
      certified: this.certified,
      gap: START_GAP,
      highestLanded: this.highestLanded,
    };
    if (this.gap.active || !isStartGapSpent(facts)) return;
    const reason = `start gap spent: every sequence below ${this.certified + START_GAP} consumed, none certifiable`;
    const cause = new WriterReopenedError(this.session.prefix, this.session.epoch, reason);
    this.discardOpenBatch(cause);
    this.failBatches(this.batches.slice(), cause);
    this.gap.start(
      this.session,
      this.metrics,
      () => !this.stopping,
      (error) => {
        if (error === null) {
          // The session was re-opened in place: start over from its start object.
          this.nextSeq = this.session.nextSeq;
          this.certified = this.highestLanded = this.session.startObject.seq;
          this.lastTail = this.session.register.current().control.tail;
        } else {
          this.poison(error instanceof FencedError ? error : new PoisonedError(error));
        }
        this.kick();
      },
    );
  }

  private finishStopWhenDone(): void {
    if (!this.stopping || this.stopFinishing) return;
    const settled =
      this.batches.length === 0 &&
      this.round === null &&
      !this.commandBusy &&
      !this.halted &&
      !this.gap.active;
    if (this.terminal === null && !settled) return;
    this.stopFinishing = true;
    if (this.tailTimer !== null) clearInterval(this.tailTimer);
    void this.recordStop().then((report) => {
      this.stopped = true;
      this.resolveStop?.(report);
      this.scheduleNotify();
    });
  }

  /** A clean stop records the epoch's seal (lastSeq, 'stopped') and the tail in one CAS. */
  private async recordStop(): Promise<StopReport> {
    const tip = this.session.catalog.tip();
    const lost = this.lost.entries > 0 || this.lost.batches > 0 ? this.lostBacklog() : null;
    if (this.terminal !== null)
      return { sealed: false, lastSeq: tip?.seq ?? null, lost, terminal: this.terminal };
    const deadline = Date.now() + this.fence.deadlineMs;
    for (;;) {
      try {
        await this.session.register.update((control) => {
          const sealed = withStoppedSeal(
            control,
            this.session.epoch,
            tip?.seq ?? null,
            this.directoryBudget(),
          );
          return tip === null ? sealed : withTail(sealed, tip);
        });
        return { sealed: true, lastSeq: tip?.seq ?? null, lost, terminal: null };
      } catch (error) {
        if (error instanceof FencedError) {
          this.poison(error);
          return {
            sealed: false,
            lastSeq: tip?.seq ?? null,
            lost: this.lost.entries > 0 ? this.lostBacklog() : null,
            terminal: error,
          };
        }
        if (!isStorageError(error) || Date.now() >= deadline) {
          return { sealed: false, lastSeq: tip?.seq ?? null, lost, terminal: null };
        }
        await new Promise((resolve) => setTimeout(resolve, this.fence.retryDelayMs));
      }
    }
  }

  private directoryBudget(): number {
    // EpochRegister knows its store's budget; the seam's interface does not carry it.
    const register = this.session.register;
    return 'directoryBudget' in register && typeof register.directoryBudget === 'number'
      ? register.directoryBudget
      : DEFAULT_MAX_DIRECTORY_BYTES;
  }

  // ---- the tail hint ---------------------------------------------------------------------

  private writeTailHint(): void {
    const tip = this.session.catalog.tip();
    if (tip === null || this.terminal !== null || this.stopping || this.gap.active) return;
    if (
      this.lastTail !== null &&
      this.lastTail.seq === tip.seq &&
      this.lastTail.epoch === tip.epoch
    )
      return;
    this.session.register
      .update((control) => withTail(control, tip))
      .then(
        () => {
          this.lastTail = tip;
        },
        (error: unknown) => {
          // A hint: only a fence matters; a transient failure waits for the next tick.
          if (error instanceof FencedError) {
            this.poison(error);
            this.kick();
          }
        },
      );
  }

  // ---- facts for decisions ---------------------------------------------------------------

  private obsoleteFacts(region: RegionId): ObsoleteFacts {
    const firstUnsettled = this.batches[0]?.seq ?? this.open?.seq ?? this.nextSeq;
    return {
      ackMode: this.config.ackMode,
      durableId: this.durableEntryId(region),
      handedOutId: this.handedOutEntryId(region),
      nextSeq: this.nextSeq,
      firstUnsettledSeq: firstUnsettled,
      openBatchHoldsEntries: this.open !== null && this.open.entries > 0,
      currentWatermark: this.session.catalog.watermark(region),
    };
  }

  private unindexedCount(): number {
    return this.batches.filter(isUnindexed).length;
  }

  private hasPipelineRoom(): boolean {
    return this.unindexedCount() < this.config.maxSealedBatches;
  }

  private unpersistedBytes(): number {
    return this.batches.reduce((n, b) => n + b.encoded.bytes.length, 0) + (this.open?.bytes ?? 0);
  }

  private overUnpersistedLimits(entries: readonly WalEntry[]): boolean {
    const bytes = this.unpersistedBytes();
    if (bytes > 0 && bytes + appendBytes(entries) > this.config.maxUnpersistedBytes) return true;
    const oldest = this.batches[0]?.firstAdmittedAt ?? this.open?.openedAt;
    return oldest !== undefined && Date.now() - oldest >= this.config.maxUnpersistedAgeMs;
  }

  private scheduleNotify(): void {
    if (this.notifyScheduled || this.listeners.size === 0) return;
    this.notifyScheduled = true;
    queueMicrotask(() => {
      this.notifyScheduled = false;
      const snapshot = this.state();
      for (const listener of this.listeners) listener(snapshot);
    });
  }
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
