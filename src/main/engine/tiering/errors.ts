/**
 * The closed catalogue of errors the remote-log metadata managers raise (the seed's
 * `RemoteStorageError` variants). Owns their codes and messages; never decides when they apply.
 */
import { CairnError } from '../errors';

export type TieringErrorCode =
  | 'InvalidAdd'
  | 'SegmentNotFound'
  | 'InvalidSegmentTransition'
  | 'InvalidPartitionDeleteTransition'
  | 'NotReady'
  | 'Io'
  | 'InvalidMetadata';

/** Printable partition name used in messages: `<topic>-<partition> (<topicId>)`. */
export interface PartitionLabel {
  readonly topicId: string;
  readonly partition: number;
}

function labelOf(tp: PartitionLabel): string {
  return `${tp.topicId}-${tp.partition}`;
}

/** An add whose state is not COPY_SEGMENT_STARTED, or whose segment id is already known. */
export class InvalidAddError extends CairnError {
  override readonly code = 'InvalidAdd' as const;
  constructor(
    readonly segmentId: string,
    readonly reason: 'not-copy-started' | 'duplicate-id',
    state: string,
  ) {
    super(
      'InvalidAdd',
      reason === 'duplicate-id'
        ? `segment ${segmentId} is already known: an add must introduce a new segment id`
        : `segment ${segmentId} is added in state ${state}: an add must be COPY_SEGMENT_STARTED`,
      { segmentId, reason, state },
    );
  }
}

export class SegmentNotFoundError extends CairnError {
  override readonly code = 'SegmentNotFound' as const;
  constructor(
    readonly segmentId: string,
    tp: PartitionLabel,
  ) {
    super('SegmentNotFound', `segment ${segmentId} is not known in partition ${labelOf(tp)}`, {
      segmentId,
      topicId: tp.topicId,
      partition: tp.partition,
    });
  }
}

export class InvalidSegmentTransitionError extends CairnError {
  override readonly code = 'InvalidSegmentTransition' as const;
  constructor(
    readonly segmentId: string,
    readonly from: string,
    readonly to: string,
  ) {
    super('InvalidSegmentTransition', `segment ${segmentId} cannot move from ${from} to ${to}`, {
      segmentId,
      from,
      to,
    });
  }
}

export class InvalidPartitionDeleteTransitionError extends CairnError {
  override readonly code = 'InvalidPartitionDeleteTransition' as const;
  constructor(
    tp: PartitionLabel,
    readonly from: string,
    readonly to: string,
  ) {
    super(
      'InvalidPartitionDeleteTransition',
      `partition ${labelOf(tp)} delete cannot move from ${from} to ${to}`,
      {
        topicId: tp.topicId,
        partition: tp.partition,
        from,
        to,
      },
    );
  }
}

/**
 * The manager cannot answer for the partition yet: its first load after being taken on is in
 * progress (or failed and has not been retried), or the partition was never taken on.
 */
export class NotReadyError extends CairnError {
  override readonly code = 'NotReady' as const;
  constructor(
    tp: PartitionLabel,
    readonly reason: 'loading' | 'not-assigned' | 'load-failed',
  ) {
    super('NotReady', `partition ${labelOf(tp)} metadata is not ready (${reason})`, {
      topicId: tp.topicId,
      partition: tp.partition,
      reason,
    });
  }
}

/** The metadata store could not be read or written; `cause` holds the storage error. */
export class TieringIoError extends CairnError {
  override readonly code = 'Io' as const;
  /**
   * `subject`: a partition, or null for store-wide operations such as listing partitions.
   * `details.causeCode` carries the storage error's code (e.g. Unavailable: worth a retry).
   */
  constructor(
    subject: PartitionLabel | null,
    operation: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    const what =
      subject === null ? 'tiering metadata' : `metadata of partition ${labelOf(subject)}`;
    const cause = options?.cause;
    super(
      'Io',
      `cannot ${operation} ${what}: ${detail}`,
      {
        topicId: subject?.topicId ?? null,
        partition: subject?.partition ?? null,
        operation,
        causeCode: cause instanceof CairnError ? cause.code : null,
      },
      options,
    );
  }
}

/** An input that breaks a type rule; `field` is its path, e.g. `segmentLeaderEpochs.1.epoch`. */
export class InvalidMetadataError extends CairnError {
  override readonly code = 'InvalidMetadata' as const;
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super('InvalidMetadata', `invalid ${field}: ${problem}`, { field, problem });
  }
}
