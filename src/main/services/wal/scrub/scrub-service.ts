/**
 * The console's scrubs: background verifies of one prefix or of a connection's whole fleet,
 * by job id, at most `MAX_ACTIVE_SCRUBS` at once per session and one per scope (asking again
 * for a scope being scrubbed answers with the job already running); a job whose caller is gone
 * ends once it is paused (`scrub-owners.ts`); the last few ended jobs are kept so their outcome
 * still shows; and the background job of each connection (`startBackground`), which verifies
 * the prefixes the background scrub queues. Findings go to the damage ledger the WAL views
 * read, passes to the coverage book. It reads storage only through the jobs, and never writes.
 */
import { randomUUID } from 'node:crypto';
import type { ScrubJobView } from '../../../../shared/contract/wal-scrub';
import type { Located } from '../wal-locate';
import type { DamageLedger } from './damage-ledger';
import { ScrubJobNotFoundError, TooManyScrubJobsError } from './errors';
import { ScrubJob, type ScrubPlan } from './scrub-job';
import type { PrefixQueue } from './background-scrub';
import type { ScrubCoverage } from './scrub-prefix';
import { PROCESS_SCRUB_OWNER, type ScrubOwner } from './scrub-owners';

export const MAX_ACTIVE_SCRUBS = 4;
const ENDED_KEPT = 16;

export interface ScrubDeps {
  readonly ledger: DamageLedger;
  locate(connectionId: string, prefix: string): Promise<Located>;
  /** Walks the connection's fleet, handing each prefix to `found` (the Overview's walk). */
  walkFleet(connectionId: string, found: (prefix: string) => void): Promise<void>;
  /** A prefix's scrub ended: its views (the fleet row) show what it found once this resolves. */
  onPrefixScrubbed(connectionId: string, prefix: string): Promise<void>;
  /** Where passes are recorded (coverage, resume). */
  readonly coverage?: ScrubCoverage;
  /** A background verify of the prefix failed. */
  onBackgroundFailed?(connectionId: string, prefix: string): void;
}

export class ScrubService {
  private readonly jobs = new Map<string, ScrubJob>();
  private readonly owners = new Map<string, ScrubOwner>();

  constructor(private readonly deps: ScrubDeps) {}

  /** Starts a scrub of `prefix` (the whole fleet when null), or returns the one running on it. */
  start(
    connectionId: string,
    prefix: string | null,
    owner: ScrubOwner = PROCESS_SCRUB_OWNER,
  ): ScrubJobView {
    const running = [...this.jobs.values()].filter((job) => job.active);
    const same = running.find((job) => {
      const view = job.view();
      return view.connectionId === connectionId && view.prefix === prefix && !view.background;
    });
    if (same !== undefined) return same.view();
    const owned = running.filter(
      (job) => !job.view().background && this.owners.get(job.id)?.sessionId === owner.sessionId,
    );
    if (owned.length >= MAX_ACTIVE_SCRUBS) throw new TooManyScrubJobsError(MAX_ACTIVE_SCRUBS);
    const { deps } = this;
    return this.add(owner, {
      ...this.planOf(connectionId, prefix),
      prefixes: async (found) => {
        if (prefix === null) await deps.walkFleet(connectionId, found);
        else found(prefix);
      },
    }).view();
  }

  /**
   * The connection's background job over `queue`: each prefix queued is verified in turn, at the
   * scrub's share of the link; the job ends when the queue is empty. One per connection.
   */
  startBackground(connectionId: string, queue: PrefixQueue): ScrubJob {
    const running = [...this.jobs.values()].find((job) => {
      const view = job.view();
      return job.active && view.background && view.connectionId === connectionId;
    });
    if (running !== undefined) return running;
    let verified: (() => void) | null = null;
    const plan = this.planOf(connectionId, null);
    // The app's own job: no caller's session, so no caller's leaving ends it.
    return this.add(PROCESS_SCRUB_OWNER, {
      ...plan,
      background: true,
      prefixes: (found) =>
        queue.drain(found, () => new Promise<void>((resolve) => (verified = resolve))),
      onPrefixDone: async (one) => {
        await plan.onPrefixDone?.(one);
        verified?.();
        verified = null;
      },
      onPrefixFailed: (one) => this.deps.onBackgroundFailed?.(connectionId, one),
    });
  }

  private planOf(connectionId: string, prefix: string | null): Omit<ScrubPlan, 'prefixes'> {
    const { deps } = this;
    return {
      jobId: randomUUID(),
      connectionId,
      prefix,
      locate: async (one) => {
        const at = await deps.locate(connectionId, one);
        return { io: at.io, prefix: at.prefix, format: at.format, slot: at.slot };
      },
      ledger: deps.ledger,
      coverage: deps.coverage,
      onPrefixDone: (one) => deps.onPrefixScrubbed(connectionId, one),
    };
  }

  private add(owner: ScrubOwner, plan: ScrubPlan): ScrubJob {
    const job = new ScrubJob(plan);
    this.jobs.set(job.id, job);
    this.owners.set(job.id, owner);
    owner.gone?.addEventListener('abort', () => this.callerGone(job), { once: true });
    void job.finished.then(() => this.forgetOldEnded());
    return job;
  }

  /** The connection's jobs, newest first. */
  list(connectionId: string): ScrubJobView[] {
    return [...this.jobs.values()]
      .map((job) => job.view())
      .filter((view) => view.connectionId === connectionId)
      .reverse();
  }

  pause(jobId: string): ScrubJobView {
    const job = this.get(jobId);
    const view = job.pause();
    // Paused after its caller left: nobody is there to resume it.
    if (this.owners.get(jobId)?.gone?.aborted === true) return job.cancel();
    return view;
  }

  /** The caller that started `job` is gone: a paused job ends; a running one finishes. */
  private callerGone(job: ScrubJob): void {
    if (job.active && job.view().state === 'paused') job.cancel();
  }

  resume(jobId: string): ScrubJobView {
    return this.get(jobId).resume();
  }

  cancel(jobId: string): ScrubJobView {
    return this.get(jobId).cancel();
  }

  /** Cancels and forgets a removed connection's jobs, once their reads in flight end. */
  async release(connectionId: string): Promise<void> {
    const owned = [...this.jobs.values()].filter((job) => job.view().connectionId === connectionId);
    for (const job of owned) this.jobs.delete(job.id);
    await this.cancelAndWait(owned);
  }

  /** Cancels every job (app shutdown, tests). */
  async closeAll(): Promise<void> {
    await this.cancelAndWait([...this.jobs.values()]);
  }

  private async cancelAndWait(jobs: readonly ScrubJob[]): Promise<void> {
    for (const job of jobs) job.cancel();
    await Promise.all(jobs.map((job) => job.finished));
  }

  private get(jobId: string): ScrubJob {
    const job = this.jobs.get(jobId);
    if (job === undefined) throw new ScrubJobNotFoundError(jobId);
    return job;
  }

  private forgetOldEnded(): void {
    const ended = [...this.jobs.values()].filter((job) => !job.active);
    for (const job of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) {
      this.jobs.delete(job.id);
      this.owners.delete(job.id);
    }
  }
}
