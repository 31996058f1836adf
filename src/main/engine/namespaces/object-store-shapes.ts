/**
 * The shapes `ObjectNamespaceStore` shows beyond the NamespaceStore contract: its options,
 * and the survey of every shard (readable records, each damaged shard named with its key and
 * reason) the console and `cairn ns` list. Types only.
 */
import type { ObjectIo } from '../objectio/object-io';
import type { NamespaceCreatedListener } from './namespace-store';
import type { NamespaceRecord, ShardOwner } from './record';

export interface ObjectNamespaceStoreOptions {
  readonly io: ObjectIo;
  /** Prefix the registry lives under (`<root>/namespaces/...`); '' for the bucket's top. */
  readonly root: string;
  /** This node's id: the owner of shards it creates, fenced from shards others own. */
  readonly nodeId?: number;
  /** Only used when this store creates the meta cell; an existing meta cell wins. */
  readonly shardCount?: number;
  /** UTC milliseconds; injected by tests to make timestamps deterministic. */
  readonly clock?: () => number;
  /** Told of every record this store mints, once it is durable. */
  readonly onCreated?: NamespaceCreatedListener;
  /** Compare-and-swap attempts per mutation before `ShardContended`. */
  readonly maxAttempts?: number;
  /** Prune a shard's old versions after every this many of them (0: never). */
  readonly pruneEvery?: number;
}

/** What one shard looks like, for the console's owner view and take-over action. */
export interface ShardInfo {
  readonly shard: number;
  /** Null while no one has written the shard yet. */
  readonly owner: ShardOwner | null;
  readonly version: number | null;
  readonly records: number;
  /** Null for a readable shard; else why its newest version cannot be read. */
  readonly damage: ShardDamage | null;
}

/** A shard this registry cannot read (bad JSON, a record breaking the rules): where and why. */
export interface ShardDamage {
  /** The shard cell's key prefix, under which its versions are stored. */
  readonly key: string;
  readonly reason: string;
}

/** Everything readable in the registry, and each shard that is not, named. */
export interface NamespaceSurvey {
  readonly records: NamespaceRecord[];
  readonly shards: ShardInfo[];
}
