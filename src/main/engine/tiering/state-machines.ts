/**
 * The two lifecycles of KIP-405 as data: the states, a table of every valid transition, and one
 * check per table. Owns the rules "which move is allowed"; never applies a move or touches state.
 * A move to the same state is listed explicitly: retries and leader failover replay events.
 */
import {
  InvalidPartitionDeleteTransitionError,
  InvalidSegmentTransitionError,
  type PartitionLabel,
} from './errors';

export const SEGMENT_STATES = [
  'COPY_SEGMENT_STARTED',
  'COPY_SEGMENT_FINISHED',
  'DELETE_SEGMENT_STARTED',
  'DELETE_SEGMENT_FINISHED',
] as const;
export type RemoteLogSegmentState = (typeof SEGMENT_STATES)[number];

export const PARTITION_DELETE_STATES = [
  'DELETE_PARTITION_MARKED',
  'DELETE_PARTITION_STARTED',
  'DELETE_PARTITION_FINISHED',
] as const;
export type RemotePartitionDeleteState = (typeof PARTITION_DELETE_STATES)[number];

/** `from` a state (or `NONE` before the first event) to the states it may move to. */
export const NONE = 'NONE' as const;
export type TransitionTable<S extends string> = Readonly<Record<S | typeof NONE, readonly S[]>>;

export const SEGMENT_TRANSITIONS: TransitionTable<RemoteLogSegmentState> = {
  NONE: ['COPY_SEGMENT_STARTED'],
  COPY_SEGMENT_STARTED: ['COPY_SEGMENT_STARTED', 'COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED'],
  COPY_SEGMENT_FINISHED: ['COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED'],
  DELETE_SEGMENT_STARTED: ['DELETE_SEGMENT_STARTED', 'DELETE_SEGMENT_FINISHED'],
  DELETE_SEGMENT_FINISHED: ['DELETE_SEGMENT_FINISHED'],
};

export const PARTITION_DELETE_TRANSITIONS: TransitionTable<RemotePartitionDeleteState> = {
  NONE: ['DELETE_PARTITION_MARKED'],
  DELETE_PARTITION_MARKED: ['DELETE_PARTITION_MARKED', 'DELETE_PARTITION_STARTED'],
  DELETE_PARTITION_STARTED: ['DELETE_PARTITION_STARTED', 'DELETE_PARTITION_FINISHED'],
  DELETE_PARTITION_FINISHED: ['DELETE_PARTITION_FINISHED'],
};

export function isValidTransition<S extends string>(
  table: TransitionTable<S>,
  from: S | null,
  to: S,
): boolean {
  return table[from ?? NONE].includes(to);
}

export function checkSegmentTransition(
  segmentId: string,
  from: RemoteLogSegmentState | null,
  to: RemoteLogSegmentState,
): void {
  if (!isValidTransition(SEGMENT_TRANSITIONS, from, to)) {
    throw new InvalidSegmentTransitionError(segmentId, from ?? NONE, to);
  }
}

export function checkPartitionDeleteTransition(
  tp: PartitionLabel,
  from: RemotePartitionDeleteState | null,
  to: RemotePartitionDeleteState,
): void {
  if (!isValidTransition(PARTITION_DELETE_TRANSITIONS, from, to)) {
    throw new InvalidPartitionDeleteTransitionError(tp, from ?? NONE, to);
  }
}
