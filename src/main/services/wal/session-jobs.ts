/**
 * Streaming jobs (replays, searches) by id: at most `max` running at once, and the last few
 * finished ones remembered so a late progress query still answers - a job the app cancelled
 * says why. A job is the session's that started it: another session's calls do not find it
 * (its chunks go to its own caller alone). Owns no reads itself.
 */
import { randomUUID } from 'node:crypto';
import type { Session } from '../caller';

/** What the registry needs of a job. */
export interface SessionJob {
  readonly id: string;
  readonly active: boolean;
  readonly finished: Promise<void>;
  cancel(reason: string): unknown;
}

interface Owner {
  readonly connectionId: string;
  readonly sessionId: string;
}

const FINISHED_KEPT = 32;

export class SessionJobs<J extends SessionJob> {
  private readonly jobs = new Map<string, J>();
  /** The connection each job reads through and the session that started it. */
  private readonly owners = new Map<J, Owner>();

  constructor(
    private readonly max: number,
    private readonly tooMany: (max: number) => Error,
    private readonly notFound: (jobId: string) => Error,
  ) {}

  /** Registers the job `create` makes with a new id; `tooMany` when `max` already run. */
  add(connectionId: string, session: Session, create: (id: string) => J): J {
    const running = [...this.jobs.values()].filter((job) => job.active).length;
    if (running >= this.max) throw this.tooMany(this.max);
    const job = create(randomUUID());
    this.jobs.set(job.id, job);
    this.owners.set(job, { connectionId, sessionId: session.id });
    void job.finished.then(() => this.forgetOldFinished());
    return job;
  }

  /** The job `jobId` of `session`; `notFound` for any other session's. */
  get(jobId: string, session: Session): J {
    const job = this.jobs.get(jobId);
    if (job === undefined || this.owners.get(job)?.sessionId !== session.id)
      throw this.notFound(jobId);
    return job;
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

  private async cancel(jobs: readonly J[], reason: string): Promise<void> {
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
