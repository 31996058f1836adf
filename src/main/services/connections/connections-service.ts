/**
 * Connections as the app uses them: saved profiles, one ObjectIo per connection opened on
 * demand - its requests in the slots of the connection's own I/O controller, which every view,
 * scan and replay of the connection shares - and each session's operator switch
 * (`OperatorModes`). Every connection starts read-only in every session; operator mode lives in
 * memory only, so a restart, a new browser session or a new window is read-only again.
 */
import type {
  Connection,
  ConnectionSpec,
  ConnectionTest,
  LinkView,
} from '../../../shared/contract';
import { isCairnError } from '../../engine/errors';
import {
  ioControllerFor,
  LinkedObjectIo,
  measureLink,
  type IoController,
} from '../../engine/objectio/link';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { assertWritable, probeCreateIfAbsent } from '../../engine/objectio/probe';
import { PROCESS_SESSION, type Session } from '../caller';
import type { EventBus } from '../event-bus';
import { BuiltInConnectionError, ConnectionInUseError, ConnectionNotFoundError } from '../errors';
import { ConnectionStore, EMBEDDED_CONNECTION_ID, type SavedProfile } from './connection-store';
import type { ConnectionUser } from './connection-users';
import { openObjectIo, rootOf } from './open-object-io';
import { OperatorModes } from './operator-modes';

/** A connection's storage on its link, and the link's controller. */
interface OpenedStorage {
  readonly io: LinkedObjectIo;
  readonly link: IoController;
}

export class ConnectionsService {
  private readonly store: ConnectionStore;
  private readonly operators = new OperatorModes();
  private readonly opened = new Map<string, Promise<OpenedStorage>>();
  private readonly users: ConnectionUser[] = [];
  /** Ids being or already removed (ids are random and never come back). */
  private readonly removed = new Set<string>();

  constructor(
    dataDir: string,
    private readonly events: EventBus,
    private readonly open: (profile: SavedProfile) => Promise<ObjectIo> = openObjectIo,
  ) {
    this.store = new ConnectionStore(dataDir);
  }

  /** The saved connections, `operator` as `session` has switched them. */
  async list(session: Session = PROCESS_SESSION): Promise<Connection[]> {
    return (await this.store.list()).map((profile) => this.present(profile, session));
  }

  async get(id: string, session: Session = PROCESS_SESSION): Promise<Connection> {
    return this.present(await this.profile(id), session);
  }

  /** The connection's name, or null when no saved connection has this id. */
  async nameOf(id: string): Promise<string | null> {
    return (await this.store.list()).find((profile) => profile.id === id)?.name ?? null;
  }

  async add(spec: ConnectionSpec): Promise<Connection> {
    const profile = await this.store.add(spec);
    this.announce();
    return this.present(profile, PROCESS_SESSION);
  }

  /** A service that keeps state per connection: asked before a removal, told after it. */
  attach(user: ConnectionUser): void {
    this.users.push(user);
  }

  /**
   * Refused while a service holds the connection (`ConnectionInUse` names what to stop first);
   * otherwise the profile goes, every service drops what it kept for it, and its storage
   * client is closed (an S3 client's sockets on the S3 thread).
   */
  async remove(id: string): Promise<void> {
    if (id === EMBEDDED_CONNECTION_ID) throw new BuiltInConnectionError(id);
    await this.profile(id);
    for (const user of this.users) {
      const reason = user.holdOn(id);
      if (reason !== null) throw new ConnectionInUseError(id, reason);
    }
    // In the same turn as the checks: a writer open that got past them now fails `assertPresent`.
    this.removed.add(id);
    const gone = await this.store.remove(id).catch((error: unknown) => {
      this.removed.delete(id);
      throw error;
    });
    if (!gone) throw new ConnectionNotFoundError(id);
    this.operators.forgetConnection(id);
    const opening = this.opened.get(id);
    this.opened.delete(id);
    await Promise.all(this.users.map((user) => user.release(id)));
    await opening?.then(
      ({ io }) => io.destroy(),
      () => undefined,
    );
    this.announce();
  }

