/**
 * The writer actor's state: every field the actor's concerns (admission, sealing, creates,
 * commit front, failures, stop) read and change, declared once, with the few questions they
 * all ask of it. Only code running inside the actor's step - or an I/O result that kicks the
 * step right after - may change it: it has no locks because nothing interleaves inside a
 * step. It performs no I/O and makes no decision of its own.
 */
import { BufferPool } from '../../objectio/buffer-pool';
import type { AppendResult, WalEntry } from '../entry';
import { LostBacklogError } from '../errors';
import type { ObjectStoreWalConfig } from '../config';
import type { FenceOptions } from '../durability-fence';
import { NO_ENTRY, type EntryId, type Seq } from '../ids';
import { createWalMetrics, type WalMetrics } from '../metrics';
import { START_GAP } from '../recovery/start-sequence';
import type { RegionId } from '../region-id';
import type { TailHint, WriterSession, ControlState } from '../session';
import { CommandQueue } from './command-queue';
import { GapReopener } from './gap-reopen';
import type { AppendWaiter, OpenBatch } from './open-batch';
import { Pipeline } from './pipeline';
import type { SealedBatch } from './sealed-batch';

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

/**
 * An append waiting in the command queue. Once admitted in `durable` mode the same object
 * waits in its batch as the batch's `AppendWaiter` (a second object per append would be
 * garbage on the hot path).
 */
export interface AppendCommand extends AppendWaiter {
  readonly kind: 'append';
  /** Emptied at admission: the open batch holds the payloads from then on, and a waiting
   * command must not keep them alive after its batch is encoded. */
  entries: readonly WalEntry[];
  stalledSince: number | null;
  /** Set at admission. */
  result: AppendResult;
}

export interface ControlCommand {
  readonly kind: 'obsolete' | 'control';
  /** Runs when the command reaches the head; returns the CAS to await, or null when done. */
  readonly start: () => Promise<void> | null;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export type Command = AppendCommand | ControlCommand;

export interface DurableWaiter {
  readonly region: RegionId;
  readonly target: EntryId;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export interface FenceRound {
  readonly covers: readonly SealedBatch[];
  /** Highest sequence known to exist before the round's read started. */
  readonly candidate: Seq;
  readonly startedAt: number;
}

export const maxSeq = (a: Seq, b: Seq): Seq => (a > b ? a : b);

export class WriteState {
  readonly metrics: WalMetrics;
  readonly config: ObjectStoreWalConfig;
  readonly fence: FenceOptions;
  readonly createRetryDelayMs: number;

  nextSeq: Seq;
  /** B of the start gap. */
  certified: Seq;
  /** Highest sequence this writer has seen holding an object (created, or found on a clash). */
  highestLanded: Seq;
  open: OpenBatch | null = null;
  openDue = false;
  flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Sealed batches not yet committed, in sequence order. */
  readonly pipeline = new Pipeline();
  /** Fenced batches waiting their turn to be committed (commit-front.ts yields between them). */
  readonly fenced: SealedBatch[] = [];
  commitTurnScheduled = false;
  /** Creates running for batches in the pipeline (each such batch has `createRunning` set). */
  createsRunning = 0;
  /** Creates still running for batches retired meanwhile (their outcome lands as an orphan). */
  orphanCreates = 0;
  readonly commands = new CommandQueue<Command>();
  commandBusy = false;
  round: FenceRound | null = null;
  /**
   * The largest id handed out per region by the batches that left the open slot, while it is
   * not yet durable (see `forgetHandedOut` for why it stays small); the open batch's ids are
   * read from it, so admission pays no map write per append.
   */
  readonly handedOut = new Map<RegionId, EntryId>();
  durableWaiters: DurableWaiter[] = [];
  terminal: Error | null = null;
  /** Set while a clash is turned into the `Fenced` error naming the new writer. */
  halted = false;
  readonly lost = { entries: 0, batches: 0 };
  stopping = false;
  stopFinishing = false;
  stopped = false;
  lastTail: TailHint | null;
  tailTimer: ReturnType<typeof setInterval> | null = null;
  /** Reopens after a spent start gap (gap-reopen.ts). */
  readonly gap = new GapReopener();
  /** Committed batches' buffers, encoded into again by sealing. */
  readonly objectBuffers: BufferPool;

