/** The segment procedures' input limits and the transitions they offer, without the router. */
import { describe, expect, it } from 'vitest';
import { leaderEpochsFromText, segmentProcedures } from '../../src/shared/contract/segments';
import { segmentHandlers } from '../../src/main/api/handlers/segment-handlers';
import { SEGMENT_A, TOPIC_ID, addInput, tieringFixture } from './support';

const add = (overrides: Record<string, unknown>) => ({
  connectionId: 'embedded',
  ...addInput(overrides),
});
const issueOf = (name: keyof typeof segmentProcedures, input: unknown) => {
  const parsed = segmentProcedures[name].input.safeParse(input);
  return parsed.success ? null : (parsed.error.issues[0]?.path.map(String).join('.') ?? '');
};

describe('segment procedure inputs', () => {
  it('accepts a well-formed add and lower-cases its ids', () => {
    const parsed = segmentProcedures['segments.add'].input.parse(
      add({ topicId: TOPIC_ID.toUpperCase(), segmentId: SEGMENT_A.toUpperCase() }),
    );
    expect([parsed.topicId, parsed.segmentId]).toEqual([TOPIC_ID, SEGMENT_A]);
  });

  it.each([
    ['a topic id that is not a UUID', add({ topicId: 'orders' }), 'topicId'],
    ['a segment id that is not a UUID', add({ segmentId: 'x'.repeat(36) }), 'segmentId'],
    ['a negative start offset', add({ startOffset: -1 }), 'startOffset'],
    ['a fractional size', add({ segmentSizeBytes: 1.5 }), 'segmentSizeBytes'],
    ['an empty epoch map', add({ segmentLeaderEpochs: [] }), 'segmentLeaderEpochs'],
    ['an end below the start', add({ startOffset: 10, endOffset: 5 }), 'endOffset'],
    [
      'epochs out of order',
      add({
        segmentLeaderEpochs: [
          { epoch: 2, startOffset: 0 },
          { epoch: 1, startOffset: 10 },
        ],
      }),
      'segmentLeaderEpochs.1.epoch',
    ],
    [
      'an epoch start outside the segment',
      add({ segmentLeaderEpochs: [{ epoch: 0, startOffset: 500 }] }),
      'segmentLeaderEpochs.0.startOffset',
    ],
    ['an unknown field', add({ state: 'COPY_SEGMENT_FINISHED' }), ''],
    ['a bad topic name', add({ topic: 'no spaces' }), 'topic'],
    ['a huge partition number', add({ partition: 2 ** 31 }), 'partition'],
  ])('refuses %s, naming the field', (_label, input, field) => {
    expect(issueOf('segments.add', input)).toBe(field);
  });

  it.each([
    [
      'segments.update',
      { connectionId: 'c', topicId: TOPIC_ID, partition: 0, segmentId: SEGMENT_A, state: 'COPIED' },
      'state',
    ],
    [
      'segments.deletePartition',
      { connectionId: 'c', topicId: TOPIC_ID, partition: 0, state: 'COPY_SEGMENT_STARTED' },
      'state',
    ],
    [
      'segments.find',
      { connectionId: 'c', topicId: TOPIC_ID, partition: 0, epoch: 0, offset: -5 },
      'offset',
    ],
    [
      'segments.highest',
      { connectionId: 'c', topicId: TOPIC_ID, partition: 0, epoch: 'one' },
      'epoch',
    ],
    ['segments.list', { topicId: TOPIC_ID, partition: 0 }, 'connectionId'],
  ] as const)('%s refuses a bad %s', (name, input, field) => {
    expect(issueOf(name, input)).toBe(field);
  });

  it('parses epoch lists as the CLI and the form take them', () => {
    expect(leaderEpochsFromText('0:100, 1:150')).toEqual([
      { epoch: 0, startOffset: 100 },
      { epoch: 1, startOffset: 150 },
    ]);
    expect(leaderEpochsFromText('0=100')).toBeNull();
  });
});

describe('segments.transitions', () => {
  it("offers exactly the engine table's next states", async () => {
    const fx = await tieringFixture();
    const transitions = segmentHandlers({ tiering: fx.service })['segments.transitions'];
    expect(await transitions({ lifecycle: 'segment', from: 'NONE' })).toEqual([
      'COPY_SEGMENT_STARTED',
    ]);
    expect(await transitions({ lifecycle: 'segment', from: 'COPY_SEGMENT_STARTED' })).toEqual([
      'COPY_SEGMENT_STARTED',
      'COPY_SEGMENT_FINISHED',
      'DELETE_SEGMENT_STARTED',
    ]);
    expect(await transitions({ lifecycle: 'segment', from: 'COPY_SEGMENT_FINISHED' })).toEqual([
      'COPY_SEGMENT_FINISHED',
      'DELETE_SEGMENT_STARTED',
    ]);
    expect(
      await transitions({ lifecycle: 'partition-delete', from: 'DELETE_PARTITION_MARKED' }),
    ).toEqual(['DELETE_PARTITION_MARKED', 'DELETE_PARTITION_STARTED']);
    await fx.dispose();
  });

  it("routes every handler to the connection's console", async () => {
    const fx = await tieringFixture();
    const handlers = segmentHandlers({ tiering: fx.service });
    const input = segmentProcedures['segments.add'].input.parse(add({}));
    await handlers['segments.add'](input);
    const ref = { connectionId: 'embedded', topicId: TOPIC_ID, partition: 0 };
    expect((await handlers['segments.list'](ref)).segments).toHaveLength(1);
    expect(await handlers['segments.partitions']({ connectionId: 'embedded' })).toEqual([
      { topicId: TOPIC_ID, partition: 0, topic: 'orders', damage: null },
    ]);
    expect(await handlers['segments.caughtUp'](ref)).toBe(true);
    expect(await handlers['segments.highest']({ ...ref, epoch: 0 })).toBeNull();
    await fx.dispose();
  });
});
