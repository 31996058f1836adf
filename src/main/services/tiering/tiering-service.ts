/**
 * Tiered-segment metadata for the app: one TieringConsole (one ObjectRemoteLogMetadataManager)
 * per connection, over the connection's storage and root, opened on first use. Announces
 * `segments.changed` after every successful publish so every open window refreshes.
 * Never enforces access (the router does) and never opens storage itself.
 */
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ConnectionUser } from '../connections/connection-users';
import type { EventBus } from '../event-bus';
import { TieringConsole } from './tiering-console';

/** What the service needs of ConnectionsService. */
export interface ConnectionStorage {
  io(connectionId: string): Promise<{ io: ObjectIo; root: string }>;
}

export class TieringService implements ConnectionUser {
  private readonly consoles = new Map<string, Promise<TieringConsole>>();

  constructor(
    private readonly connections: ConnectionStorage,
    private readonly events: EventBus,
  ) {}

  /** The connection's console, shared by every call and window. */
  console(connectionId: string): Promise<TieringConsole> {
    let opening = this.consoles.get(connectionId);
    if (opening === undefined) {
      opening = this.open(connectionId);
      this.consoles.set(connectionId, opening);
      // A connection that failed to open is retried on the next call.
      opening.catch(() => this.consoles.delete(connectionId));
    }
    return opening;
  }

  /** Every publish is a conditional create on its own: nothing here outlives a call. */
  holdOn(): string | null {
    return null;
  }

  async release(connectionId: string): Promise<void> {
    const opening = this.consoles.get(connectionId);
    this.consoles.delete(connectionId);
    await opening?.catch(() => undefined);
  }

  private async open(connectionId: string): Promise<TieringConsole> {
    const { io, root } = await this.connections.io(connectionId);
    return new TieringConsole(io, root, {
      onChanged: ({ topicId, partition }) =>
        this.events.publish({ type: 'segments.changed', connectionId, topicId, partition }),
    });
  }
}