  constructor(
    readonly session: WriterSession,
    options: WriterActorOptions,
    /** Runs the actor's step (at once, or again after the running one). */
    readonly kick: () => void,
  ) {
    this.config = session.config;
    this.metrics = options.metrics ?? createWalMetrics();
    this.fence = {
      deadlineMs: options.fenceDeadlineMs ?? Math.max(5000, 50 * this.config.flushIntervalMs),
      retryDelayMs: options.fenceRetryDelayMs ?? 50,
    };
    this.createRetryDelayMs = options.createRetryDelayMs ?? 100;
    // A buffer comes back only from `commitBatch`: by then its create has succeeded, so the
    // store has taken its bytes (the backends copy or write them before they answer), and
    // nothing of the writer reads them again (the catalog keeps the segment index, not the
    // bytes). Two idle: in steady state one commit frees a buffer and the next seal takes it.
    // Objects of twice a full batch (one huge entry) are not kept.
    this.objectBuffers = new BufferPool(2, 2 * this.config.maxBatchBytes);
    this.nextSeq = session.nextSeq;
    this.certified = session.startObject.seq;
    this.highestLanded = session.startObject.seq;
    this.lastTail = session.register.current().control.tail;
  }

  /**
   * Creates running, the orphans' included. Counted, with a flag on each batch, not kept in a
   * set of batches: a set lives as long as the writer, so V8 makes its outgrown hash tables in
   * the old generation, and an outgrown table keeps its entries; the young collector cannot
   * tell those dead tables from live ones, so every batch a table had held stayed alive, with
   * every append it acknowledged, until a full collection (docs/design/wal-protocol.md).
   */
  createsInFlight(): number {
    return this.createsRunning + this.orphanCreates;
  }

  /** `batch`'s create has started: it counts as running until `createEnded`. */
  createStarted(batch: SealedBatch): void {
    batch.createRunning = true;
    this.createsRunning += 1;
  }

  /**
   * `batch`'s create no longer counts as running (it answered, or the batch was retired while
   * it ran); false when it did not count (already answered, or an orphan's).
   */
  createEnded(batch: SealedBatch): boolean {
    if (!batch.createRunning) return false;
    batch.createRunning = false;
    this.createsRunning -= 1;
    return true;
  }

  withinGap(seq: Seq): boolean {
    return seq < this.certified + START_GAP;
  }

  hasPipelineRoom(): boolean {
    return this.pipeline.unindexedCount() < this.config.maxSealedBatches;
  }

  /** The region's latest id: its largest durable, indexed (and fenced) id, or its persisted
   * watermark if larger (wal.md: never below the watermark after GC), 0 if none. */
  durableEntryId(region: RegionId): EntryId {
    return this.session.catalog.latestEntryId(region);
  }

  /** The largest id handed out for the region, durable or not. */
  handedOutEntryId(region: RegionId): EntryId {
    const open = this.open?.lastIdOf(region) ?? NO_ENTRY;
    const sealed = this.handedOut.get(region) ?? NO_ENTRY;
    const durable = this.durableEntryId(region);
    const handed = open > sealed ? open : sealed;
    return handed > durable ? handed : durable;
  }

  /** Records the last ids of a batch leaving the open slot (sealed, or discarded). */
  rememberHandedOut(lastIds: ReadonlyMap<RegionId, EntryId>): void {
    for (const [region, id] of lastIds) this.handedOut.set(region, id);
  }

  /**
   * A committed batch's regions whose largest handed-out id it holds need no entry any more:
   * `handedOutEntryId` then falls back on the durable id, which the commit just raised to at
   * least that id, so it answers exactly as before. Without this the map kept an entry for
   * every region ever written, and the ids of failed batches for good; those go as soon as a
   * later batch of the region commits (sequences only grow, so its ids pass them), and all at
   * once when the writer is poisoned (no operation can read them any more).
   */
  forgetHandedOut(committed: SealedBatch): void {
    for (const [region, id] of committed.lastIds) {
      const handed = this.handedOut.get(region);
      if (handed !== undefined && handed <= id) this.handedOut.delete(region);
    }
  }

  lostBacklog(): LostBacklogError {
    return new LostBacklogError(this.lost.entries, this.lost.batches);
  }

  /** The register's current control state (what a CAS starts from). */
  control(): ControlState {
    return this.session.register.current().control;
  }
}
