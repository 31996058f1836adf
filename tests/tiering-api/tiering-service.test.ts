/** The console's tiering service over a real local store: the seed's contract as the API serves it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TieringService } from '../../src/main/services/tiering/tiering-service';
import { EventBus } from '../../src/main/services/event-bus';
import {
  ROOT,
  SEGMENT_A,
  SEGMENT_B,
  TOPIC_ID,
  addInput,
  failureOf,
  tieringFixture,
  type TieringFixture,
} from './support';

const P0 = { topicId: TOPIC_ID, partition: 0 };
let fx: TieringFixture;
beforeEach(async () => {
  fx = await tieringFixture();
});
afterEach(() => fx.dispose());

const desk = () => fx.service.console('embedded');

describe('the tiering service', () => {
  it('adds a segment as COPY_SEGMENT_STARTED, lists it and announces the change', async () => {
    const added = await (await desk()).add(addInput());
    expect(added).toMatchObject({
      segmentId: SEGMENT_A,
      state: 'COPY_SEGMENT_STARTED',
      startOffset: 0,
      endOffset: 99,
      segmentSizeBytes: 2048,
      brokerId: 3,
    });
    const listing = await (await desk()).list(P0);
    expect(listing).toMatchObject({
      partition: { ...P0, topic: 'orders' },
      version: 1,
      caughtUp: true,
      deleteMarker: null,
    });
    expect(listing.segments.map((s) => [s.segmentId, s.state])).toEqual([
      [SEGMENT_A, 'COPY_SEGMENT_STARTED'],
    ]);
    expect(fx.events).toEqual([{ type: 'segments.changed', connectionId: 'embedded', ...P0 }]);
  });

  it('lists segments in start-offset order whatever order they were added in', async () => {
    await (
      await desk()
    ).add(
      addInput({
        segmentId: SEGMENT_B,
        startOffset: 100,
        endOffset: 199,
        segmentLeaderEpochs: [{ epoch: 1, startOffset: 100 }],
      }),
    );
    await (await desk()).add(addInput());
    const listing = await (await desk()).list(P0);
    expect(listing.segments.map((s) => s.segmentId)).toEqual([SEGMENT_A, SEGMENT_B]);
  });

  it("finds only finished segments, within the epoch's range, and answers the highest offset per epoch", async () => {
    const d = await desk();
    await d.add(addInput());
    expect(await d.find(P0, 1, 60)).toBeNull();
    await d.update({ ...P0, segmentId: SEGMENT_A, state: 'COPY_SEGMENT_FINISHED' });
    expect((await d.find(P0, 1, 60))?.segmentId).toBe(SEGMENT_A);
    expect((await d.find(P0, 0, 49))?.segmentId).toBe(SEGMENT_A);
    expect(await d.find(P0, 0, 60)).toBeNull(); // epoch 0 ends at 49 in this segment
    expect(await d.find(P0, 1, 100)).toBeNull();
    expect(await d.highest(P0, 0)).toBe(99);
    expect(await d.highest(P0, 2)).toBeNull();
  });

  it('treats a retry with the same event id as applied, and a new add of a known id as InvalidAdd', async () => {
    const eventId = 'eeeeeeee-0000-4000-8000-000000000001';
    const first = await (await desk()).add(addInput({ eventId }));
    const retry = await (await desk()).add(addInput({ eventId }));
    expect(retry).toEqual(first);
    expect((await (await desk()).list(P0)).version).toBe(1);
    expect(await failureOf((await desk()).add(addInput()))).toMatchObject({
      code: 'InvalidAdd',
      details: { segmentId: SEGMENT_A, reason: 'duplicate-id' },
    });
  });

  it('refuses invalid transitions and unknown segments with typed errors, announcing nothing', async () => {
    const d = await desk();
    await d.add(addInput());
    fx.events.length = 0;
    expect(
      await failureOf(d.update({ ...P0, segmentId: SEGMENT_A, state: 'DELETE_SEGMENT_FINISHED' })),
    ).toMatchObject({
      code: 'InvalidSegmentTransition',
      details: {
        segmentId: SEGMENT_A,
        from: 'COPY_SEGMENT_STARTED',
        to: 'DELETE_SEGMENT_FINISHED',
      },
    });
    expect(
      await failureOf(d.update({ ...P0, segmentId: SEGMENT_B, state: 'COPY_SEGMENT_FINISHED' })),
    ).toMatchObject({ code: 'SegmentNotFound', details: { segmentId: SEGMENT_B } });
    expect(await failureOf(d.segment(P0, SEGMENT_B))).toMatchObject({ code: 'SegmentNotFound' });
    expect(fx.events).toEqual([]);
  });

  it("keeps the segment's broker unless told, and drops the segment at DELETE_SEGMENT_FINISHED", async () => {
    const d = await desk();
    await d.add(addInput());
    expect(
      await d.update({ ...P0, segmentId: SEGMENT_A, state: 'DELETE_SEGMENT_STARTED' }),
    ).toMatchObject({ state: 'DELETE_SEGMENT_STARTED', brokerId: 3 });
    expect(
      await d.update({ ...P0, segmentId: SEGMENT_A, state: 'DELETE_SEGMENT_STARTED', brokerId: 7 }),
    ).toMatchObject({ brokerId: 7 });
    expect(
      await d.update({ ...P0, segmentId: SEGMENT_A, state: 'DELETE_SEGMENT_FINISHED' }),
    ).toBeNull();
    expect((await d.list(P0)).segments).toEqual([]);
  });

  it('shows what another process published: lists catch up with the store first', async () => {
    const other = new TieringService(
      { io: async () => ({ io: fx.io, root: ROOT }) },
      new EventBus(),
    );
    const peer = await other.console('peer');
    expect((await peer.list(P0)).segments).toEqual([]);
    await (await desk()).add(addInput());
    const seen = await peer.list(P0);
    expect(seen.segments.map((s) => s.segmentId)).toEqual([SEGMENT_A]);
    expect(seen.partition.topic).toBe('orders');
    expect(await peer.partitions()).toEqual([{ ...P0, topic: 'orders', damage: null }]);
  });

  it('answers caughtUp false for a partition it has not taken on, true once it has', async () => {
    await (await desk()).add(addInput({ partition: 1 }));
    const fresh = await new TieringService(
      { io: async () => ({ io: fx.io, root: ROOT }) },
      new EventBus(),
    ).console('x');
    expect(await fresh.caughtUp({ topicId: TOPIC_ID, partition: 1 })).toBe(false);
    await fresh.list({ topicId: TOPIC_ID, partition: 1 });
    expect(await fresh.caughtUp({ topicId: TOPIC_ID, partition: 1 })).toBe(true);
  });

  it('walks the partition delete lifecycle; FINISHED drops the segments and cannot be re-marked', async () => {
    const d = await desk();
    await d.add(addInput());
    expect(
      await d.deletePartition({ ...P0, state: 'DELETE_PARTITION_MARKED', brokerId: 5 }),
    ).toMatchObject({ state: 'DELETE_PARTITION_MARKED', brokerId: 5 });
    expect(
      await failureOf(d.deletePartition({ ...P0, state: 'DELETE_PARTITION_FINISHED' })),
    ).toMatchObject({
      code: 'InvalidPartitionDeleteTransition',
      details: { from: 'DELETE_PARTITION_MARKED', to: 'DELETE_PARTITION_FINISHED' },
    });
    expect(await d.deletePartition({ ...P0, state: 'DELETE_PARTITION_STARTED' })).toMatchObject({
      brokerId: 5,
    });
    await d.deletePartition({ ...P0, state: 'DELETE_PARTITION_FINISHED' });
    const listing = await d.list(P0);
    expect(listing).toMatchObject({
      segments: [],
      deleteMarker: { state: 'DELETE_PARTITION_FINISHED' },
    });
    expect(
      (await failureOf(d.deletePartition({ ...P0, state: 'DELETE_PARTITION_MARKED' }))).code,
    ).toBe('InvalidPartitionDeleteTransition');
  });

  it("needs the topic name for a partition's first segment and records it, never a stand-in", async () => {
    const d = await desk();
    expect((await d.list(P0)).partition).toEqual({ ...P0, topic: null });
    expect(await failureOf(d.add(addInput({ topic: undefined })))).toMatchObject({
      code: 'TopicNameRequired',
    });
    await d.add(addInput({ topic: 'payments' }));
    expect(
      await failureOf(d.add(addInput({ segmentId: SEGMENT_B, topic: 'orders' }))),
    ).toMatchObject({
      code: 'TopicNameMismatch',
      details: { stored: 'payments', given: 'orders' },
    });
    await d.add(
      addInput({
        segmentId: SEGMENT_B,
        topic: undefined,
        startOffset: 100,
        endOffset: 120,
        segmentLeaderEpochs: [{ epoch: 1, startOffset: 100 }],
      }),
    );
    const fresh = await new TieringService(
      { io: async () => ({ io: fx.io, root: ROOT }) },
      new EventBus(),
    ).console('x');
    expect((await fresh.list(P0)).partition.topic).toBe('payments');
  });
});
