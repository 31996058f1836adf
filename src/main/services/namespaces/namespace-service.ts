/**
 * The namespace registry as the app serves it: one ObjectNamespaceStore per connection, on
 * that connection's storage and root, acting as this app's node (0 unless configured), and a
 * "namespaces.created" event for every record the app mints. It never checks access (the
 * router does) and never swallows an engine error: NotOwner, InvalidName... reach the caller typed.
 */
import {
  checkConfig,
  ObjectNamespaceStore,
  type MintOutcome,
  type NamespaceOrigin,
  type NamespacePlacement,
  type NamespaceRecord,
  type ShardInfo,
  type ShardOwner,
} from '../../engine/namespaces';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ListedNamespace, NamespaceCreatedEvent } from '../../../shared/contract/namespaces';
import type { ConnectionUser } from '../connections/connection-users';
import { explicitRecord } from './explicit-record';

/** Where a connection's data lives: what ConnectionsService.io answers. */
export interface NamespaceStorage {
  io(connectionId: string): Promise<{ io: ObjectIo; root: string }>;
}

export interface NamespaceServiceOptions {
  /** The node this app acts as: owner of the shards it creates, fenced from others' shards. */
  readonly nodeId?: number;
  readonly clock?: () => number;
}

interface OpenedStore {
  readonly io: ObjectIo;
  readonly root: string;
  readonly store: ObjectNamespaceStore;
}

export class NamespaceService implements ConnectionUser {
  readonly nodeId: number;
  private readonly clock: () => number;
  private readonly stores = new Map<string, OpenedStore>();

  constructor(
    private readonly storage: NamespaceStorage,
    private readonly announce: (event: NamespaceCreatedEvent) => void,
    options: NamespaceServiceOptions = {},
  ) {
    this.nodeId = options.nodeId ?? 0;
    this.clock = options.clock ?? Date.now;
  }

  /** Every readable record: a damaged shard (named by `shards`) never hides the others. */
  async list(connectionId: string): Promise<ListedNamespace[]> {
    const store = await this.storeOf(connectionId);
    const { records } = await store.surveyNamespaces();
    return Promise.all(records.map((record) => this.withShard(store, record)));
  }

  async get(connectionId: string, name: string): Promise<ListedNamespace | null> {
    const store = await this.storeOf(connectionId);
    const record = await store.getNamespace(name);
    return record === null ? null : this.withShard(store, record);
  }

  async register(
    connectionId: string,
    name: string,
    origin: NamespaceOrigin,
  ): Promise<MintOutcome> {
    return (await this.storeOf(connectionId)).registerNamespace(name, origin);
  }

  /** `config` arrives as any object; the engine's check makes it JSON or throws InvalidConfig. */
  async put(
    connectionId: string,
    name: string,
    config: Readonly<Record<string, unknown>>,
    placement: NamespacePlacement,
  ): Promise<MintOutcome> {
    const store = await this.storeOf(connectionId);
    return store.putNamespace(
      explicitRecord(name, checkConfig(name, config), placement, this.clock()),
    );
  }

  async setPlacement(
    connectionId: string,
    name: string,
    placement: NamespacePlacement,
  ): Promise<NamespaceRecord | null> {
    return (await this.storeOf(connectionId)).setNamespacePlacement(name, placement);
  }

  async deprecate(connectionId: string, name: string): Promise<NamespaceRecord | null> {
    return (await this.storeOf(connectionId)).deprecateNamespace(name);
  }

  async shards(connectionId: string): Promise<ShardInfo[]> {
    return (await this.storeOf(connectionId)).describeShards();
  }

  async takeOwnership(connectionId: string, shard: number): Promise<ShardOwner> {
    return (await this.storeOf(connectionId)).takeOwnership(shard);
  }

  private async withShard(
    store: ObjectNamespaceStore,
    record: NamespaceRecord,
  ): Promise<ListedNamespace> {
    // A listed record proves the meta cell exists, so its shard is always known here.
    const shard = (await store.shardOf(record.name)) ?? -1;
    return { ...record, shard };
  }

  /** Every mint is a conditional create on its own: nothing here outlives a call. */
  holdOn(): string | null {
    return null;
  }

  async release(connectionId: string): Promise<void> {
    this.stores.delete(connectionId);
  }

  /**
   * The connection's store, kept while its storage is the same: a removed and re-added
   * connection gets a fresh one. One store per connection keeps its per-shard ordering.
   */
  private async storeOf(connectionId: string): Promise<ObjectNamespaceStore> {
    const { io, root } = await this.storage.io(connectionId);
    const opened = this.stores.get(connectionId);
    if (opened !== undefined && opened.io === io && opened.root === root) return opened.store;
    const store = new ObjectNamespaceStore({
      io,
      root,
      nodeId: this.nodeId,
      clock: this.clock,
      onCreated: (record) => this.announce({ type: 'namespaces.created', connectionId, record }),
    });
    this.stores.set(connectionId, { io, root, store });
    return store;
  }
}
