/**
 * Query rules of a partition's metadata on hand-made epoch layouts: visibility by state, the
 * epoch's range inside a segment, re-uploads and overlaps (Kafka's unreferenced set), the
 * seed's highest-offset rule, deletes, idempotence and the deterministic encoding.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  APPLIED_EVENT_WINDOW,
  PartitionMetadataState,
  decodePartitionState,
  encodePartitionState,
  type RemoteLogSegmentMetadata,
  type RemoteLogSegmentState,
  type TieringEvent,
  type TopicIdPartition,
} from '../../src/main/engine/tiering';
import {
  idsOf,
  partitionDelete,
  segment,
  topicPartition,
  update,
  type SegmentShape,
} from './fixtures';

/** Build a state from segments, each added and then moved through `states`. */
class Layout {
  state: PartitionMetadataState;
  readonly byName = new Map<string, RemoteLogSegmentMetadata>();

  constructor(readonly tp: TopicIdPartition = topicPartition()) {
    this.state = PartitionMetadataState.empty(tp);
  }

  add(name: string, shape: SegmentShape, ...states: RemoteLogSegmentState[]): this {
    const metadata = segment(this.tp, { ...shape, id: shape.id ?? randomUUID() });
    this.byName.set(name, metadata);
    this.apply({ kind: 'addSegment', metadata });
    return this.move(name, ...states);
  }

  finished(name: string, shape: SegmentShape): this {
    return this.add(name, shape, 'COPY_SEGMENT_FINISHED');
  }

  move(name: string, ...states: RemoteLogSegmentState[]): this {
    const metadata = this.byName.get(name)!;
    states.forEach((state) =>
      this.apply({ kind: 'updateSegment', update: update(metadata, state) }),
    );
    return this;
  }

  apply(event: TieringEvent): this {
    this.state = this.state.apply(event);
    return this;
  }

  /** Name of the segment an offset query returns, or null. */
  find(epoch: number, offset: number): string | null {
    const found = this.state.remoteLogSegmentMetadata(epoch, offset);
    return found === null ? null : this.nameOf(found.segmentId.id);
  }

  names(segments: readonly RemoteLogSegmentMetadata[]): string[] {
    return idsOf(segments).map((id) => this.nameOf(id));
  }

  private nameOf(id: string): string {
    return [...this.byName].find(([, m]) => m.segmentId.id === id)?.[0] ?? id;
  }
}

describe('offset queries on a three-segment, three-epoch layout', () => {
  // S1 [0,99] epoch 0; S2 [100,199] epochs 0 (100..149) and 1 (150..199); S3 [200,299] epochs 1 (200..249), 2 (250..299).
  const layout = new Layout()
    .finished('S1', { start: 0, end: 99 })
    .finished('S2', {
      start: 100,
      end: 199,
      epochs: [
        [0, 100],
        [1, 150],
      ],
    })
    .finished('S3', {
      start: 200,
      end: 299,
      epochs: [
        [1, 200],
        [2, 250],
      ],
    });

  it.each([
    [0, 0, 'S1'],
    [0, 99, 'S1'],
    [0, 100, 'S2'],
    [0, 149, 'S2'],
    [0, 150, null], // past epoch 0's end inside S2 (the next epoch's first offset - 1)
    [1, 100, null], // before epoch 1's first offset anywhere
    [1, 150, 'S2'],
    [1, 199, 'S2'],
    [1, 200, 'S3'],
    [1, 249, 'S3'],
    [1, 250, null],
    [2, 250, 'S3'],
    [2, 299, 'S3'],
    [2, 300, null], // past the segment's end
    [3, 0, null], // an epoch no segment carries
  ])('epoch %i offset %i -> %s', (epoch, offset, expected) => {
    expect(layout.find(epoch, offset)).toBe(expected);
  });

  it('highestOffsetForEpoch is the greatest endOffset of finished segments carrying the epoch (seed rule)', () => {
    // Kafka's cache would answer 149 for epoch 0 (the epoch's end inside S2); the seed says 199.
    expect(layout.state.highestOffsetForEpoch(0)).toBe(199);
    expect(layout.state.highestOffsetForEpoch(1)).toBe(299);
    expect(layout.state.highestOffsetForEpoch(2)).toBe(299);
    expect(layout.state.highestOffsetForEpoch(3)).toBeNull();
  });

  it('lists in start-offset order, all and by epoch', () => {
    expect(layout.names(layout.state.listRemoteLogSegments())).toEqual(['S1', 'S2', 'S3']);
    expect(layout.names(layout.state.listRemoteLogSegmentsByEpoch(0))).toEqual(['S1', 'S2']);
    expect(layout.names(layout.state.listRemoteLogSegmentsByEpoch(1))).toEqual(['S2', 'S3']);
    expect(layout.names(layout.state.listRemoteLogSegmentsByEpoch(7))).toEqual([]);
  });
});

