/**
 * The app's replay jobs by id: at most MAX_RUNNING_REPLAYS at once, and the last few finished
 * ones remembered so a late progress query still answers. Owns no reads itself.
 */
import { randomUUID } from 'node:crypto';
import type { ReplayProgress } from '../../../shared/contract/wal';
import type { WalEntry } from '../../engine/wal/entry';
import { ReplayJobNotFoundError, TooManyReplayJobsError } from './errors';
import { ReplayJob, type ReplaySink, type ReplaySpec } from './replay-job';

export const MAX_RUNNING_REPLAYS = 8;
const FINISHED_KEPT = 32;

export class ReplayJobs {
  private readonly jobs = new Map<string, ReplayJob>();

  start(source: AsyncIterable<WalEntry>, spec: ReplaySpec, sink: ReplaySink): ReplayJob {
    const running = [...this.jobs.values()].filter((job) => job.active).length;
    if (running >= MAX_RUNNING_REPLAYS) throw new TooManyReplayJobsError(MAX_RUNNING_REPLAYS);
    const job = new ReplayJob(randomUUID(), source, spec, sink);
    this.jobs.set(job.id, job);
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
    const jobs = [...this.jobs.values()];
    for (const job of jobs) job.cancel();
    await Promise.all(jobs.map((job) => job.finished));
  }

  private forgetOldFinished(): void {
    const finished = [...this.jobs.values()].filter((job) => !job.active);
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT)))
      this.jobs.delete(job.id);
  }
}
