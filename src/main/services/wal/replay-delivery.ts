/**
 * Where a replay's chunks go: to the caller that asked for it alone, through its channel, the
 * job waiting for the channel's room before it reads on (so a replay is paced by its own reader
 * and never fills anyone's buffers); to the app's event bus only for an in-process caller,
 * which has no channel. A job (a replay, a search) ends when its caller's channel closes, with
 * the reason.
 */
import type { ApiEvent } from '../../../shared/contract';
import type { CallerChannel } from '../caller';
import type { EventBus } from '../event-bus';
import type { ReplaySink } from './replay-job';
import type { SessionJob } from './session-jobs';
import { CANCEL_REASONS } from './replay-jobs';

/** How a job's events reach its caller: its channel, or the bus for an in-process caller. */
export function senderOf(
  channel: CallerChannel | null,
  events: EventBus,
): (event: ApiEvent) => Promise<void> | void {
  return (event) => (channel === null ? events.publish(event) : channel.send(event));
}

export function replaySinkOf(channel: CallerChannel | null, events: EventBus): ReplaySink {
  const send = senderOf(channel, events);
  return {
    chunk: (entries, progress, holes) =>
      send({
        type: 'wal.replay.chunk',
        jobId: progress.jobId,
        entries,
        ...(holes.length > 0 ? { holes } : {}),
        progress,
      }),
    done: (progress) => void send({ type: 'wal.replay.done', jobId: progress.jobId, progress }),
  };
}

/** Cancels `job` once `channel` closes (at once if it closed while the job was starting). */
export function endWithChannel(job: SessionJob, channel: CallerChannel | null): void {
  if (channel === null) return;
  const signal = channel.closed;
  const end = (): void => void job.cancel(CANCEL_REASONS.disconnected);
  if (signal.aborted) return end();
  signal.addEventListener('abort', end, { once: true });
  void job.finished.then(() => signal.removeEventListener('abort', end));
}