describe('visibility by state', () => {
  it('only COPY_SEGMENT_FINISHED segments answer offset queries; lists hold every live state', () => {
    const layout = new Layout()
      .add('started', { start: 0, end: 9 })
      .add('finished', { start: 10, end: 19 }, 'COPY_SEGMENT_FINISHED')
      .add('deleting', { start: 20, end: 29 }, 'COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED')
      .add(
        'deleted',
        { start: 30, end: 39 },
        'COPY_SEGMENT_FINISHED',
        'DELETE_SEGMENT_STARTED',
        'DELETE_SEGMENT_FINISHED',
      )
      .add('abandoned', { start: 40, end: 49 }, 'DELETE_SEGMENT_STARTED');
    expect([5, 15, 25, 35, 45].map((offset) => layout.find(0, offset))).toEqual([
      null,
      'finished',
      null,
      null,
      null,
    ]);
    expect(layout.names(layout.state.listRemoteLogSegments())).toEqual([
      'started',
      'finished',
      'deleting',
      'abandoned',
    ]);
    expect(layout.names(layout.state.listRemoteLogSegmentsByEpoch(0))).toEqual([
      'started',
      'finished',
      'deleting',
      'abandoned',
    ]);
    expect(layout.state.highestOffsetForEpoch(0)).toBe(19);
  });

  it('highestOffsetForEpoch ignores segments not finished, and drops when the finished one is deleted', () => {
    const layout = new Layout()
      .finished('a', { start: 0, end: 9 })
      .add('b', { start: 10, end: 99 });
    expect(layout.state.highestOffsetForEpoch(0)).toBe(9);
    layout.move('b', 'COPY_SEGMENT_FINISHED');
    expect(layout.state.highestOffsetForEpoch(0)).toBe(99);
    layout.move('b', 'DELETE_SEGMENT_STARTED');
    expect(layout.state.highestOffsetForEpoch(0)).toBe(9);
  });

  it('a segment copied and finished later becomes visible then', () => {
    const layout = new Layout().add('s', { start: 0, end: 9 });
    expect(layout.find(0, 3)).toBeNull();
    layout.move('s', 'COPY_SEGMENT_FINISHED');
    expect(layout.find(0, 3)).toBe('s');
  });
});

describe('re-uploads and overlaps (Kafka unreferenced segments)', () => {
  it('case 1: a new leader re-uploads a superset: the earlier segment drops out of offset queries, stays listed', () => {
    const layout = new Layout()
      .finished('S0', { start: 0, end: 100 })
      .finished('S1', { start: 0, end: 200 });
    expect(layout.find(0, 50)).toBe('S1');
    expect(layout.find(0, 150)).toBe('S1');
    expect(layout.names(layout.state.listRemoteLogSegments()).sort()).toEqual(['S0', 'S1']);
  });

  it('case 2: overlapping uploads: offset 95 is served by the newer S1, never S0', () => {
    const layout = new Layout()
      .finished('S0', { start: 10, end: 90 })
      .finished('S1', { start: 5, end: 100 })
      .finished('S2', { start: 101, end: 200 });
    expect(layout.find(0, 95)).toBe('S1');
    expect(layout.find(0, 50)).toBe('S1');
    expect(layout.find(0, 10)).toBe('S1');
    expect(layout.find(0, 150)).toBe('S2');
    expect(layout.names(layout.state.listRemoteLogSegments())).toEqual(['S1', 'S0', 'S2']);
  });

  it('a replaced segment is not restored when its replacement is deleted', () => {
    const layout = new Layout()
      .finished('S0', { start: 0, end: 100 })
      .finished('S1', { start: 0, end: 200 });
    layout.move('S1', 'DELETE_SEGMENT_STARTED');
    expect(layout.find(0, 50)).toBeNull();
    expect(layout.names(layout.state.listRemoteLogSegments()).sort()).toEqual(['S0', 'S1']);
  });

  it('a later segment that does not reach as far replaces nothing; the greatest start offset still wins', () => {
    // Kafka keeps S0 referenced at 0 and adds S1 at 50: offsets 50..100 go to S1, and 101..200
    // find S1 too but lie past its end, so they answer null (the spec's "past it -> none").
    const layout = new Layout()
      .finished('S0', { start: 0, end: 200 })
      .finished('S1', { start: 50, end: 100 });
    expect(layout.find(0, 30)).toBe('S0');
    expect(layout.find(0, 60)).toBe('S1');
    expect(layout.find(0, 150)).toBeNull();
  });

  it('the rule applies per epoch; at an equal epoch start offset the newer segment takes the entry', () => {
    // S0 [0,100] epochs 0 (0..59), 1 (60..100); S1 [0,70] epochs 0 (0..59), 1 (60..70).
    const layout = new Layout()
      .finished('S0', {
        start: 0,
        end: 100,
        epochs: [
          [0, 0],
          [1, 60],
        ],
      })
      .finished('S1', {
        start: 0,
        end: 70,
        epochs: [
          [0, 0],
          [1, 60],
        ],
      });
    expect(layout.find(0, 10)).toBe('S1'); // epoch 0 ends at 59 in both: S1 replaces S0
    expect(layout.find(1, 65)).toBe('S1'); // same start offset for epoch 1: the newer one holds the key
    expect(layout.find(1, 90)).toBeNull(); // and S1's epoch 1 ends at 70
  });

  it('a replay of COPY_SEGMENT_FINISHED (same-state move) changes no offset answer', () => {
    const layout = new Layout()
      .finished('S0', { start: 0, end: 100 })
      .finished('S1', { start: 0, end: 200 });
    layout.move('S0', 'COPY_SEGMENT_FINISHED');
    expect(layout.find(0, 50)).toBe('S1');
  });
});

