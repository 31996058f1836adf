/**
 * Where made-up data may be written without asking: demo data and the load generator are
 * offered freely on the embedded store and on an empty one (for the load generator: a prefix
 * holding no entries but those of the writer this app opened there); on any other store the
 * call must carry the connection's name as its confirmation, checked here in the main process
 * whatever the page did. Reads one listing page (or the writer's catalog); never writes.
 */
import type { MadeUpDataOffer } from '../../../shared/contract/demo';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { ConfirmationRequiredError } from '../errors';

export interface GuardConnections {
  get(id: string): Promise<{ readonly name: string; readonly builtIn: boolean }>;
  io(id: string): Promise<{ io: ObjectIo; root: string }>;
}

export interface GuardWal {
  /** Whether the prefix holds entries written before the writer this app holds there. */
  holdsEarlierEntries(connectionId: string, prefix: string): Promise<boolean>;
}

export class MadeUpDataGuard {
  constructor(
    private readonly connections: GuardConnections,
    private readonly wal: GuardWal,
  ) {}

  /** Demo data: the store's root holds nothing, or it is the embedded store. */
  async demoOffer(connectionId: string): Promise<MadeUpDataOffer> {
    const { io, root } = await this.connections.io(connectionId);
    const first = (await io.listPage(root, { pageSize: 1 })).objects[0];
    return this.offer(connectionId, first === undefined);
  }

  /** The load generator: the prefix holds only what this app's writer wrote, or it is the embedded store. */
  async loadOffer(connectionId: string, prefix: string): Promise<MadeUpDataOffer> {
    return this.offer(connectionId, !(await this.wal.holdsEarlierEntries(connectionId, prefix)));
  }

  /** Refuses (`ConfirmationRequired`, naming the connection) unless offered freely or confirmed. */
  check(offer: MadeUpDataOffer, procedure: string, confirm: string | undefined): void {
    if (offer.confirmPhrase !== null && confirm !== offer.confirmPhrase)
      throw new ConfirmationRequiredError(procedure, offer.confirmPhrase);
  }

  private async offer(connectionId: string, empty: boolean): Promise<MadeUpDataOffer> {
    const { name, builtIn } = await this.connections.get(connectionId);
    return {
      connection: name,
      embedded: builtIn,
      empty,
      confirmPhrase: builtIn || empty ? null : name,
    };
  }
}
