/**
 * Who a call comes from. A `Session` is a browser session (its cookie), a desktop window, or
 * the process itself (the CLI, tests, calls made inside the app): operator mode is switched on
 * per session and connection, never for the whole process, and the audit log names the session
 * that acted. A caller may also have a `CallerChannel`: events meant for it alone (a replay's
 * chunks), paced by how fast it reads. Owns no state; transports make callers.
 */
import type { CallCredit } from './audit/call-credit';
import type { ApiEvent } from '../../shared/contract';

export interface Session {
  /** Unique while the process runs; a secret for a browser session (its cookie value). */
  readonly id: string;
  /** What the audit log and the console show: 'browser 3f9a1c', 'window 1', 'process'. */
  readonly name: string;
}

/** Events for one caller alone, paced by the caller's transport. */
export interface CallerChannel {
  /**
   * Hands `event` to this caller only; resolves once its transport has room for more (the
   * sender waits for that before the next event). Never rejects: when the caller is gone it
   * resolves at once and the event is dropped.
   */
  send(event: ApiEvent): Promise<void>;
  /** Aborted once the caller is gone: what runs for it alone (its replays) stops. */
  readonly closed: AbortSignal;
}

export interface Caller {
  readonly session: Session;
  /** Null: the caller reads the app's event bus (in-process callers). */
  readonly channel: CallerChannel | null;
  /** An audited call's credit: what the call causes is audited under it (call-credit.ts). */
  readonly credit?: CallCredit;
}

/** The process itself: the CLI, tests and in-process calls. */
export const PROCESS_SESSION: Session = { id: 'process', name: 'process' };
export const PROCESS_CALLER: Caller = { session: PROCESS_SESSION, channel: null };
