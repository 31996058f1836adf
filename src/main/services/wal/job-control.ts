/**
 * The run state a streaming job (a replay, a search) shares with its controls: running,
 * paused, and how it ended - finished, cancelled with its reason, or failed with a typed
 * error - plus the waits a job makes between deliveries: for its reader (cut short by a
 * cancel, so a reader that never reads holds no job) and out of a pause. Owns no reads.
 */
import type { ReplayProgress } from '../../../shared/contract/wal';
import { isCairnError } from '../../engine/errors';

export type JobState = ReplayProgress['state'];
export type JobError = ReplayProgress['error'];

export class JobControl {
  private readonly abort = new AbortController();
  private current: JobState = 'running';
  private failure: JobError = null;
  private reason: string | null = null;
  private resumed: { promise: Promise<void>; resolve: () => void } | null = null;

  get state(): JobState {
    return this.current;
  }

  get error(): JobError {
    return this.failure;
  }

  get cancelReason(): string | null {
    return this.reason;
  }

  get active(): boolean {
    return this.current === 'running' || this.current === 'paused';
  }

  pause(): void {
    if (this.current !== 'running') return;
    this.current = 'paused';
    let resolve = (): void => undefined;
    const promise = new Promise<void>((done) => (resolve = done));
    this.resumed = { promise, resolve };
  }

  resume(): void {
    if (this.current !== 'paused') return;
    this.current = 'running';
    this.resumed?.resolve();
    this.resumed = null;
  }

  cancel(reason: string): void {
    if (!this.active) return;
    this.current = 'cancelled';
    this.reason = reason;
    this.abort.abort();
    this.resumed?.resolve();
    this.resumed = null;
  }

  /** The job's read ended: finished unless it was cancelled. */
  finish(): void {
    if (this.active) this.current = 'finished';
  }

  /** The job's read threw: failed with the error's code, or `Internal` for an unknown one. */
  fail(error: unknown): void {
    if (!this.active) return;
    this.current = 'failed';
    this.failure = isCairnError(error)
      ? { code: error.code, message: error.message }
      : { code: 'Internal', message: 'the read failed (see the main process log)' };
  }

  /** Waits out a pause (a cancel ends it). */
  async whilePaused(): Promise<void> {
    while (this.resumed !== null && this.current === 'paused') await this.resumed.promise;
  }

  /** `waiting`, or less once the job is cancelled. */
  untilAborted(waiting: Promise<void>): Promise<void> {
    const signal = this.abort.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      void waiting.then(done, done);
    });
  }

  async sleep(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await this.untilAborted(new Promise((resolve) => (timer = setTimeout(resolve, ms))));
    clearTimeout(timer);
  }
}
