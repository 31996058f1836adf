/**
 * The RemoteLogMetadataManager contract (spec tiering.md, seed 002) as one suite, run against
 * every backend: the in-memory reference and the object-store manager on each ObjectIo lane.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  RemoteLogMetadataManager,
  RemoteLogSegmentMetadata,
  TopicIdPartition,
} from '../../src/main/engine/tiering';
import { idsOf, partitionDelete, rejectionOf, segment, topicPartition, update } from './fixtures';

export interface RlmmLane {
  /** A manager on this lane's store; managers of one lane share the store (as processes would). */
  open(): Promise<RemoteLogMetadataManager>;
  /** The store's committed position for `tp` (a cell version), where the backend has one. */
  committedVersion?(tp: TopicIdPartition): Promise<number>;
}

/** Build a lane per test: a fresh store each time. */
export function defineRlmmContract(name: string, makeLane: () => Promise<RlmmLane>): void {
  describe(`RemoteLogMetadataManager contract: ${name}`, () => {
    let lane: RlmmLane;
    let rlmm: RemoteLogMetadataManager;
    let tp: TopicIdPartition;

    beforeEach(async () => {
      lane = await makeLane();
      rlmm = await lane.open();
      tp = topicPartition(3);
      await rlmm.assignPartitions([tp]);
    });

    async function added(
      shape: Parameters<typeof segment>[1],
      ...states: RemoteLogSegmentMetadata['state'][]
    ): Promise<RemoteLogSegmentMetadata> {
      const metadata = segment(tp, shape);
      await rlmm.addRemoteLogSegmentMetadata(metadata);
      for (const state of states)
        await rlmm.updateRemoteLogSegmentMetadata(update(metadata, state));
      return metadata;
    }

    async function committed(): Promise<number | null> {
      return lane.committedVersion === undefined ? null : lane.committedVersion(tp);
    }

    describe('segment lifecycle', () => {
      it('an added segment is listed at once but answers offset queries only once finished', async () => {
        const s = await added({ start: 0, end: 99 });
        expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual([s.segmentId.id]);
        expect((await rlmm.listRemoteLogSegments(tp))[0]?.state).toBe('COPY_SEGMENT_STARTED');
        expect(await rlmm.remoteLogSegmentMetadata(tp, 0, 10)).toBeNull();
        await rlmm.updateRemoteLogSegmentMetadata(update(s, 'COPY_SEGMENT_FINISHED'));
        const found = await rlmm.remoteLogSegmentMetadata(tp, 0, 10);
        expect(found?.segmentId.id).toBe(s.segmentId.id);
        expect(found?.state).toBe('COPY_SEGMENT_FINISHED');
        expect(found?.brokerId).toBe(2); // the update's broker, as Kafka's createWithUpdates
        expect(await rlmm.highestOffsetForEpoch(tp, 0)).toBe(99);
      });

      it('refuses an add that is not COPY_SEGMENT_STARTED, or whose id is known', async () => {
        const wrongState = await rejectionOf(
          rlmm.addRemoteLogSegmentMetadata(
            segment(tp, { start: 0, end: 9, state: 'COPY_SEGMENT_FINISHED' }),
          ),
        );
        expect(wrongState.code).toBe('InvalidAdd');
        const s = await added({ start: 0, end: 9 });
        const duplicate = await rejectionOf(
          rlmm.addRemoteLogSegmentMetadata({ ...s, eventId: randomUUID() }),
        );
        expect(duplicate.code).toBe('InvalidAdd');
        expect(duplicate.details.segmentId).toBe(s.segmentId.id);
        expect(await rlmm.listRemoteLogSegments(tp)).toHaveLength(1);
      });

      it('refuses an update of an unknown segment and an invalid move, naming from and to', async () => {
        const unknown = await rejectionOf(
          rlmm.updateRemoteLogSegmentMetadata(
            update(segment(tp, { start: 0, end: 9 }), 'COPY_SEGMENT_FINISHED'),
          ),
        );
        expect(unknown.code).toBe('SegmentNotFound');
        const s = await added({ start: 0, end: 9 }, 'COPY_SEGMENT_FINISHED');
        const invalid = await rejectionOf(
          rlmm.updateRemoteLogSegmentMetadata(update(s, 'DELETE_SEGMENT_FINISHED')),
        );
        expect(invalid.code).toBe('InvalidSegmentTransition');
        expect(invalid.details).toMatchObject({
          from: 'COPY_SEGMENT_FINISHED',
          to: 'DELETE_SEGMENT_FINISHED',
        });
        expect((await rlmm.listRemoteLogSegments(tp))[0]?.state).toBe('COPY_SEGMENT_FINISHED');
      });

      it('drops a segment once DELETE_SEGMENT_FINISHED; lists keep the other live states', async () => {
        const gone = await added(
          { start: 0, end: 9 },
          'COPY_SEGMENT_FINISHED',
          'DELETE_SEGMENT_STARTED',
          'DELETE_SEGMENT_FINISHED',
        );
        const deleting = await added(
          { start: 10, end: 19 },
          'COPY_SEGMENT_FINISHED',
          'DELETE_SEGMENT_STARTED',
        );
        const started = await added({ start: 20, end: 29 });
        expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual([
          deleting.segmentId.id,
          started.segmentId.id,
        ]);
        expect(idsOf(await rlmm.listRemoteLogSegmentsByEpoch(tp, 0))).toEqual([
          deleting.segmentId.id,
          started.segmentId.id,
        ]);
        const after = await rejectionOf(
          rlmm.updateRemoteLogSegmentMetadata(update(gone, 'DELETE_SEGMENT_FINISHED')),
        );
        expect(after.code).toBe('SegmentNotFound');
      });
    });

    describe('queries', () => {
      it('answer by epoch range, start-offset order and re-upload replacement', async () => {
        const s1 = await added({ start: 0, end: 99 }, 'COPY_SEGMENT_FINISHED');
        const s2 = await added(
          {
            start: 100,
            end: 199,
            epochs: [
              [0, 100],
              [1, 150],
            ],
          },
          'COPY_SEGMENT_FINISHED',
        );
        const s3 = await added(
          {
            start: 200,
            end: 299,
            epochs: [
              [1, 200],
              [2, 250],
            ],
          },
          'COPY_SEGMENT_FINISHED',
        );
        const idAt = async (epoch: number, offset: number): Promise<string | null> =>
          (await rlmm.remoteLogSegmentMetadata(tp, epoch, offset))?.segmentId.id ?? null;
        expect(await idAt(0, 120)).toBe(s2.segmentId.id);
        expect(await idAt(0, 150)).toBeNull();
        expect(await idAt(1, 220)).toBe(s3.segmentId.id);
        expect(await idAt(2, 300)).toBeNull();
        expect(await rlmm.highestOffsetForEpoch(tp, 0)).toBe(199);
        expect(await rlmm.highestOffsetForEpoch(tp, 5)).toBeNull();
        expect(idsOf(await rlmm.listRemoteLogSegmentsByEpoch(tp, 1))).toEqual([
          s2.segmentId.id,
          s3.segmentId.id,
        ]);
        // A new leader re-uploads [0, 150] of epoch 0 ... 1: it replaces S1 for epoch 0.
        const reupload = await added(
          {
            start: 0,
            end: 160,
            epochs: [
              [0, 0],
              [1, 150],
            ],
          },
          'COPY_SEGMENT_FINISHED',
        );
        expect(await idAt(0, 50)).toBe(reupload.segmentId.id);
        expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toContain(s1.segmentId.id);
      });

      it('an empty partition answers null and empty lists', async () => {
        expect(await rlmm.remoteLogSegmentMetadata(tp, 0, 0)).toBeNull();
        expect(await rlmm.highestOffsetForEpoch(tp, 0)).toBeNull();
        expect(await rlmm.listRemoteLogSegments(tp)).toEqual([]);
        expect(await rlmm.listRemoteLogSegmentsByEpoch(tp, 0)).toEqual([]);
      });
    });

    describe('partition delete', () => {
      it('moves MARKED -> STARTED -> FINISHED, refuses skips, and FINISHED drops the segments', async () => {
        await added({ start: 0, end: 9 }, 'COPY_SEGMENT_FINISHED');
        const skip = await rejectionOf(
          rlmm.putRemotePartitionDeleteMetadata(partitionDelete(tp, 'DELETE_PARTITION_STARTED')),
        );
        expect(skip.code).toBe('InvalidPartitionDeleteTransition');
        expect(skip.details).toMatchObject({ from: 'NONE', to: 'DELETE_PARTITION_STARTED' });
        await rlmm.putRemotePartitionDeleteMetadata(partitionDelete(tp, 'DELETE_PARTITION_MARKED'));
        await rlmm.putRemotePartitionDeleteMetadata(partitionDelete(tp, 'DELETE_PARTITION_MARKED'));
        await rlmm.putRemotePartitionDeleteMetadata(
          partitionDelete(tp, 'DELETE_PARTITION_STARTED'),
        );
        expect(await rlmm.listRemoteLogSegments(tp)).toHaveLength(1);
        await rlmm.putRemotePartitionDeleteMetadata(
          partitionDelete(tp, 'DELETE_PARTITION_FINISHED'),
        );
        expect(await rlmm.listRemoteLogSegments(tp)).toEqual([]);
        expect(await rlmm.remoteLogSegmentMetadata(tp, 0, 5)).toBeNull();
        const back = await rejectionOf(
          rlmm.putRemotePartitionDeleteMetadata(partitionDelete(tp, 'DELETE_PARTITION_MARKED')),
        );
        expect(back.details).toMatchObject({
          from: 'DELETE_PARTITION_FINISHED',
          to: 'DELETE_PARTITION_MARKED',
        });
      });
    });

    describe('idempotence', () => {
      it('a retried event of each kind succeeds and applies once', async () => {
        const s = segment(tp, { start: 0, end: 9 });
        const finish = update(s, 'COPY_SEGMENT_FINISHED');
        const mark = partitionDelete(tp, 'DELETE_PARTITION_MARKED');
        await rlmm.addRemoteLogSegmentMetadata(s);
        await rlmm.updateRemoteLogSegmentMetadata(finish);
        await rlmm.putRemotePartitionDeleteMetadata(mark);
        const position = await committed();
        await rlmm.addRemoteLogSegmentMetadata(s);
        await rlmm.updateRemoteLogSegmentMetadata(finish);
        await rlmm.putRemotePartitionDeleteMetadata(mark);
        expect(await committed()).toBe(position);
        // Even after the segment moved on, a replay of the earlier event is recognised.
        await rlmm.updateRemoteLogSegmentMetadata(update(s, 'DELETE_SEGMENT_STARTED'));
        await rlmm.updateRemoteLogSegmentMetadata(finish);
        const listed = await rlmm.listRemoteLogSegments(tp);
        expect(listed.map((m) => m.state)).toEqual(['DELETE_SEGMENT_STARTED']);
      });
    });

    describe('bad input is refused with a typed error naming the field, and nothing is published', () => {
      type Row = [
        string,
        (tp: TopicIdPartition, s: RemoteLogSegmentMetadata) => Promise<unknown>,
        string,
        string,
      ];
      const fresh = (
        tp: TopicIdPartition,
        shape: Parameters<typeof segment>[1],
      ): RemoteLogSegmentMetadata => segment(tp, shape);
      const rows: Row[] = [
        [
          'negative start offset',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata({
              ...fresh(t, { start: 0, end: 9 }),
              startOffset: -1,
            }),
          'InvalidMetadata',
          'metadata.startOffset',
        ],
        [
          'negative end offset',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata({ ...fresh(t, { start: 0, end: 9 }), endOffset: -5 }),
          'InvalidMetadata',
          'metadata.endOffset',
        ],
        [
          'fractional offset',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata({ ...fresh(t, { start: 0, end: 9 }), endOffset: 9.5 }),
          'InvalidMetadata',
          'metadata.endOffset',
        ],
        [
          'start > end',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(fresh(t, { start: 20, end: 10, epochs: [[0, 20]] })),
          'InvalidMetadata',
          'metadata.startOffset',
        ],
        [
          'empty epoch map',
          (t) => rlmm.addRemoteLogSegmentMetadata(fresh(t, { start: 0, end: 9, epochs: [] })),
          'InvalidMetadata',
          'metadata.segmentLeaderEpochs',
        ],
        [
          'epochs out of order',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(
              fresh(t, {
                start: 0,
                end: 9,
                epochs: [
                  [2, 0],
                  [1, 5],
                ],
              }),
            ),
          'InvalidMetadata',
          'metadata.segmentLeaderEpochs.1.epoch',
        ],
        [
          'epoch offsets out of order',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(
              fresh(t, {
                start: 0,
                end: 9,
                epochs: [
                  [1, 5],
                  [2, 3],
                ],
              }),
            ),
          'InvalidMetadata',
          'metadata.segmentLeaderEpochs.1.startOffset',
        ],
        [
          'epoch offset outside the segment',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(fresh(t, { start: 10, end: 19, epochs: [[0, 5]] })),
          'InvalidMetadata',
          'metadata.segmentLeaderEpochs.0.startOffset',
        ],
        [
          'negative epoch',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(fresh(t, { start: 0, end: 9, epochs: [[-1, 0]] })),
          'InvalidMetadata',
          'metadata.segmentLeaderEpochs.0.epoch',
        ],
        [
          'malformed segment id',
          (t) => rlmm.addRemoteLogSegmentMetadata(fresh(t, { start: 0, end: 9, id: 'not-a-uuid' })),
          'InvalidMetadata',
          'metadata.segmentId.id',
        ],
        [
          'malformed event id',
          (t) => rlmm.addRemoteLogSegmentMetadata(fresh(t, { start: 0, end: 9, eventId: '1234' })),
          'InvalidMetadata',
          'metadata.eventId',
        ],
        [
          'negative partition',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(fresh({ ...t, partition: -1 }, { start: 0, end: 9 })),
          'InvalidMetadata',
          'metadata.segmentId.topicIdPartition.partition',
        ],
        [
          'malformed topic id',
          (t) =>
            rlmm.addRemoteLogSegmentMetadata(fresh({ ...t, topicId: 'zz' }, { start: 0, end: 9 })),
          'InvalidMetadata',
          'metadata.segmentId.topicIdPartition.topicId',
        ],
        [
          'update with malformed event id',
          (_t, s) =>
            rlmm.updateRemoteLogSegmentMetadata(update(s, 'COPY_SEGMENT_FINISHED', 'nope')),
          'InvalidMetadata',
          'update.eventId',
        ],
        [
          'update to an unknown state',
          (_t, s) =>
            rlmm.updateRemoteLogSegmentMetadata({
              ...update(s, 'COPY_SEGMENT_FINISHED'),
              state: 'COPIED' as never,
            }),
          'InvalidMetadata',
          'update.state',
        ],
        [
          'update of a segment in an unknown partition',
          (t, s) =>
            rlmm.updateRemoteLogSegmentMetadata(
              update(
                { segmentId: { ...s.segmentId, topicIdPartition: { ...t, partition: 99 } } },
                'COPY_SEGMENT_FINISHED',
              ),
            ),
          'SegmentNotFound',
          '',
        ],
        [
          'update of an unknown segment',
          (t) =>
            rlmm.updateRemoteLogSegmentMetadata(
              update(fresh(t, { start: 0, end: 9 }), 'COPY_SEGMENT_FINISHED'),
            ),
          'SegmentNotFound',
          '',
        ],
        [
          'partition delete with a malformed topic id',
          (t) =>
            rlmm.putRemotePartitionDeleteMetadata(
              partitionDelete({ ...t, topicId: 'x' }, 'DELETE_PARTITION_MARKED'),
            ),
          'InvalidMetadata',
          'metadata.topicIdPartition.topicId',
        ],
        [
          'query with a negative epoch',
          (t) => rlmm.remoteLogSegmentMetadata(t, -1, 0),
          'InvalidMetadata',
          'leaderEpoch',
        ],
        [
          'query with a negative offset',
          (t) => rlmm.remoteLogSegmentMetadata(t, 0, -1),
          'InvalidMetadata',
          'offset',
        ],
        [
          'query of a partition never taken on',
          (t) => rlmm.listRemoteLogSegments({ ...t, partition: 77 }),
          'NotReady',
          '',
        ],
      ];

      it.each(rows)('%s', async (_label, action, code, field) => {
        const existing = await added({ start: 0, end: 9 });
        const before = await committed();
        const error = await rejectionOf(action(tp, existing));
        expect(error.code).toBe(code);
        if (field !== '') expect(error.details.field).toBe(field);
        expect(await committed()).toBe(before);
        expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual([existing.segmentId.id]);
        expect((await rlmm.listRemoteLogSegments(tp))[0]?.state).toBe('COPY_SEGMENT_STARTED');
      });
    });

    describe('take-on and caughtUp', () => {
      it('caughtUp is false and queries are NotReady for a partition not taken on; take-on makes it true', async () => {
        const other = topicPartition(0);
        expect(await rlmm.caughtUp(other)).toBe(false);
        expect((await rejectionOf(rlmm.highestOffsetForEpoch(other, 0))).code).toBe('NotReady');
        // Publishing does not need the partition taken on (a console may publish a delete).
        await rlmm.addRemoteLogSegmentMetadata(segment(other, { start: 0, end: 9 }));
        await rlmm.assignPartitions([other]);
        expect(await rlmm.caughtUp(other)).toBe(true);
        expect(await rlmm.listRemoteLogSegments(other)).toHaveLength(1);
        await rlmm.unassignPartitions([other]);
        expect(await rlmm.caughtUp(other)).toBe(false);
      });

      it('lists every partition holding metadata', async () => {
        const other = topicPartition(12);
        await added({ start: 0, end: 9 });
        await rlmm.putRemotePartitionDeleteMetadata(
          partitionDelete(other, 'DELETE_PARTITION_MARKED'),
        );
        const listed = await rlmm.listPartitions();
        expect(listed).toEqual(
          expect.arrayContaining([
            { topicId: tp.topicId, partition: tp.partition },
            { topicId: other.topicId, partition: other.partition },
          ]),
        );
        expect(listed).toHaveLength(2);
      });
    });

    describe('two managers on one store', () => {
      it('one publishes; once the other answers caughtUp true, it sees the event', async () => {
        const peer = await lane.open();
        await peer.assignPartitions([tp]);
        const s = await added({ start: 0, end: 99 }, 'COPY_SEGMENT_FINISHED');
        expect(await peer.caughtUp(tp)).toBe(true);
        expect((await peer.remoteLogSegmentMetadata(tp, 0, 50))?.segmentId.id).toBe(s.segmentId.id);
        await rlmm.updateRemoteLogSegmentMetadata(update(s, 'DELETE_SEGMENT_STARTED'));
        expect(await peer.caughtUp(tp)).toBe(true);
        expect(await peer.remoteLogSegmentMetadata(tp, 0, 50)).toBeNull();
      });

      it('concurrent publishes from both apply, each once', async () => {
        const peer = await lane.open();
        await peer.assignPartitions([tp]);
        const mine = Array.from({ length: 4 }, (_, i) =>
          segment(tp, { start: i * 10, end: i * 10 + 9 }),
        );
        const theirs = Array.from({ length: 4 }, (_, i) =>
          segment(tp, { start: 100 + i * 10, end: 100 + i * 10 + 9 }),
        );
        await Promise.all([
          ...mine.map((m) => rlmm.addRemoteLogSegmentMetadata(m)),
          ...theirs.map((m) => peer.addRemoteLogSegmentMetadata(m)),
        ]);
        expect(await rlmm.caughtUp(tp)).toBe(true);
        expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual(idsOf([...mine, ...theirs]));
      });

      it("a manager with a stale view re-judges against the store: it may move a peer's segment and replay a peer's event", async () => {
        const peer = await lane.open();
        await peer.assignPartitions([tp]);
        const s = segment(tp, { start: 0, end: 9 });
        await rlmm.addRemoteLogSegmentMetadata(s);
        // The peer has not caught up, yet its update of the segment must not fail as unknown.
        await peer.updateRemoteLogSegmentMetadata(update(s, 'COPY_SEGMENT_FINISHED'));
        // And a replay of the add through the peer is recognised as applied.
        await peer.addRemoteLogSegmentMetadata(s);
        expect(await rlmm.caughtUp(tp)).toBe(true);
        const listed = await rlmm.listRemoteLogSegments(tp);
        expect(listed.map((m) => m.state)).toEqual(['COPY_SEGMENT_FINISHED']);
      });
    });
  });
}
