/**
 * The object-store manager as the console holds it: the same manager brokers use, plus a
 * read of what a taken-on partition's cached state says about itself (its recorded topic name
 * and delete marker), which the manager's SPI does not expose. Never adds I/O or state rules.
 */
import {
  ObjectRemoteLogMetadataManager,
  type RemotePartitionDeleteMetadata,
  type TopicIdPartition,
} from '../../engine/tiering';

export interface HeldPartitionFacts {
  /** As recorded in the partition's metadata (or as taken on, when nothing is recorded yet). */
  readonly topicIdPartition: TopicIdPartition;
  readonly deleteMetadata: RemotePartitionDeleteMetadata | null;
}

export class ConsoleRemoteLogMetadataManager extends ObjectRemoteLogMetadataManager {
  /** NotReady unless `tp` is taken on and loaded, like every query. */
  heldFacts(tp: TopicIdPartition): HeldPartitionFacts {
    const state = this.readableState(tp);
    return { topicIdPartition: state.topicIdPartition, deleteMetadata: state.deleteMetadata };
  }
}
