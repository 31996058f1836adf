/** How the segments view names things: partitions, states and the actions that reach them. */
import { partitionPhrase } from '../../../../shared/contract/confirmations';
import type {
  PartitionDeleteState,
  SegmentState,
  StoredPartition,
} from '../../../../shared/contract/segments';

export interface SelectedPartition {
  readonly topicId: string;
  readonly partition: number;
  /** Given by the user when opening a partition that has no metadata yet. */
  readonly topic?: string;
}

/** What the user types to confirm a partition delete: `<topic>-<n>`, or `<topicId>-<n>` when unnamed. */
export function partitionName(
  partition: Pick<StoredPartition, 'topicId' | 'partition'> & { topic?: string | null },
): string {
  return partitionPhrase(partition);
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The verb of a move into each state, for buttons. */
export const ACTION_INTO: Readonly<Record<SegmentState | PartitionDeleteState, string>> = {
  COPY_SEGMENT_STARTED: 'Restart copy',
  COPY_SEGMENT_FINISHED: 'Finish copy',
  DELETE_SEGMENT_STARTED: 'Start delete',
  DELETE_SEGMENT_FINISHED: 'Finish delete',
  DELETE_PARTITION_MARKED: 'Mark for delete',
  DELETE_PARTITION_STARTED: 'Start partition delete',
  DELETE_PARTITION_FINISHED: 'Finish partition delete',
};

/** CSS class of a state's color (segments.css). */
export function stateClass(state: SegmentState): string {
  return `state-${state.toLowerCase().replaceAll('_', '-')}`;
}

/** A v4 UUID for a new segment or event id; the UI keeps it so a retry is the same event. */
export function newUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
