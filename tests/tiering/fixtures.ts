/**
 * Builders of tiering events for tests: a valid event by default, with the fields a test cares
 * about overridden. Ids are fresh UUIDs unless given.
 */
import { randomUUID } from 'node:crypto';
import type {
  LeaderEpochEntry,
  RemoteLogSegmentMetadata,
  RemoteLogSegmentMetadataUpdate,
  RemotePartitionDeleteMetadata,
  RemoteLogSegmentState,
  RemotePartitionDeleteState,
  TopicIdPartition,
} from '../../src/main/engine/tiering';

export function topicPartition(
  partition = 0,
  topicId: string = randomUUID(),
  topic = 'orders',
): TopicIdPartition {
  return { topicId, topic, partition };
}

export interface SegmentShape {
  readonly id?: string;
  readonly start: number;
  readonly end: number;
  /** `[epoch, firstOffset]` pairs; default: epoch 0 from `start`. */
  readonly epochs?: readonly (readonly [number, number])[];
  readonly state?: RemoteLogSegmentState;
  readonly eventId?: string;
}

export function segment(tp: TopicIdPartition, shape: SegmentShape): RemoteLogSegmentMetadata {
  const epochs: LeaderEpochEntry[] = (shape.epochs ?? [[0, shape.start]]).map(
    ([epoch, startOffset]) => ({ epoch, startOffset }),
  );
  return {
    eventId: shape.eventId ?? randomUUID(),
    segmentId: { topicIdPartition: tp, id: shape.id ?? randomUUID() },
    startOffset: shape.start,
    endOffset: shape.end,
    maxTimestampMs: 1_700_000_000_000,
    brokerId: 1,
    eventTimestampMs: 1_700_000_000_000,
    segmentSizeBytes: 1024,
    segmentLeaderEpochs: epochs,
    state: shape.state ?? 'COPY_SEGMENT_STARTED',
  };
}

export function update(
  segmentMetadata: Pick<RemoteLogSegmentMetadata, 'segmentId'>,
  state: RemoteLogSegmentState,
  eventId: string = randomUUID(),
): RemoteLogSegmentMetadataUpdate {
  return {
    eventId,
    segmentId: segmentMetadata.segmentId,
    eventTimestampMs: 1_700_000_000_500,
    state,
    brokerId: 2,
  };
}

export function partitionDelete(
  tp: TopicIdPartition,
  state: RemotePartitionDeleteState,
  eventId: string = randomUUID(),
): RemotePartitionDeleteMetadata {
  return { eventId, topicIdPartition: tp, state, eventTimestampMs: 1_700_000_001_000, brokerId: 3 };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ code: string; details: Record<string, unknown>; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; details: Record<string, unknown>; message: string };
  }
  throw new Error('expected a rejection, got a result');
}

/** Ids of segments in listing order. */
export function idsOf(segments: readonly RemoteLogSegmentMetadata[]): string[] {
  return segments.map((s) => s.segmentId.id);
}