describe('partition delete', () => {
  it('FINISHED drops every segment of the partition; MARKED and STARTED keep them', () => {
    const layout = new Layout()
      .finished('a', { start: 0, end: 9 })
      .add('b', { start: 10, end: 19 });
    layout.apply({
      kind: 'deletePartition',
      metadata: partitionDelete(layout.tp, 'DELETE_PARTITION_MARKED'),
    });
    layout.apply({
      kind: 'deletePartition',
      metadata: partitionDelete(layout.tp, 'DELETE_PARTITION_STARTED'),
    });
    expect(layout.state.listRemoteLogSegments()).toHaveLength(2);
    layout.apply({
      kind: 'deletePartition',
      metadata: partitionDelete(layout.tp, 'DELETE_PARTITION_FINISHED'),
    });
    expect(layout.state.listRemoteLogSegments()).toEqual([]);
    expect(layout.find(0, 5)).toBeNull();
    expect(layout.state.highestOffsetForEpoch(0)).toBeNull();
    expect(layout.state.deleteMetadata?.state).toBe('DELETE_PARTITION_FINISHED');
  });
});

describe('idempotence by event id', () => {
  it('an applied event applies again as a no-op, even where it would now be invalid', () => {
    const tp = topicPartition();
    const added = segment(tp, { start: 0, end: 9 });
    const finish = update(added, 'COPY_SEGMENT_FINISHED');
    const state = PartitionMetadataState.empty(tp)
      .apply({ kind: 'addSegment', metadata: added })
      .apply({ kind: 'updateSegment', update: finish })
      .apply({ kind: 'updateSegment', update: update(added, 'DELETE_SEGMENT_STARTED') });
    expect(state.apply({ kind: 'addSegment', metadata: added })).toBe(state);
    expect(state.apply({ kind: 'updateSegment', update: finish })).toBe(state);
    // A different event with the same content is judged on its own.
    expect(() =>
      state.apply({ kind: 'addSegment', metadata: { ...added, eventId: randomUUID() } }),
    ).toThrow(expect.objectContaining({ code: 'InvalidAdd' }));
  });

  it(`remembers the last ${APPLIED_EVENT_WINDOW} event ids per partition`, () => {
    const tp = topicPartition();
    let state = PartitionMetadataState.empty(tp);
    const marks = Array.from({ length: APPLIED_EVENT_WINDOW + 1 }, () =>
      partitionDelete(tp, 'DELETE_PARTITION_MARKED'),
    );
    for (const metadata of marks) state = state.apply({ kind: 'deletePartition', metadata });
    expect(state.toData().appliedEventIds).toHaveLength(APPLIED_EVENT_WINDOW);
    expect(state.hasApplied(marks[0]!.eventId)).toBe(false);
    expect(state.hasApplied(marks[1]!.eventId)).toBe(true);
    expect(state.hasApplied(marks[APPLIED_EVENT_WINDOW]!.eventId)).toBe(true);
  });
});

describe('encoding', () => {
  it('is deterministic and round-trips', () => {
    const layout = new Layout()
      .finished('S0', {
        start: 0,
        end: 100,
        epochs: [
          [0, 0],
          [3, 40],
        ],
      })
      .finished('S1', { start: 0, end: 200 })
      .add('S2', { start: 201, end: 300 });
    const fields = encodePartitionState(layout.state);
    const decoded = decodePartitionState(fields);
    expect(encodePartitionState(decoded)).toEqual(fields);
    expect(decoded.listRemoteLogSegments()).toEqual(layout.state.listRemoteLogSegments());
    expect(decoded.remoteLogSegmentMetadata(0, 50)).toEqual(
      layout.state.remoteLogSegmentMetadata(0, 50),
    );
  });

  it('does not depend on the order objects were built in', () => {
    const tp = topicPartition();
    const a = segment(tp, { start: 0, end: 9 });
    const reordered = Object.fromEntries(
      Object.entries(a).reverse(),
    ) as unknown as RemoteLogSegmentMetadata;
    const one = PartitionMetadataState.empty(tp).apply({ kind: 'addSegment', metadata: a });
    const two = PartitionMetadataState.empty(tp).apply({ kind: 'addSegment', metadata: reordered });
    expect(encodePartitionState(two)).toEqual(encodePartitionState(one));
  });

  it('refuses fields it did not write, naming the field', () => {
    expect(() => decodePartitionState({ 'tiering.format': '9' })).toThrow(
      expect.objectContaining({
        code: 'InvalidMetadata',
        details: expect.objectContaining({ field: 'tiering.format' }),
      }),
    );
    expect(() =>
      decodePartitionState({ 'tiering.format': '1', 'tiering.partition': '{"x":1}' }),
    ).toThrow(expect.objectContaining({ code: 'InvalidMetadata' }));
  });
});
