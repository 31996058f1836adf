/**
 * The metadata of one topic-partition as a pure, immutable value (the analogue of Kafka's
 * RemoteLogMetadataCache plus the partition-delete state): `apply(event)` returns the next
 * state or throws the typed error the event deserves; the queries answer the seed's contract.
 * Owns the event semantics and the query rules; never performs I/O and never mutates itself,
 * so a manager can try an event against a snapshot and keep the old value when it fails.
 */
import {
  EMPTY_EPOCH_INDEX,
  floorEntry,
  referenceFinishedSegment,
  unreferenceSegment,
  type EpochIndex,
} from './epoch-index';
import { InvalidAddError, SegmentNotFoundError } from './errors';
import {
  SEGMENT_TRANSITIONS,
  checkPartitionDeleteTransition,
  checkSegmentTransition,
  isValidTransition,
  type RemoteLogSegmentState,
} from './state-machines';
import {
  eventIdOf,
  type RemoteLogSegmentMetadata,
  type RemoteLogSegmentMetadataUpdate,
  type RemotePartitionDeleteMetadata,
  type TieringEvent,
  type TopicIdPartition,
} from './types';

/**
 * How many applied event ids a partition remembers. A retry is recognised as long as fewer
 * than this many events were applied to the partition after it; older retries are judged as
 * new events.
 */
export const APPLIED_EVENT_WINDOW = 1000;

/** Plain data of a state, for the codec; arrays in a canonical order. */
export interface PartitionStateData {
  readonly topicIdPartition: TopicIdPartition;
  readonly deleteMetadata: RemotePartitionDeleteMetadata | null;
  /** Ascending by segment id. */
  readonly segments: readonly RemoteLogSegmentMetadata[];
  /** Ascending by epoch. */
  readonly epochs: readonly ({ readonly epoch: number } & EpochIndex)[];
  /** Oldest first. */
  readonly appliedEventIds: readonly string[];
}

type EpochIndexOperation = (
  index: EpochIndex,
  segment: RemoteLogSegmentMetadata,
  epoch: number,
  epochStart: number,
) => EpochIndex;

/**
 * What entering a state does to the epoch indexes of the segment's epochs (data, like the
 * transition table). DELETE_SEGMENT_FINISHED also drops the segment: see `SEGMENT_DROPPED_IN`.
 */
const ON_ENTER_SEGMENT_STATE: Readonly<Record<RemoteLogSegmentState, EpochIndexOperation | null>> =
  {
    COPY_SEGMENT_STARTED: null,
    COPY_SEGMENT_FINISHED: (index, segment, epoch, epochStart) =>
      referenceFinishedSegment(
        index,
        epochStart,
        segment.segmentId.id,
        epochEndInSegment(segment, epoch),
      ),
    DELETE_SEGMENT_STARTED: (index, segment, _epoch, epochStart) =>
      unreferenceSegment(index, epochStart, segment.segmentId.id),
    DELETE_SEGMENT_FINISHED: null,
  };

/** Kafka's cache forgets a segment once it is deleted. */
const SEGMENT_DROPPED_IN: RemoteLogSegmentState = 'DELETE_SEGMENT_FINISHED';
/** Only copied segments serve reads. */
const READABLE_STATE: RemoteLogSegmentState = 'COPY_SEGMENT_FINISHED';

/** The last offset of `epoch` inside `segment`: the next epoch's first offset - 1, or the segment's end. */
export function epochEndInSegment(segment: RemoteLogSegmentMetadata, epoch: number): number {
  const next = segment.segmentLeaderEpochs.find((entry) => entry.epoch > epoch);
  return next === undefined ? segment.endOffset : next.startOffset - 1;
}

function epochStartInSegment(segment: RemoteLogSegmentMetadata, epoch: number): number | undefined {
  return segment.segmentLeaderEpochs.find((entry) => entry.epoch === epoch)?.startOffset;
}

function byStartOffset(a: RemoteLogSegmentMetadata, b: RemoteLogSegmentMetadata): number {
  return (
    a.startOffset - b.startOffset ||
    (a.segmentId.id < b.segmentId.id ? -1 : a.segmentId.id > b.segmentId.id ? 1 : 0)
  );
}

