/**
 * The app's replay jobs by id: at most MAX_RUNNING_REPLAYS at once, and the last few finished
 * ones remembered so a late progress query still answers - a job the app cancelled says why.
 * A job is the session's that started it: another session's calls do not find it (its chunks
 * go to its own caller alone). Owns no reads itself.
 */
import { randomUUID } from 'node:crypto';
import type { ReplayProgress } from '../../../shared/contract/wal';
import type { WalEntry } from '../../engine/wal/entry';
import type { Session } from '../caller';
import { ReplayJobNotFoundError, TooManyReplayJobsError } from './errors';
import { ReplayJob, type HoleSource, type ReplaySink, type ReplaySpec } from './replay-job';

export const MAX_RUNNING_REPLAYS = 8;
const FINISHED_KEPT = 32;

/** Why a job was cancelled, as its progress says it. */
export const CANCEL_REASONS = {
  asked: 'cancelled on request',
  disconnected: 'the console that started it disconnected',
  connectionRemoved: 'its connection was removed',
  shutdown: 'the app is shutting down',
} as const;

interface Owner {
  readonly connectionId: string;
  readonly sessionId: string;
}

export class ReplayJobs {
  private readonly jobs = new Map<string, ReplayJob>();
  /** The connection each job reads through and the session that started it. */
  private readonly owners = new Map<ReplayJob, Owner>();

  start(
    connectionId: string,
    session: Session,
    source: AsyncIterable<WalEntry>,
    spec: ReplaySpec,
    sink: ReplaySink,
    holes?: HoleSource,
  ): ReplayJob {
    const running = [...this.jobs.values()].filter((job) => job.active).length;
    if (running >= MAX_RUNNING_REPLAYS) throw new TooManyReplayJobsError(MAX_RUNNING_REPLAYS);
    const job = new ReplayJob(randomUUID(), source, spec, sink, holes);
    this.jobs.set(job.id, job);
    this.owners.set(job, { connectionId, sessionId: session.id });
    void job.finished.then(() => this.forgetOldFinished());
    return job;
  }

  /** The job `jobId` of `session`; `ReplayJobNotFound` for any other session's. */
  get(jobId: string, session: Session): ReplayJob {
    const job = this.jobs.get(jobId);
    if (job === undefined || this.owners.get(job)?.sessionId !== session.id)
      throw new ReplayJobNotFoundError(jobId);
    return job;
  }

  progress(jobId: string, session: Session): ReplayProgress {
    return this.get(jobId, session).progress();
  }

  async cancelAll(reason: string): Promise<void> {
    await this.cancel([...this.jobs.values()], reason);
  }

  /** Cancels the jobs that read through a removed connection; they still answer, cancelled. */
  async cancelOwnedBy(connectionId: string, reason: string): Promise<void> {
    const owned = [...this.jobs.values()].filter(
      (job) => this.owners.get(job)?.connectionId === connectionId,
    );
    await this.cancel(owned, reason);
  }

  private async cancel(jobs: readonly ReplayJob[], reason: string): Promise<void> {
    for (const job of jobs) job.cancel(reason);
    await Promise.all(jobs.map((job) => job.finished));
  }

  private forgetOldFinished(): void {
    const finished = [...this.jobs.values()].filter((job) => !job.active);
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) {
      this.jobs.delete(job.id);
      this.owners.delete(job);
    }
  }
}
