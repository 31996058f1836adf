/** Engine metadata in the API's shapes: flat segment ids, plain markers. Pure; no I/O. */
import type { PartitionDeleteMarker, Segment } from '../../../shared/contract/segments';
import type { z } from 'zod';
import type { RemoteLogSegmentMetadata, RemotePartitionDeleteMetadata } from '../../engine/tiering';

export function presentSegment(metadata: RemoteLogSegmentMetadata): Segment {
  return {
    segmentId: metadata.segmentId.id,
    startOffset: metadata.startOffset,
    endOffset: metadata.endOffset,
    segmentLeaderEpochs: metadata.segmentLeaderEpochs.map(({ epoch, startOffset }) => ({
      epoch,
      startOffset,
    })),
    state: metadata.state,
    segmentSizeBytes: metadata.segmentSizeBytes,
    brokerId: metadata.brokerId,
    eventTimestampMs: metadata.eventTimestampMs,
    maxTimestampMs: metadata.maxTimestampMs,
    eventId: metadata.eventId,
    ...(metadata.customMetadata === undefined ? {} : { customMetadata: metadata.customMetadata }),
  };
}

export function presentDeleteMarker(
  metadata: RemotePartitionDeleteMetadata | null,
): z.output<typeof PartitionDeleteMarker> | null {
  if (metadata === null) return null;
  return {
    state: metadata.state,
    brokerId: metadata.brokerId,
    eventTimestampMs: metadata.eventTimestampMs,
  };
}
