/**
 * InMemoryRemoteLogMetadataManager: the reference backend. The store is this object, so every
 * committed event is applied the moment it is published and `caughtUp` is simply "taken on".
 * Owns a map of partition states; never touches storage. Tests hold durable backends to it.
 */
import { NotReadyError } from './errors';
import { PartitionMetadataState } from './partition-state';
import { compareStoredPartitions, type StoredPartition } from './remote-log-metadata-manager';
import { StateBackedManager } from './state-backed-manager';
import { partitionKey, partitionOf, type TieringEvent, type TopicIdPartition } from './types';

export class InMemoryRemoteLogMetadataManager extends StateBackedManager {
  private readonly states = new Map<string, PartitionMetadataState>();
  private readonly held = new Set<string>();

  protected async publish(event: TieringEvent): Promise<void> {
    const tp = partitionOf(event);
    const key = partitionKey(tp);
    const current = this.states.get(key) ?? PartitionMetadataState.empty(tp);
    this.states.set(key, current.apply(event));
  }

  protected readableState(tp: TopicIdPartition): PartitionMetadataState {
    const key = partitionKey(tp);
    if (!this.held.has(key)) throw new NotReadyError(tp, 'not-assigned');
    return this.states.get(key) ?? PartitionMetadataState.empty(tp);
  }

  protected async isCaughtUp(tp: TopicIdPartition): Promise<boolean> {
    return this.held.has(partitionKey(tp));
  }

  protected async takeOn(tps: readonly TopicIdPartition[]): Promise<void> {
    tps.forEach((tp) => this.held.add(partitionKey(tp)));
  }

  protected async release(tps: readonly TopicIdPartition[]): Promise<void> {
    tps.forEach((tp) => this.held.delete(partitionKey(tp)));
  }

  async listPartitions(): Promise<StoredPartition[]> {
    return [...this.states.values()]
      .map(({ topicIdPartition: { topicId, partition } }) => ({ topicId, partition }))
      .sort(compareStoredPartitions);
  }
}
