/**
 * Who started each scrub: its session, and the transport's signal that the caller is gone.
 * Scrub slots are counted per session, so one session - a read-only browser that pauses four
 * scrubs and closes its socket - cannot hold every slot; and once the caller that started a
 * job is gone, its paused jobs end (a running one finishes on its own). Owns no jobs.
 */
import type { Caller } from '../../caller';

export interface ScrubOwner {
  readonly sessionId: string;
  /** Aborted once the caller is gone; absent for in-process callers (they never go). */
  readonly gone?: AbortSignal;
}

/** The owner of a scrub a call starts. */
export function scrubOwnerOf(caller: Caller): ScrubOwner {
  return caller.channel === null
    ? { sessionId: caller.session.id }
    : { sessionId: caller.session.id, gone: caller.channel.closed };
}

/** In-process callers (the CLI, tests, the app itself). */
export const PROCESS_SCRUB_OWNER: ScrubOwner = { sessionId: 'process' };
