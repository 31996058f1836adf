/**
 * The spec's state rules as a table: every (from, to) pair of both lifecycles, including the
 * moves out of "none", checked against the transition tables and against the partition state
 * that applies them.
 */
import { describe, expect, it } from 'vitest';
import {
  PARTITION_DELETE_STATES,
  PARTITION_DELETE_TRANSITIONS,
  PartitionMetadataState,
  SEGMENT_STATES,
  SEGMENT_TRANSITIONS,
  isValidTransition,
  type RemoteLogSegmentState,
  type RemotePartitionDeleteState,
  type TieringEvent,
} from '../../src/main/engine/tiering';
import { partitionDelete, segment, topicPartition, update } from './fixtures';

type From<S> = S | 'NONE';

/** The spec, "State rules (exact)": every valid move; any other pair is invalid. */
const VALID_SEGMENT_MOVES: readonly [From<RemoteLogSegmentState>, RemoteLogSegmentState][] = [
  ['NONE', 'COPY_SEGMENT_STARTED'],
  ['COPY_SEGMENT_STARTED', 'COPY_SEGMENT_FINISHED'],
  ['COPY_SEGMENT_STARTED', 'DELETE_SEGMENT_STARTED'],
  ['COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED'],
  ['DELETE_SEGMENT_STARTED', 'DELETE_SEGMENT_FINISHED'],
  ...SEGMENT_STATES.map((s) => [s, s] as [RemoteLogSegmentState, RemoteLogSegmentState]),
];
const VALID_PARTITION_DELETE_MOVES: readonly [
  From<RemotePartitionDeleteState>,
  RemotePartitionDeleteState,
][] = [
  ['NONE', 'DELETE_PARTITION_MARKED'],
  ['DELETE_PARTITION_MARKED', 'DELETE_PARTITION_STARTED'],
  ['DELETE_PARTITION_STARTED', 'DELETE_PARTITION_FINISHED'],
  ...PARTITION_DELETE_STATES.map(
    (s) => [s, s] as [RemotePartitionDeleteState, RemotePartitionDeleteState],
  ),
];

function everyPair<S extends string>(
  states: readonly S[],
  valid: readonly [From<S>, S][],
): [From<S>, S, boolean][] {
  const froms: From<S>[] = ['NONE', ...states];
  return froms.flatMap((from) =>
    states.map((to): [From<S>, S, boolean] => [
      from,
      to,
      valid.some(([f, t]) => f === from && t === to),
    ]),
  );
}

const SEGMENT_ROWS = everyPair(SEGMENT_STATES, VALID_SEGMENT_MOVES);
const PARTITION_DELETE_ROWS = everyPair(PARTITION_DELETE_STATES, VALID_PARTITION_DELETE_MOVES);

/** The updates that bring a freshly added segment to `state`. */
const PATH_TO: Readonly<Record<RemoteLogSegmentState, readonly RemoteLogSegmentState[]>> = {
  COPY_SEGMENT_STARTED: [],
  COPY_SEGMENT_FINISHED: ['COPY_SEGMENT_FINISHED'],
  DELETE_SEGMENT_STARTED: ['COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED'],
  DELETE_SEGMENT_FINISHED: [
    'COPY_SEGMENT_FINISHED',
    'DELETE_SEGMENT_STARTED',
    'DELETE_SEGMENT_FINISHED',
  ],
};
const PARTITION_DELETE_PATH_TO: Readonly<
  Record<From<RemotePartitionDeleteState>, readonly RemotePartitionDeleteState[]>
> = {
  NONE: [],
  DELETE_PARTITION_MARKED: ['DELETE_PARTITION_MARKED'],
  DELETE_PARTITION_STARTED: ['DELETE_PARTITION_MARKED', 'DELETE_PARTITION_STARTED'],
  DELETE_PARTITION_FINISHED: [
    'DELETE_PARTITION_MARKED',
    'DELETE_PARTITION_STARTED',
    'DELETE_PARTITION_FINISHED',
  ],
};

