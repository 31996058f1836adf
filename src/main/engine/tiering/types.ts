/**
 * The tiered-storage metadata types (KIP-405) as zod schemas: one declaration is both the
 * TypeScript type and the runtime check, and every parse failure becomes an
 * `InvalidMetadataError` naming the field. Owns the shape rules of one event; never the rules
 * that depend on what is already stored (duplicates, transitions).
 */
import { z } from 'zod';
import { InvalidMetadataError } from './errors';
import { PARTITION_DELETE_STATES, SEGMENT_STATES } from './state-machines';

/** Canonical 8-4-4-4-12 hex form; stored lower-case so one id names one cell. */
const UUID_PATTERN =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const uuidSchema = z
  .string()
  .regex(UUID_PATTERN, 'not a well-formed UUID')
  .transform((id) => id.toLowerCase());

/** Kafka's legal topic names. */
const topicNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(249, 'longer than 249 characters')
  .regex(/^[a-zA-Z0-9._-]+$/, 'may hold only letters, digits, ".", "_" and "-"');

const offsetSchema = z.int('must be an integer').min(0, 'must not be negative');
const epochSchema = z.int('must be an integer').min(0, 'must not be negative');
const timestampSchema = z.int('must be an integer');
const brokerIdSchema = z.int('must be an integer').min(0, 'must not be negative');

export const topicIdPartitionSchema = z.strictObject({
  topicId: uuidSchema,
  topic: topicNameSchema,
  partition: z.int('must be an integer').min(0, 'must not be negative'),
});
export type TopicIdPartition = z.output<typeof topicIdPartitionSchema>;

export const remoteLogSegmentIdSchema = z.strictObject({
  topicIdPartition: topicIdPartitionSchema,
  id: uuidSchema,
});
export type RemoteLogSegmentId = z.output<typeof remoteLogSegmentIdSchema>;

/** One entry of a segment's leader-epoch map: the epoch and its first offset in the segment. */
export const leaderEpochEntrySchema = z.strictObject({
  epoch: epochSchema,
  startOffset: offsetSchema,
});
export type LeaderEpochEntry = z.output<typeof leaderEpochEntrySchema>;

const customMetadataSchema = z.base64('must be base64').optional();

export const segmentStateSchema = z.enum(SEGMENT_STATES);
export const partitionDeleteStateSchema = z.enum(PARTITION_DELETE_STATES);

export const remoteLogSegmentMetadataSchema = z
  .strictObject({
    eventId: uuidSchema,
    segmentId: remoteLogSegmentIdSchema,
    startOffset: offsetSchema,
    endOffset: offsetSchema,
    maxTimestampMs: timestampSchema,
    brokerId: brokerIdSchema,
    eventTimestampMs: timestampSchema,
    segmentSizeBytes: z.int('must be an integer').min(0, 'must not be negative'),
    segmentLeaderEpochs: z.array(leaderEpochEntrySchema).min(1, 'must hold at least one epoch'),
    state: segmentStateSchema,
    customMetadata: customMetadataSchema,
  })
  .superRefine((m, ctx) => {
    if (m.startOffset > m.endOffset) {
      ctx.addIssue({
        code: 'custom',
        path: ['startOffset'],
        message: `${m.startOffset} is greater than endOffset ${m.endOffset}`,
      });
      return;
    }
    checkEpochMap(m.segmentLeaderEpochs, m.startOffset, m.endOffset).forEach((issue) =>
      ctx.addIssue(issue),
    );
  });
/** A segment's metadata; as stored, `eventId` is the last event that changed it. */
export type RemoteLogSegmentMetadata = z.output<typeof remoteLogSegmentMetadataSchema>;

