/**
 * The replay jobs one browser-mode socket started: at most `max` running or paused at once; a
 * start past that is refused with `TooManyReplayJobs` before the router runs it. The jobs end
 * with the socket through its channel (`CallerChannel.closed`), not here.
 */
import type { CallReply } from '../../shared/api-error';
import type { ReplayProgress } from '../../shared/contract/wal';
import { toWireError, type ApiRouter } from '../api/router';
import type { Caller } from '../services/caller';
import { TooManyReplayJobsError } from '../services/wal/errors';

const LIVE_REPLAY_STATES: ReadonlySet<ReplayProgress['state']> = new Set(['running', 'paused']);

export class SocketReplays {
  /** Jobs this socket started that may still run; pruned when a new one is asked. */
  private readonly jobs = new Set<string>();
  private starting = 0;

  constructor(
    private readonly router: ApiRouter,
    private readonly caller: Caller,
    private readonly max: number,
  ) {}

  /** Runs `start` (the call of `wal.replay.start` with id `id`) unless the cap is reached. */
  async start(id: number, start: () => Promise<CallReply>): Promise<CallReply> {
    await this.prune();
    if (this.jobs.size + this.starting >= this.max)
      return { id, ok: false, error: toWireError(new TooManyReplayJobsError(this.max)) };
    this.starting++;
    try {
      const reply = await start();
      if (reply.ok) this.jobs.add((reply.result as ReplayProgress).jobId);
      return reply;
    } finally {
      this.starting--;
    }
  }

  private async prune(): Promise<void> {
    for (const jobId of [...this.jobs]) {
      const progress = await this.router
        .call('wal.replay.progress', { jobId }, this.caller)
        .then((value) => value as ReplayProgress)
        .catch(() => null);
      if (progress === null || !LIVE_REPLAY_STATES.has(progress.state)) this.jobs.delete(jobId);
    }
  }
}