  /**
   * Switches `id` for `session` alone. Operator mode needs a store that enforces
   * create-if-absent: the probe runs first and a store that fails it stays read-only, with
   * the typed reason.
   */
  async setOperator(
    id: string,
    operator: boolean,
    session: Session = PROCESS_SESSION,
  ): Promise<Connection> {
    const profile = await this.profile(id);
    if (operator) {
      const { io, root } = await this.io(id);
      await assertWritable(io, root);
    }
    this.operators.set(session.id, id, operator);
    this.announce();
    return this.present(profile, session);
  }

  isOperator(id: string, session: Session = PROCESS_SESSION): boolean {
    return this.operators.has(session.id, id);
  }

  /** A session ended (a browser session forgotten, a window closed): its switches go with it. */
  endSession(session: Session): void {
    this.operators.endSession(session.id);
  }

  /**
   * Throws `ConnectionNotFound` once a removal of `id` has passed its checks. Synchronous, so
   * a caller that must not act on a removed connection checks in the turn it acts.
   */
  assertPresent(id: string): void {
    if (this.removed.has(id)) throw new ConnectionNotFoundError(id);
  }

  /** The connection's storage on its link, opened once and shared by every view. */
  async io(id: string): Promise<{ io: ObjectIo; root: string }> {
    const profile = await this.profile(id);
    return { io: (await this.opening(id, profile)).io, root: rootOf(profile) };
  }

  /** The connection's link as its controller last measured it. */
  async link(id: string): Promise<LinkView> {
    const stats = (await this.opening(id, await this.profile(id))).link.stats();
    return {
      roundTripMs: stats.roundTripMs,
      p50Ms: stats.p50Ms,
      p99Ms: stats.p99Ms,
      inFlight: stats.inFlight,
      waiting: stats.waiting,
      limit: stats.limit,
      requestsPerSecond: stats.requestsPerSecond,
      bytesPerSecond: stats.bytesPerSecond,
    };
  }

  /**
   * Reachability (a one-key listing), the create-if-absent probe, and the link: a burst of
   * one-key listings through the connection's slots, their p50 / p99 and the rate reached.
   */
  async test(id: string): Promise<ConnectionTest> {
    try {
      const profile = await this.profile(id);
      const { io, link: slots } = await this.opening(id, profile);
      const root = rootOf(profile);
      await io.listPage(root, { pageSize: 1 });
      const probe = await probeCreateIfAbsent(io, root);
      const link = await measureLink(slots, () => io.listPage(root, { pageSize: 1 }));
      return {
        reachable: true,
        writable: probe.writable,
        createIfAbsent: probe.enforced,
        detail: probe.detail,
        link,
      };
    } catch (error) {
      const detail = isCairnError(error) ? error.message : String(error);
      return { reachable: false, writable: false, createIfAbsent: false, detail, link: null };
    }
  }

  /** The connection's storage and link, opened on first use. */
  private opening(id: string, profile: SavedProfile): Promise<OpenedStorage> {
    this.assertPresent(id);
    let opening = this.opened.get(id);
    if (opening === undefined) {
      opening = this.open(profile).then((store) => {
        const link = ioControllerFor(store);
        return { io: new LinkedObjectIo(store, link), link };
      });
      this.opened.set(id, opening);
      opening.catch(() => this.opened.delete(id));
    }
    return opening;
  }

  private async profile(id: string): Promise<SavedProfile> {
    const profile = (await this.store.list()).find((candidate) => candidate.id === id);
    if (profile === undefined) throw new ConnectionNotFoundError(id);
    return profile;
  }

  private present(profile: SavedProfile, session: Session): Connection {
    return {
      ...profile,
      builtIn: profile.id === EMBEDDED_CONNECTION_ID,
      operator: this.operators.has(session.id, profile.id),
    };
  }

  /** Every window re-reads the list: what `operator` says differs per session. */
  private announce(): void {
    this.events.publish({ type: 'connections.changed' });
  }
}
