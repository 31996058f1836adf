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
  readonly action: string;
  readonly target: string;
  readonly parameters: unknown;
  readonly result: 'ok' | 'error';
  readonly error?: string;
}
