/**
 * The next states a lifecycle allows, read from the engine's transition tables (the one
 * source of the rules), and the compile-time proof that the contract's state names are the
 * engine's. Never decides a transition itself.
 */
import type { z } from 'zod';
import type {
  PartitionDeleteState,
  SegmentState,
  TransitionsInput,
} from '../../../shared/contract/segments';
import {
  PARTITION_DELETE_TRANSITIONS,
  SEGMENT_TRANSITIONS,
  type RemoteLogSegmentState,
  type RemotePartitionDeleteState,
} from '../../engine/tiering';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const segmentStatesMatch: Same<SegmentState, RemoteLogSegmentState> = true;
const deleteStatesMatch: Same<PartitionDeleteState, RemotePartitionDeleteState> = true;
void segmentStatesMatch;
void deleteStatesMatch;

export function nextStates(
  input: z.output<typeof TransitionsInput>,
): (SegmentState | PartitionDeleteState)[] {
  return input.lifecycle === 'segment'
    ? [...SEGMENT_TRANSITIONS[input.from]]
    : [...PARTITION_DELETE_TRANSITIONS[input.from]];
}
