/** The public face of tiered-storage segment metadata: types, errors and the two managers. */
export * from './errors';
export * from './types';
export * from './state-machines';
export { PartitionMetadataState, APPLIED_EVENT_WINDOW, epochEndInSegment } from './partition-state';
export type { PartitionStateData } from './partition-state';
export type { RemoteLogMetadataManager, StoredPartition } from './remote-log-metadata-manager';
export { compareStoredPartitions } from './remote-log-metadata-manager';
export { InMemoryRemoteLogMetadataManager } from './in-memory-manager';
export {
  ObjectRemoteLogMetadataManager,
  type ObjectRemoteLogMetadataManagerOptions,
} from './object-manager';
export { encodePartitionState, decodePartitionState } from './partition-codec';