export class PartitionMetadataState {
  private readonly appliedSet: ReadonlySet<string>;

  private constructor(
    readonly topicIdPartition: TopicIdPartition,
    private readonly segments: ReadonlyMap<string, RemoteLogSegmentMetadata>,
    private readonly epochs: ReadonlyMap<number, EpochIndex>,
    readonly deleteMetadata: RemotePartitionDeleteMetadata | null,
    private readonly appliedEventIds: readonly string[],
  ) {
    this.appliedSet = new Set(appliedEventIds);
  }

  static empty(tp: TopicIdPartition): PartitionMetadataState {
    return new PartitionMetadataState(tp, new Map(), new Map(), null, []);
  }

  static fromData(data: PartitionStateData): PartitionMetadataState {
    return new PartitionMetadataState(
      data.topicIdPartition,
      new Map(data.segments.map((s) => [s.segmentId.id, s])),
      new Map(
        data.epochs.map(({ epoch, referenced, highestEpochEnd }) => [
          epoch,
          { referenced, highestEpochEnd },
        ]),
      ),
      data.deleteMetadata,
      data.appliedEventIds,
    );
  }

  toData(): PartitionStateData {
    return {
      topicIdPartition: this.topicIdPartition,
      deleteMetadata: this.deleteMetadata,
      segments: [...this.segments.values()].sort((a, b) =>
        a.segmentId.id < b.segmentId.id ? -1 : 1,
      ),
      epochs: [...this.epochs.entries()]
        .sort(([a], [b]) => a - b)
        .map(([epoch, index]) => ({ epoch, ...index })),
      appliedEventIds: this.appliedEventIds,
    };
  }

  hasApplied(eventId: string): boolean {
    return this.appliedSet.has(eventId);
  }

  /**
   * The state after `event`, or this very state when the event was already applied (a retry
   * after a lost response). Throws the event's typed error otherwise; never partially applies.
   */
  apply(event: TieringEvent): PartitionMetadataState {
    const eventId = eventIdOf(event);
    if (this.hasApplied(eventId)) return this;
    switch (event.kind) {
      case 'addSegment':
        return this.addSegment(event.metadata).remember(eventId);
      case 'updateSegment':
        return this.updateSegment(event.update).remember(eventId);
      case 'deletePartition':
        return this.deletePartition(event.metadata).remember(eventId);
    }
  }

  // ----- queries (the seed's contract) -----

  /**
   * The finished segment serving `offset` in `epoch`: the referenced segment with the greatest
   * epoch-start offset at or below `offset`, if `offset` is within that epoch's range in it.
   */
  remoteLogSegmentMetadata(epoch: number, offset: number): RemoteLogSegmentMetadata | null {
    const entry = floorEntry(this.epochs.get(epoch) ?? EMPTY_EPOCH_INDEX, offset);
    const segment = entry === null ? undefined : this.segments.get(entry.segmentId);
    if (segment === undefined || segment.state !== READABLE_STATE) return null;
    return offset > epochEndInSegment(segment, epoch) ? null : segment;
  }

  /**
   * The seed's rule: the greatest `endOffset` among COPY_SEGMENT_FINISHED segments that carry
   * `epoch`. Kafka's cache differs: it keeps the epoch's end inside each segment (the next
   * epoch's start - 1), counts segments in later states too, and never lowers the value.
   */
  highestOffsetForEpoch(epoch: number): number | null {
    let highest: number | null = null;
    for (const segment of this.segments.values()) {
      if (segment.state === READABLE_STATE && epochStartInSegment(segment, epoch) !== undefined) {
        highest = highest === null ? segment.endOffset : Math.max(highest, segment.endOffset);
      }
    }
    return highest;
  }

  /** Every known segment, whatever its state (deleted ones are already dropped), by start offset. */
  listRemoteLogSegments(): RemoteLogSegmentMetadata[] {
    return [...this.segments.values()].sort(byStartOffset);
  }

