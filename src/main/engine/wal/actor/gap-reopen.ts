/**
 * Healing a spent start gap (wal.md "Writing", "A spent start gap"; control.md point 2). A
 * `durable` writer whose failed creates consumed every sequence below B + 64 without a
 * landing has nothing left that could certify a higher B: no create or fence round in flight,
 * no obsolete CAS pending, no landed object above B. It would wait forever. It re-opens
 * itself instead, under a new epoch, by the open's steps (a)-(e): its earlier epoch gets a
 * seal record like any earlier epoch, so a late object of it above the recorded last
 * sequence is excluded for good, and the new start object renews the gap.
 *
 * Owns: the rule that says the gap is spent (a pure function of the actor's facts), the
 * pacing of reopens (exponential, capped), the reopen itself, applied to the session in
 * place, and its bookkeeping (running, count, last) that the writer's state shows. It must never: decide while anything could still certify a higher B; reopen an
 * `enqueued` writer (its backlog is acknowledged and would be lost; it never consumes a
 * sequence without landing, so its gap is never spent); reopen while stopping; take over a
 * register another writer moved (`Fenced` instead). It never touches the actor's waiters.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isStorageError } from '../../objectio/errors';
import type { AckFence, AckMode } from '../config';
import type { Seq } from '../ids';
import type { WalMetrics } from '../metrics';
import { reopenWriter } from '../open';
import type { WriterSession } from '../session';

export interface GapFacts {
  readonly ackMode: AckMode;
  readonly ackFence: AckFence;
  readonly stopping: boolean;
  /** Poisoned, halting as fenced, a control command (an obsolete's CAS) or a fence round in
   * flight, or a reopen already running: any of these may still change B or the pipeline. */
  readonly busy: boolean;
  /** Creates still running, orphans included: one may land and be certified. */
  readonly createsInFlight: number;
  /** Every sealed batch not yet committed is still waiting for its create (none created,
   * indexed or fencing, none waiting to retry). */
  readonly onlyQueued: boolean;
  /** The first queued batch's sequence, or null when none is queued. */
  readonly firstQueuedSeq: Seq | null;
  /** B, and the start gap's width. */
  readonly certified: Seq;
  readonly gap: bigint;
  /** The highest sequence this writer saw holding an object. */
  readonly highestLanded: Seq;
}

/** True when the writer's start gap is spent and only a reopen can renew it. */
export function isStartGapSpent(facts: GapFacts): boolean {
  if (facts.ackMode !== 'durable' || facts.stopping || facts.busy) return false;
  if (facts.createsInFlight > 0 || !facts.onlyQueued || facts.firstQueuedSeq === null) return false;
  if (facts.firstQueuedSeq < facts.certified + facts.gap) return false;
  // A landed object above B is certified by the next fence round (register fence only).
  const fenceCanCertify = facts.ackFence === 'register' && facts.highestLanded > facts.certified;
  return !fenceCanCertify;
}

/**
 * Paces reopens: the first after a landing is immediate, each further one waits twice as
 * long as the one before (from `baseMs`, capped at `capMs`), so a store whose every create
 * fails does not spin through epochs. A committed object resets the pace.
 */
export class ReopenPacer {
  private consecutive = 0;

  constructor(
    private readonly baseMs = 100,
    private readonly capMs = 5000,
  ) {}

  /** How long the next attempt waits. */
  nextDelayMs(): number {
    if (this.consecutive === 0) return 0;
    return Math.min(this.capMs, this.baseMs * 2 ** Math.min(20, this.consecutive - 1));
  }

  /** An attempt is starting (whatever its outcome). */
  attempted(): void {
    this.consecutive += 1;
  }

  /** An object of this writer was committed: the gap works again. */
  landed(): void {
    this.consecutive = 0;
  }
}

export interface ReopenOutcome {
  readonly fromEpoch: bigint;
  readonly toEpoch: bigint;
  /** Attempts it took (storage failures are retried on the same pace). */
  readonly attempts: number;
}

/** What the writer's state says about its reopens. */
export interface ReopenRecord {
  readonly reopening: boolean;
  readonly reopens: number;
  readonly lastReopen: (ReopenOutcome & { readonly atMs: number }) | null;
}

/**
 * One writer's reopens: the one running (at most one), the pace, the count and the last one.
 * The actor asks `start` once `isStartGapSpent` holds and has failed the admitted appends; it
 * is told the outcome through `settled` (null: re-opened, the session now holds the new epoch).
 */
export class GapReopener {
  private running: Promise<void> | null = null;
  private readonly pacer = new ReopenPacer();
  private count = 0;
  private last: ReopenRecord['lastReopen'] = null;

  get active(): boolean {
    return this.running !== null;
  }

  record(): ReopenRecord {
    return { reopening: this.running !== null, reopens: this.count, lastReopen: this.last };
  }

  /** An object of this writer was committed: the next reopen, if any, is immediate. */
  landed(): void {
    this.pacer.landed();
  }

  start(
    session: WriterSession,
    metrics: WalMetrics,
    keepTrying: () => boolean,
    settled: (error: Error | null) => void,
  ): void {
    if (this.running !== null) return;
    this.running = reopenInPlace(session, this.pacer, keepTrying, metrics).then(
      (outcome) => {
        this.running = null;
        this.count += 1;
        this.last = { ...outcome, atMs: Date.now() };
        metrics.gapReopens.inc();
        settled(null);
      },
      (error: unknown) => {
        this.running = null;
        settled(error instanceof Error ? error : new Error(`the reopen failed: ${String(error)}`));
      },
    );
  }
}

/**
 * Re-opens the writer of `session` and applies the new session to it in place: the catalog
 * object adopts the new recovery (readers and the console hold it), the epoch, writer id,
 * start object, next sequence and recovery summary are replaced. Storage failures are retried
 * on the pacer's schedule while `keepTrying()` holds; anything else (`Fenced`, a corrupt
 * object, no complete chain) is thrown for the actor to poison with.
 */
export async function reopenInPlace(
  session: WriterSession,
  pacer: ReopenPacer,
  keepTrying: () => boolean,
  metrics: WalMetrics,
): Promise<ReopenOutcome> {
  const fromEpoch = session.epoch;
  for (let attempts = 1; ; attempts++) {
    const delay = pacer.nextDelayMs();
    pacer.attempted();
    if (delay > 0) await sleep(delay, undefined, { ref: false });
    try {
      const fresh = await reopenWriter(session, metrics);
      adoptSession(session, fresh);
      return { fromEpoch, toEpoch: fresh.epoch, attempts };
    } catch (error) {
      if (!isStorageError(error) || !keepTrying()) throw error;
    }
  }
}

/**
 * The session object is shared by the store, its reader and the console's services; a
 * reopen must change what they all see at once, so it is updated in place (its fields are
 * readonly to everyone else) and its catalog object keeps its identity.
 */
function adoptSession(session: WriterSession, fresh: WriterSession): void {
  session.catalog.adopt(fresh.catalog);
  const replaced: Partial<WriterSession> = {
    epoch: fresh.epoch,
    writerId: fresh.writerId,
    startObject: fresh.startObject,
    nextSeq: fresh.nextSeq,
    recovery: fresh.recovery,
  };
  Object.assign(session, replaced);
}
