/** Events the main process pushes to every subscribed renderer. */
import type { WalEvent } from './wal';
import type { NamespaceCreatedEvent } from './namespaces';
import type { SearchEvent } from './wal-search';

export type ApiEvent =
  /** Saved connections or a session's operator switch changed: re-read `connections.list`. */
  | { readonly type: 'connections.changed' }
  | { readonly type: 'audit.recorded'; readonly entry: AuditEntry }
  | {
      readonly type: 'segments.changed';
      readonly connectionId: string;
      readonly topicId: string;
      readonly partition: number;
    }
  | NamespaceCreatedEvent
  | WalEvent
  | SearchEvent;

export interface AuditEntry {
  readonly at: string;
  readonly connectionId: string | null;
  /** The connection's name when the action was taken. */
  readonly connection?: string;
  /** Which session acted: a browser session, a desktop window, the process (sessions-and-sockets.md). */
  readonly session?: string;
  /** The id of the call that wrote or caused it (call-credit.ts); absent on older entries. */
  readonly callId?: string;
  readonly action: string;
  readonly target: string;
  readonly parameters: unknown;
  /** 'started': written before its action acted, no outcome recorded since (audit-log.md). */
  readonly result: 'ok' | 'error' | 'started';
  readonly error?: string;
}
