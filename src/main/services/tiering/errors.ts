/** Errors of the console's tiering service (beside the engine's own tiering catalogue). */
import { CairnError } from '../../engine/errors';

/** A segment is added to a partition with no stored topic name, and the caller gave none. */
export class TopicNameRequiredError extends CairnError {
  constructor(topicId: string, partition: number) {
    super(
      'TopicNameRequired',
      `partition ${topicId}-${partition} has no metadata yet: give the topic name to add its first segment`,
      {
        topicId,
        partition,
      },
    );
  }
}

/** The caller named the partition's topic differently from what its metadata records. */
export class TopicNameMismatchError extends CairnError {
  constructor(topicId: string, partition: number, stored: string, given: string) {
    super(
      'TopicNameMismatch',
      `partition ${topicId}-${partition} belongs to topic ${stored}, not ${given}`,
      {
        topicId,
        partition,
        stored,
        given,
      },
    );
  }
}