function applyAll(
  state: PartitionMetadataState,
  events: readonly TieringEvent[],
): PartitionMetadataState {
  return events.reduce((s, e) => s.apply(e), state);
}

function codeOf(action: () => unknown): string | null {
  try {
    action();
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('segment lifecycle table', () => {
  it('lists exactly the spec rows as valid', () => {
    const valid = SEGMENT_ROWS.filter(([, , ok]) => ok).length;
    expect(valid).toBe(VALID_SEGMENT_MOVES.length);
  });

  it.each(SEGMENT_ROWS)('%s -> %s is valid: %s', (from, to, valid) => {
    expect(isValidTransition(SEGMENT_TRANSITIONS, from === 'NONE' ? null : from, to)).toBe(valid);
  });

  it.each(SEGMENT_ROWS)('applying %s -> %s (valid: %s) to a partition state', (from, to, valid) => {
    const tp = topicPartition();
    const empty = PartitionMetadataState.empty(tp);
    if (from === 'NONE') {
      // An add is the only way out of "none".
      const add = (): unknown =>
        empty.apply({ kind: 'addSegment', metadata: segment(tp, { start: 0, end: 9, state: to }) });
      expect(codeOf(add)).toBe(valid ? null : 'InvalidAdd');
      return;
    }
    const added = segment(tp, { start: 0, end: 9 });
    const before = applyAll(empty, [
      { kind: 'addSegment', metadata: added },
      ...PATH_TO[from].map((s): TieringEvent => ({
        kind: 'updateSegment',
        update: update(added, s),
      })),
    ]);
    let after: PartitionMetadataState | undefined;
    const code = codeOf(
      () => (after = before.apply({ kind: 'updateSegment', update: update(added, to) })),
    );
    if (from === 'DELETE_SEGMENT_FINISHED') {
      // A deleted segment is dropped from the metadata, as in Kafka's cache.
      expect(code).toBe('SegmentNotFound');
    } else if (valid) {
      expect(code).toBeNull();
      const stored = after?.segment(added.segmentId.id);
      if (to === 'DELETE_SEGMENT_FINISHED') expect(stored).toBeUndefined();
      else expect(stored?.state).toBe(to);
    } else {
      expect(code).toBe('InvalidSegmentTransition');
      expect(before.segment(added.segmentId.id)?.state).toBe(from);
    }
  });

  it('names both states in the error', () => {
    const tp = topicPartition();
    const added = segment(tp, { start: 0, end: 9 });
    const state = PartitionMetadataState.empty(tp).apply({ kind: 'addSegment', metadata: added });
    expect(() =>
      state.apply({ kind: 'updateSegment', update: update(added, 'DELETE_SEGMENT_FINISHED') }),
    ).toThrow(
      expect.objectContaining({
        code: 'InvalidSegmentTransition',
        details: expect.objectContaining({
          from: 'COPY_SEGMENT_STARTED',
          to: 'DELETE_SEGMENT_FINISHED',
        }),
      }),
    );
  });
});

describe('partition delete lifecycle table', () => {
  it.each(PARTITION_DELETE_ROWS)('%s -> %s is valid: %s', (from, to, valid) => {
    expect(isValidTransition(PARTITION_DELETE_TRANSITIONS, from === 'NONE' ? null : from, to)).toBe(
      valid,
    );
    const tp = topicPartition();
    const before = applyAll(
      PartitionMetadataState.empty(tp),
      PARTITION_DELETE_PATH_TO[from].map((s): TieringEvent => ({
        kind: 'deletePartition',
        metadata: partitionDelete(tp, s),
      })),
    );
    let after: PartitionMetadataState | undefined;
    const code = codeOf(
      () => (after = before.apply({ kind: 'deletePartition', metadata: partitionDelete(tp, to) })),
    );
    if (valid) {
      expect(code).toBeNull();
      expect(after?.deleteMetadata?.state).toBe(to);
    } else {
      expect(code).toBe('InvalidPartitionDeleteTransition');
      expect(before.deleteMetadata?.state ?? 'NONE').toBe(from);
    }
  });
});