/** Epochs strictly ascending, their first offsets strictly ascending and inside [start, end]. */
function checkEpochMap(
  entries: readonly LeaderEpochEntry[],
  startOffset: number,
  endOffset: number,
): { code: 'custom'; path: (string | number)[]; message: string }[] {
  const issues: { code: 'custom'; path: (string | number)[]; message: string }[] = [];
  entries.forEach((entry, i) => {
    const previous = i > 0 ? entries[i - 1] : undefined;
    if (previous !== undefined && entry.epoch <= previous.epoch) {
      issues.push({
        code: 'custom',
        path: ['segmentLeaderEpochs', i, 'epoch'],
        message: `${entry.epoch} does not ascend after epoch ${previous.epoch}`,
      });
    } else if (previous !== undefined && entry.startOffset <= previous.startOffset) {
      issues.push({
        code: 'custom',
        path: ['segmentLeaderEpochs', i, 'startOffset'],
        message: `${entry.startOffset} does not ascend after ${previous.startOffset}`,
      });
    } else if (entry.startOffset < startOffset || entry.startOffset > endOffset) {
      issues.push({
        code: 'custom',
        path: ['segmentLeaderEpochs', i, 'startOffset'],
        message: `${entry.startOffset} is outside the segment [${startOffset}, ${endOffset}]`,
      });
    }
  });
  return issues;
}

export const remoteLogSegmentMetadataUpdateSchema = z.strictObject({
  eventId: uuidSchema,
  segmentId: remoteLogSegmentIdSchema,
  eventTimestampMs: timestampSchema,
  state: segmentStateSchema,
  brokerId: brokerIdSchema,
  customMetadata: customMetadataSchema,
});
export type RemoteLogSegmentMetadataUpdate = z.output<typeof remoteLogSegmentMetadataUpdateSchema>;

export const remotePartitionDeleteMetadataSchema = z.strictObject({
  eventId: uuidSchema,
  topicIdPartition: topicIdPartitionSchema,
  state: partitionDeleteStateSchema,
  eventTimestampMs: timestampSchema,
  brokerId: brokerIdSchema,
});
export type RemotePartitionDeleteMetadata = z.output<typeof remotePartitionDeleteMetadataSchema>;

/** The three events a partition's metadata is made of. */
export type TieringEvent =
  | { readonly kind: 'addSegment'; readonly metadata: RemoteLogSegmentMetadata }
  | { readonly kind: 'updateSegment'; readonly update: RemoteLogSegmentMetadataUpdate }
  | { readonly kind: 'deletePartition'; readonly metadata: RemotePartitionDeleteMetadata };

export function eventIdOf(event: TieringEvent): string {
  return event.kind === 'updateSegment' ? event.update.eventId : event.metadata.eventId;
}

export function partitionOf(event: TieringEvent): TopicIdPartition {
  switch (event.kind) {
    case 'addSegment':
      return event.metadata.segmentId.topicIdPartition;
    case 'updateSegment':
      return event.update.segmentId.topicIdPartition;
    case 'deletePartition':
      return event.metadata.topicIdPartition;
  }
}

/** Parse with `schema`, turning the first issue into an error that names its field. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  input: unknown,
  what: string,
): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field =
    issue === undefined || issue.path.length === 0
      ? what
      : [what, ...issue.path.map(String)].join('.');
  throw new InvalidMetadataError(field, issue?.message ?? 'invalid');
}

export const parseSegmentMetadata = (input: unknown): RemoteLogSegmentMetadata =>
  parseOrThrow(remoteLogSegmentMetadataSchema, input, 'metadata');
export const parseSegmentUpdate = (input: unknown): RemoteLogSegmentMetadataUpdate =>
  parseOrThrow(remoteLogSegmentMetadataUpdateSchema, input, 'update');
export const parsePartitionDelete = (input: unknown): RemotePartitionDeleteMetadata =>
  parseOrThrow(remotePartitionDeleteMetadataSchema, input, 'metadata');
export const parseTopicIdPartition = (input: unknown): TopicIdPartition =>
  parseOrThrow(topicIdPartitionSchema, input, 'topicIdPartition');
export const parseLeaderEpoch = (input: unknown): number =>
  parseOrThrow(epochSchema, input, 'leaderEpoch');
export const parseOffset = (input: unknown): number => parseOrThrow(offsetSchema, input, 'offset');

/** The identity of a partition's metadata: topic id and partition (the name is informational). */
export function partitionKey(tp: Pick<TopicIdPartition, 'topicId' | 'partition'>): string {
  return `${tp.topicId}-${tp.partition}`;
}