  listRemoteLogSegmentsByEpoch(epoch: number): RemoteLogSegmentMetadata[] {
    return this.listRemoteLogSegments().filter(
      (segment) => epochStartInSegment(segment, epoch) !== undefined,
    );
  }

  segment(segmentId: string): RemoteLogSegmentMetadata | undefined {
    return this.segments.get(segmentId);
  }

  // ----- event handlers -----

  private addSegment(metadata: RemoteLogSegmentMetadata): PartitionMetadataState {
    const id = metadata.segmentId.id;
    if (!isValidTransition(SEGMENT_TRANSITIONS, null, metadata.state)) {
      throw new InvalidAddError(id, 'not-copy-started', metadata.state);
    }
    if (this.segments.has(id)) throw new InvalidAddError(id, 'duplicate-id', metadata.state);
    return this.withSegment(metadata, metadata.state);
  }

  private updateSegment(update: RemoteLogSegmentMetadataUpdate): PartitionMetadataState {
    const id = update.segmentId.id;
    const existing = this.segments.get(id);
    if (existing === undefined) throw new SegmentNotFoundError(id, this.topicIdPartition);
    checkSegmentTransition(id, existing.state, update.state);
    const { customMetadata: _previous, ...unchanged } = existing;
    const updated: RemoteLogSegmentMetadata = {
      ...unchanged,
      eventId: update.eventId,
      state: update.state,
      eventTimestampMs: update.eventTimestampMs,
      brokerId: update.brokerId,
      // Kafka's createWithUpdates takes the update's custom metadata, present or not.
      ...(update.customMetadata === undefined ? {} : { customMetadata: update.customMetadata }),
    };
    // A same-state move (a replay) refreshes the record but must not re-run the index rule.
    return this.withSegment(updated, existing.state === update.state ? null : update.state);
  }

  private deletePartition(metadata: RemotePartitionDeleteMetadata): PartitionMetadataState {
    checkPartitionDeleteTransition(
      this.topicIdPartition,
      this.deleteMetadata?.state ?? null,
      metadata.state,
    );
    // Unlike Kafka's in-memory manager we keep the FINISHED marker: topic ids are never reused,
    // and a later MARKED for this id would be a mistake worth refusing.
    const dropsSegments = metadata.state === 'DELETE_PARTITION_FINISHED';
    return new PartitionMetadataState(
      this.topicIdPartition,
      dropsSegments ? new Map() : this.segments,
      dropsSegments ? new Map() : this.epochs,
      metadata,
      this.appliedEventIds,
    );
  }

  /** Store `segment` and run the index effects of entering `entered` (null: no state change). */
  private withSegment(
    segment: RemoteLogSegmentMetadata,
    entered: RemoteLogSegmentState | null,
  ): PartitionMetadataState {
    const segments = new Map(this.segments);
    if (segment.state === SEGMENT_DROPPED_IN) segments.delete(segment.segmentId.id);
    else segments.set(segment.segmentId.id, segment);
    const operation = entered === null ? null : ON_ENTER_SEGMENT_STATE[entered];
    const epochs = operation === null ? this.epochs : this.epochsAfter(operation, segment);
    return new PartitionMetadataState(
      this.topicIdPartition,
      segments,
      epochs,
      this.deleteMetadata,
      this.appliedEventIds,
    );
  }

  private epochsAfter(
    operation: EpochIndexOperation,
    segment: RemoteLogSegmentMetadata,
  ): ReadonlyMap<number, EpochIndex> {
    const epochs = new Map(this.epochs);
    for (const { epoch, startOffset } of segment.segmentLeaderEpochs) {
      epochs.set(
        epoch,
        operation(epochs.get(epoch) ?? EMPTY_EPOCH_INDEX, segment, epoch, startOffset),
      );
    }
    return epochs;
  }

  private remember(eventId: string): PartitionMetadataState {
    const applied = [...this.appliedEventIds, eventId].slice(-APPLIED_EVENT_WINDOW);
    return new PartitionMetadataState(
      this.topicIdPartition,
      this.segments,
      this.epochs,
      this.deleteMetadata,
      applied,
    );
  }
}
