/** What the WAL's services need of ConnectionsService. */
import type { ObjectIo } from '../../engine/objectio/object-io';

export interface ConnectionStorage {
  io(connectionId: string): Promise<{ io: ObjectIo; root: string }>;
  /** Throws once the connection's removal has passed its checks (see `WalService.holdOn`). */
  assertPresent(connectionId: string): void;
}
