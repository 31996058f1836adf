/**
 * The app's replay jobs by id: at most MAX_RUNNING_REPLAYS at once, and the last few finished
 * ones remembered so a late progress query still answers. Owns no reads itself.
 */
import { randomUUID } from 'node:crypto';
import type { ReplayProgress } from '../../../shared/contract/wal';
import type { WalEntry } from '../../engine/wal/entry';
import { ReplayJobNotFoundError, TooManyReplayJobsError } from './errors';
import { ReplayJob, type HoleSource, type ReplaySink, type ReplaySpec } from './replay-job';

export const MAX_RUNNING_REPLAYS = 8;
const FINISHED_KEPT = 32;

export class ReplayJobs {
  private readonly jobs = new Map<string, ReplayJob>();
  /** The connection each job reads through. */
  private readonly owners = new Map<ReplayJob, string>();

  start(
    connectionId: string,
    source: AsyncIterable<WalEntry>,
    spec: ReplaySpec,
    sink: ReplaySink,
    holes?: HoleSource,
  ): ReplayJob {
    const running = [...this.jobs.values()].filter((job) => job.active).length;
    if (running >= MAX_RUNNING_REPLAYS) throw new TooManyReplayJobsError(MAX_RUNNING_REPLAYS);
    const job = new ReplayJob(randomUUID(), source, spec, sink, holes);
    this.jobs.set(job.id, job);
    this.owners.set(job, connectionId);
    void job.finished.then(() => this.forgetOldFinished());
    return job;
  }

  get(jobId: string): ReplayJob {
    const job = this.jobs.get(jobId);
    if (job === undefined) throw new ReplayJobNotFoundError(jobId);
    return job;
  }

  progress(jobId: string): ReplayProgress {
    return this.get(jobId).progress();
  }

  async cancelAll(): Promise<void> {
    await this.cancel([...this.jobs.values()]);
  }

  /** Cancels and forgets the jobs that read through a removed connection. */
  async cancelOwnedBy(connectionId: string): Promise<void> {
    const owned = [...this.jobs.values()].filter((job) => this.owners.get(job) === connectionId);
    for (const job of owned) this.forget(job);
    await this.cancel(owned);
  }

  private async cancel(jobs: readonly ReplayJob[]): Promise<void> {
    for (const job of jobs) job.cancel();
    await Promise.all(jobs.map((job) => job.finished));
  }

  private forget(job: ReplayJob): void {
    this.jobs.delete(job.id);
    this.owners.delete(job);
  }

  private forgetOldFinished(): void {
    const finished = [...this.jobs.values()].filter((job) => !job.active);
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT)))
      this.forget(job);
  }
}
