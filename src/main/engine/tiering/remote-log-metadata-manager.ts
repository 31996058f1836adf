/**
 * The seed's RemoteLogMetadataManager SPI, async, plus the take-on calls of Kafka's
 * onPartitionLeadershipChanges / onStopPartitions. Owns the contract every backend honours;
 * never an implementation.
 *
 * Errors (all CairnError): InvalidMetadata for malformed input (nothing is published),
 * InvalidAdd, SegmentNotFound, InvalidSegmentTransition, InvalidPartitionDeleteTransition,
 * NotReady (partition not taken on, or its first load still running), Io (store failure).
 * Every event carries an `eventId`: a retry of an applied event succeeds and changes nothing.
 */
import type {
  RemoteLogSegmentMetadata,
  RemoteLogSegmentMetadataUpdate,
  RemotePartitionDeleteMetadata,
  TopicIdPartition,
} from './types';

/** Where a partition's metadata lives, as found by listing the store. */
export interface StoredPartition {
  readonly topicId: string;
  readonly partition: number;
}

/** By topic id, then partition number. */
export function compareStoredPartitions(a: StoredPartition, b: StoredPartition): number {
  return a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : a.partition - b.partition;
}

export interface RemoteLogMetadataManager {
  /** Records a new segment copy; its state must be COPY_SEGMENT_STARTED and its id new. */
  addRemoteLogSegmentMetadata(metadata: RemoteLogSegmentMetadata): Promise<void>;
  /** Moves a known segment along its lifecycle. */
  updateRemoteLogSegmentMetadata(update: RemoteLogSegmentMetadataUpdate): Promise<void>;
  /** The finished segment holding `offset` of `leaderEpoch`, or null. Needs the partition taken on. */
  remoteLogSegmentMetadata(
    tp: TopicIdPartition,
    leaderEpoch: number,
    offset: number,
  ): Promise<RemoteLogSegmentMetadata | null>;
  /** Greatest endOffset among finished segments carrying `leaderEpoch`, or null. */
  highestOffsetForEpoch(tp: TopicIdPartition, leaderEpoch: number): Promise<number | null>;
  /** Every known segment (deleted ones dropped), by start offset. */
  listRemoteLogSegments(tp: TopicIdPartition): Promise<RemoteLogSegmentMetadata[]>;
  listRemoteLogSegmentsByEpoch(
    tp: TopicIdPartition,
    leaderEpoch: number,
  ): Promise<RemoteLogSegmentMetadata[]>;
  /** Records a partition-delete lifecycle event; FINISHED drops the partition's segments. */
  putRemotePartitionDeleteMetadata(metadata: RemotePartitionDeleteMetadata): Promise<void>;
  /**
   * True iff every event the store had committed for `tp` when the call began is applied here.
   * False for a partition not taken on; NotReady during its first load; Io if the store's
   * position cannot be read.
   */
  caughtUp(tp: TopicIdPartition): Promise<boolean>;
  /** Take partitions on (leader or follower): loads them; queries throw NotReady until loaded. */
  assignPartitions(tps: readonly TopicIdPartition[]): Promise<void>;
  /** Stop consuming partitions: their cached metadata is dropped. */
  unassignPartitions(tps: readonly TopicIdPartition[]): Promise<void>;
  /** Every partition the store holds metadata for (for the console). */
  listPartitions(): Promise<StoredPartition[]>;
}
