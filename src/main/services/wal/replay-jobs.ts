/**
 * The app's replay jobs by id (`SessionJobs`): at most MAX_RUNNING_REPLAYS at once, each the
 * session's that started it. Owns no reads itself.
 */
import type { ReplayProgress } from '../../../shared/contract/wal';
import type { WalEntry } from '../../engine/wal/entry';
import type { Session } from '../caller';
import { ReplayJobNotFoundError, TooManyReplayJobsError } from './errors';
import { ReplayJob, type HoleSource, type ReplaySink, type ReplaySpec } from './replay-job';
import { SessionJobs } from './session-jobs';

export const MAX_RUNNING_REPLAYS = 8;

/** Why a job was cancelled, as its progress says it. */
export const CANCEL_REASONS = {
  asked: 'cancelled on request',
  disconnected: 'the console that started it disconnected',
  connectionRemoved: 'its connection was removed',
  shutdown: 'the app is shutting down',
} as const;

export class ReplayJobs extends SessionJobs<ReplayJob> {
  constructor() {
    super(
      MAX_RUNNING_REPLAYS,
      (max) => new TooManyReplayJobsError(max),
      (jobId) => new ReplayJobNotFoundError(jobId),
    );
  }

  start(
    connectionId: string,
    session: Session,
    source: AsyncIterable<WalEntry>,
    spec: ReplaySpec,
    sink: ReplaySink,
    holes?: HoleSource,
  ): ReplayJob {
    return this.add(connectionId, session, (id) => new ReplayJob(id, source, spec, sink, holes));
  }

  progress(jobId: string, session: Session): ReplayProgress {
    return this.get(jobId, session).progress();
  }
}
