/**
 * The part every RemoteLogMetadataManager shares: validating input at the boundary (so a bad
 * event is refused before anything is published) and answering queries from a partition's
 * PartitionMetadataState. Owns neither storage nor take-on policy: subclasses say how an
 * event is published and which state a partition's queries may read.
 */
import type { PartitionMetadataState } from './partition-state';
import type { RemoteLogMetadataManager, StoredPartition } from './remote-log-metadata-manager';
import {
  parseLeaderEpoch,
  parseOffset,
  parsePartitionDelete,
  parseSegmentMetadata,
  parseSegmentUpdate,
  parseTopicIdPartition,
  type RemoteLogSegmentMetadata,
  type RemoteLogSegmentMetadataUpdate,
  type RemotePartitionDeleteMetadata,
  type TieringEvent,
  type TopicIdPartition,
} from './types';

export abstract class StateBackedManager implements RemoteLogMetadataManager {
  /** Apply a validated event durably (or throw its typed error); a retry of an applied one succeeds. */
  protected abstract publish(event: TieringEvent): Promise<void>;
  /** The state queries read for a validated partition; NotReady when it cannot answer. */
  protected abstract readableState(tp: TopicIdPartition): PartitionMetadataState;
  protected abstract isCaughtUp(tp: TopicIdPartition): Promise<boolean>;
  protected abstract takeOn(tps: readonly TopicIdPartition[]): Promise<void>;
  protected abstract release(tps: readonly TopicIdPartition[]): Promise<void>;
  abstract listPartitions(): Promise<StoredPartition[]>;

  async addRemoteLogSegmentMetadata(metadata: RemoteLogSegmentMetadata): Promise<void> {
    await this.publish({ kind: 'addSegment', metadata: parseSegmentMetadata(metadata) });
  }

  async updateRemoteLogSegmentMetadata(update: RemoteLogSegmentMetadataUpdate): Promise<void> {
    await this.publish({ kind: 'updateSegment', update: parseSegmentUpdate(update) });
  }

  async putRemotePartitionDeleteMetadata(metadata: RemotePartitionDeleteMetadata): Promise<void> {
    await this.publish({ kind: 'deletePartition', metadata: parsePartitionDelete(metadata) });
  }

  async remoteLogSegmentMetadata(
    tp: TopicIdPartition,
    leaderEpoch: number,
    offset: number,
  ): Promise<RemoteLogSegmentMetadata | null> {
    const state = this.readableState(parseTopicIdPartition(tp));
    return copyOf(
      state.remoteLogSegmentMetadata(parseLeaderEpoch(leaderEpoch), parseOffset(offset)),
    );
  }

  async highestOffsetForEpoch(tp: TopicIdPartition, leaderEpoch: number): Promise<number | null> {
    return this.readableState(parseTopicIdPartition(tp)).highestOffsetForEpoch(
      parseLeaderEpoch(leaderEpoch),
    );
  }

  async listRemoteLogSegments(tp: TopicIdPartition): Promise<RemoteLogSegmentMetadata[]> {
    return this.readableState(parseTopicIdPartition(tp)).listRemoteLogSegments().map(copyOf);
  }

  async listRemoteLogSegmentsByEpoch(
    tp: TopicIdPartition,
    leaderEpoch: number,
  ): Promise<RemoteLogSegmentMetadata[]> {
    const state = this.readableState(parseTopicIdPartition(tp));
    return state.listRemoteLogSegmentsByEpoch(parseLeaderEpoch(leaderEpoch)).map(copyOf);
  }

  async caughtUp(tp: TopicIdPartition): Promise<boolean> {
    return this.isCaughtUp(parseTopicIdPartition(tp));
  }

  async assignPartitions(tps: readonly TopicIdPartition[]): Promise<void> {
    await this.takeOn(tps.map(parseTopicIdPartition));
  }

  async unassignPartitions(tps: readonly TopicIdPartition[]): Promise<void> {
    await this.release(tps.map(parseTopicIdPartition));
  }
}

/** Callers get their own copy: the cached state is shared and must stay immutable. */
function copyOf<T>(value: T): T {
  return structuredClone(value);
}
