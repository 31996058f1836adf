/**
 * Tiered-storage segment metadata (KIP-405) as the API speaks it: pick a topic-partition of
 * a connection, read its segments, look one up by (epoch, offset), and - in operator mode -
 * publish add / update / partition-delete events. Owns the input limits and the output
 * shapes; never the state rules themselves (the engine's transition tables answer
 * `segments.transitions`, and the engine re-validates every event it publishes).
 */
import { z } from 'zod';
import { Confirmation, ConnectionId } from './common';
import { procedure } from './procedure';

// The engine's state names (src/main/engine/tiering/state-machines.ts); the service checks
// at compile time that these lists are exactly the engine's.
export const SEGMENT_STATE_NAMES = [
  'COPY_SEGMENT_STARTED',
  'COPY_SEGMENT_FINISHED',
  'DELETE_SEGMENT_STARTED',
  'DELETE_SEGMENT_FINISHED',
] as const;
export const PARTITION_DELETE_STATE_NAMES = [
  'DELETE_PARTITION_MARKED',
  'DELETE_PARTITION_STARTED',
  'DELETE_PARTITION_FINISHED',
] as const;

export const SegmentState = z.enum(SEGMENT_STATE_NAMES);
export type SegmentState = z.infer<typeof SegmentState>;
export const PartitionDeleteState = z.enum(PARTITION_DELETE_STATE_NAMES);
export type PartitionDeleteState = z.infer<typeof PartitionDeleteState>;

const MAX_INT32 = 2_147_483_647;
/** Kafka caps a segment's leader-epoch entries far below this; it only keeps junk out. */
const MAX_EPOCH_ENTRIES = 10_000;
const MAX_CUSTOM_METADATA_CHARS = 8192;

/** Canonical 8-4-4-4-12 hex form, lower-cased so one id names one partition cell. */
export const Uuid = z
  .string()
  .max(36)
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be a UUID (8-4-4-4-12 hex digits)',
  )
  .transform((id) => id.toLowerCase());

/** Kafka's legal topic names. */
export const TopicName = z
  .string()
  .min(1, 'must not be empty')
  .max(249, 'longer than 249 characters')
  .regex(/^[a-zA-Z0-9._-]+$/, 'may hold only letters, digits, ".", "_" and "-"');

const NonNegative = z.int('must be an integer').min(0, 'must not be negative');
export const Offset = NonNegative;
export const LeaderEpoch = NonNegative.max(MAX_INT32);
export const PartitionNumber = NonNegative.max(MAX_INT32);
export const BrokerId = NonNegative.max(MAX_INT32);
const TimestampMs = z.int('must be an integer');
const CustomMetadata = z.base64('must be base64').max(MAX_CUSTOM_METADATA_CHARS);

export const LeaderEpochEntry = z.object({ epoch: LeaderEpoch, startOffset: Offset }).strict();
export type LeaderEpochEntry = z.infer<typeof LeaderEpochEntry>;

/** Which partition: its topic id and number; the topic name is informational (and needed to add). */
const partitionFields = {
  connectionId: ConnectionId,
  topicId: Uuid,
  partition: PartitionNumber,
  topic: TopicName.optional(),
};
export const PartitionInput = z.object(partitionFields).strict();

/** The id of one publish; the UI reuses it when it retries the same action. */
const eventFields = { eventId: Uuid.optional(), eventTimestampMs: TimestampMs.optional() };

// ----- outputs -----

export const StoredPartition = z.object({
  topicId: z.string(),
  partition: z.number(),
  /** Known once a segment was published for it (or given by the caller); null otherwise. */
  topic: z.string().nullable(),
});
export type StoredPartition = z.infer<typeof StoredPartition>;

/** A partition as the listing shows it: a cell that cannot be read is named, with its key and why. */
export const ListedPartition = StoredPartition.extend({
  damage: z.object({ key: z.string(), reason: z.string() }).nullable(),
});
export type ListedPartition = z.infer<typeof ListedPartition>;

export const Segment = z.object({
  segmentId: z.string(),
  startOffset: z.number(),
  endOffset: z.number(),
  segmentLeaderEpochs: z.array(LeaderEpochEntry),
  state: SegmentState,
  segmentSizeBytes: z.number(),
  brokerId: z.number(),
  eventTimestampMs: z.number(),
  maxTimestampMs: z.number(),
  /** The last event that changed this segment. */
  eventId: z.string(),
  customMetadata: z.string().optional(),
});
export type Segment = z.infer<typeof Segment>;

export const PartitionDeleteMarker = z.object({
  state: PartitionDeleteState,
  brokerId: z.number(),
  eventTimestampMs: z.number(),
});

export const PartitionSegments = z.object({
  partition: StoredPartition,
  /** The partition cell's version this console has applied (0: nothing was ever published). */
  version: z.number(),
  caughtUp: z.boolean(),
  deleteMarker: PartitionDeleteMarker.nullable(),
  segments: z.array(Segment),
});
export type PartitionSegments = z.infer<typeof PartitionSegments>;

// ----- inputs with rules across fields -----

