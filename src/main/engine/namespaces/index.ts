/** The namespace registry's public surface: what the services and the API may import. */
export type { NamespaceStore, NamespaceCreatedListener } from './namespace-store';
export {
  ObjectNamespaceStore,
  type ObjectNamespaceStoreOptions,
  type ShardInfo,
} from './object-namespace-store';
export {
  CONFIG_MAX_BYTES,
  NAME_MAX_LENGTH,
  NAMESPACE_ORIGINS,
  NAMESPACE_STATES,
  placementSchema,
  type JsonObject,
  type JsonValue,
  type MintOutcome,
  type NamespaceOrigin,
  type NamespacePlacement,
  type NamespacePlacementDirective,
  type NamespaceRecord,
  type NamespaceState,
  type ShardOwner,
} from './record';
export * from './errors';
export { checkConfig, checkName, checkPlacement, checkRecord } from './validation';
export { DEFAULT_SHARD_COUNT } from './shard-codec';
export { fnv1a64, shardOfName } from './shard-hash';
