/**
 * The prefixes of every connection, as the views' selector and the fleet overview list them:
 * one prefix directory (a shared walk, cached formats) and one fleet reader per connection.
 */
import type { FleetView, WalListedPrefix } from '../../../shared/contract/wal';
import { slotsOf } from '../../engine/objectio/link';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { FleetReader } from './fleet/fleet-reader';
import { fleetSourceOf, isListedPrefix, type FleetDeps } from './fleet/fleet-source';
import { PrefixDirectory } from './prefix-directory';
import { slotOf } from './wal-locate';

export class PrefixListings {
  private readonly fleets = new Map<string, FleetReader>();
  private readonly directories = new Map<string, PrefixDirectory>();

  constructor(private readonly deps: FleetDeps) {}

  /** Cairn's prefixes under the WAL root and GreptimeDB's anywhere under the connection root. */
  async prefixes(connectionId: string): Promise<WalListedPrefix[]> {
    const { io, root } = await this.deps.io(connectionId);
    const found = await this.directoryOf(connectionId, io, root).list();
    return (
      found.prefixes
        .filter((entry) =>
          entry.format === 'greptimedb-v1'
            ? true
            : entry.nodeId !== null && isListedPrefix(root, entry.prefix),
        )
        .map((entry) => ({
          ...entry,
          openInApp: this.deps.held(slotOf(connectionId, entry.prefix)),
        }))
        // The app's own prefixes first: the views select the first one by default.
        .sort((a, b) => Number(a.format === 'greptimedb-v1') - Number(b.format === 'greptimedb-v1'))
    );
  }

  /** The selector's next list walks again (a writer opened or closed a prefix here). */
  expire(connectionId: string): void {
    this.directories.get(connectionId)?.expire();
  }

  /** The fleet overview's rows changed since `since`; a pass starts when one is due. */
  async fleet(connectionId: string, since: number, refreshMs: number): Promise<FleetView> {
    const { io } = await this.deps.io(connectionId); // an unknown connection fails here, typed
    let reader = this.fleets.get(connectionId);
    if (reader === undefined) {
      reader = new FleetReader(fleetSourceOf(connectionId, this.deps), slotsOf(io));
      this.fleets.set(connectionId, reader);
    }
    return reader.poll(since, refreshMs);
  }

  /** Reads one prefix's fleet row again (a scrub of it ended), when the fleet lists it. */
  async rereadRow(connectionId: string, prefix: string): Promise<void> {
    await this.fleets.get(connectionId)?.reread(prefix);
  }

  /** The Overview was left: its pass stops starting reads. */
  stopFleet(connectionId: string): { stopped: boolean } {
    return { stopped: this.fleets.get(connectionId)?.stop() ?? false };
  }

  /** Drops a removed connection's directory and fleet reader, once its reads in flight end. */
  async forget(connectionId: string): Promise<void> {
    const reader = this.fleets.get(connectionId);
    this.fleets.delete(connectionId);
    this.directories.delete(connectionId);
    reader?.stop();
    await reader?.settled();
  }

  /** Stops every fleet pass and waits for the reads in flight. */
  async closeAll(): Promise<void> {
    for (const reader of this.fleets.values()) reader.stop();
    await Promise.all([...this.fleets.values()].map((reader) => reader.settled()));
  }

  private directoryOf(connectionId: string, io: ObjectIo, root: string): PrefixDirectory {
    const known = this.directories.get(connectionId);
    if (known !== undefined && known.io === io) return known;
    const directory = new PrefixDirectory(io, root);
    this.directories.set(connectionId, directory);
    return directory;
  }
}