/** Epochs ascending, their first offsets ascending and inside [startOffset, endOffset]. */
function checkSegmentShape(
  input: {
    startOffset: number;
    endOffset: number;
    segmentLeaderEpochs: readonly LeaderEpochEntry[];
  },
  ctx: z.RefinementCtx,
): void {
  if (input.startOffset > input.endOffset) {
    ctx.addIssue({
      code: 'custom',
      path: ['endOffset'],
      message: `must not be below startOffset ${input.startOffset}`,
    });
    return;
  }
  input.segmentLeaderEpochs.forEach((entry, index) => {
    const previous = input.segmentLeaderEpochs[index - 1];
    const path = ['segmentLeaderEpochs', index];
    if (previous !== undefined && entry.epoch <= previous.epoch) {
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'epoch'],
        message: `epoch ${entry.epoch} must be above epoch ${previous.epoch}`,
      });
    } else if (previous !== undefined && entry.startOffset <= previous.startOffset) {
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'startOffset'],
        message: `${entry.startOffset} must be above ${previous.startOffset}`,
      });
    } else if (entry.startOffset < input.startOffset || entry.startOffset > input.endOffset) {
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'startOffset'],
        message: `${entry.startOffset} is outside [${input.startOffset}, ${input.endOffset}]`,
      });
    }
  });
}

export const AddSegmentInput = z
  .object({
    ...partitionFields,
    ...eventFields,
    /** Default: a random UUID chosen by the service. */
    segmentId: Uuid.optional(),
    startOffset: Offset,
    endOffset: Offset,
    segmentLeaderEpochs: z
      .array(LeaderEpochEntry)
      .min(1, 'must hold at least one epoch')
      .max(MAX_EPOCH_ENTRIES),
    segmentSizeBytes: NonNegative,
    brokerId: BrokerId,
    maxTimestampMs: TimestampMs,
    customMetadata: CustomMetadata.optional(),
  })
  .strict()
  .superRefine(checkSegmentShape);
export type AddSegmentInput = z.output<typeof AddSegmentInput>;

export const UpdateSegmentInput = z
  .object({
    ...partitionFields,
    ...eventFields,
    segmentId: Uuid,
    state: SegmentState,
    /** Default: the segment's current broker. */
    brokerId: BrokerId.optional(),
    customMetadata: CustomMetadata.optional(),
  })
  .strict();
export type UpdateSegmentInput = z.output<typeof UpdateSegmentInput>;

export const DeletePartitionInput = z
  .object({
    ...partitionFields,
    ...eventFields,
    state: PartitionDeleteState,
    /** Default: the broker of the partition's current delete marker, else 0. */
    brokerId: BrokerId.optional(),
    confirm: Confirmation.optional(),
  })
  .strict();
export type DeletePartitionInput = z.output<typeof DeletePartitionInput>;

export const FindSegmentInput = z
  .object({ ...partitionFields, epoch: LeaderEpoch, offset: Offset })
  .strict();
export const HighestOffsetInput = z.object({ ...partitionFields, epoch: LeaderEpoch }).strict();

export const TransitionsInput = z.discriminatedUnion('lifecycle', [
  z
    .object({ lifecycle: z.literal('segment'), from: z.union([z.literal('NONE'), SegmentState]) })
    .strict(),
  z
    .object({
      lifecycle: z.literal('partition-delete'),
      from: z.union([z.literal('NONE'), PartitionDeleteState]),
    })
    .strict(),
]);

/** `0:100,1:150` (epoch:firstOffset pairs) as the CLI and the console's form take them; null if malformed. */
export function leaderEpochsFromText(text: string): LeaderEpochEntry[] | null {
  const pairs = text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '');
  const entries: LeaderEpochEntry[] = [];
  for (const pair of pairs) {
    const match = /^(\d{1,15}):(\d{1,16})$/.exec(pair);
    if (match === null) return null;
    entries.push({ epoch: Number(match[1]), startOffset: Number(match[2]) });
  }
  return entries;
}

export function leaderEpochsToText(entries: readonly LeaderEpochEntry[]): string {
  return entries.map((entry) => `${entry.epoch}:${entry.startOffset}`).join(',');
}

export const segmentProcedures = {
  'segments.partitions': procedure(
    'read',
    "Topic-partitions that hold tiered-segment metadata under the connection's root",
    z.object({ connectionId: ConnectionId }).strict(),
    z.array(ListedPartition),
  ),
  'segments.list': procedure(
    'read',
    'Every known segment of a partition by start offset (caught up with the store first)',
    PartitionInput,
    PartitionSegments,
  ),
  'segments.find': procedure(
    'read',
    'The finished segment serving an offset of a leader epoch, or null',
    FindSegmentInput,
    Segment.nullable(),
  ),
  'segments.highest': procedure(
    'read',
    'The highest end offset among finished segments carrying a leader epoch, or null',
    HighestOffsetInput,
    z.number().nullable(),
  ),
  'segments.add': procedure(
    'operate',
    'Record a new segment copy (COPY_SEGMENT_STARTED)',
    AddSegmentInput,
    Segment,
  ),
  'segments.update': procedure(
    'operate',
    'Move a segment along its lifecycle (null once DELETE_SEGMENT_FINISHED drops it)',
    UpdateSegmentInput,
    Segment.nullable(),
  ),
  'segments.deletePartition': procedure(
    'operate',
    "Move the partition's delete marker (FINISHED drops its segment metadata)",
    DeletePartitionInput,
    PartitionDeleteMarker,
  ),
  'segments.caughtUp': procedure(
    'read',
    'Whether this console has applied every event the store had committed for the partition',
    PartitionInput,
    z.boolean(),
  ),
  'segments.transitions': procedure(
    'read',
    "The states a segment or partition-delete state may move to (the engine's table)",
    TransitionsInput,
    z.array(z.union([SegmentState, PartitionDeleteState])),
  ),
};
