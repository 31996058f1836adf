/**
 * What only the object-store manager has: the cell layout, the first load (NotReady), store
 * failures (Io), responses lost after a create applied, the deterministic encoding, and when
 * the cache catches up.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import { FaultyObjectIo, type FaultKind } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import {
  ObjectRemoteLogMetadataManager,
  type TopicIdPartition,
} from '../../src/main/engine/tiering';
import { idsOf, partitionDelete, rejectionOf, segment, topicPartition, update } from './fixtures';
import { ROOT, committedVersionOf, localIo, memoryIo, s3 } from './lanes';

const CELL_VERSION_KEY = /\/tiering\/[^/]+\/\d{20}\.json$/;

/** The ObjectIo lanes; S3 only when CAIRN_S3_ENDPOINT is set. */
const BACKENDS: [string, () => Promise<ObjectIo>][] = [
  ['MemoryObjectIo', async () => memoryIo()],
  ['LocalObjectIo', localIo],
  ...(s3 === null
    ? []
    : [['S3', s3.makeIo.bind(s3, 'tiering-om')] as [string, () => Promise<ObjectIo>]]),
];

describe.each(BACKENDS)('object manager on %s', (_name, makeIo) => {
  let inner: ObjectIo;
  beforeEach(async () => {
    inner = await makeIo();
  });

  function setUp(): {
    io: FaultyObjectIo;
    inner: ObjectIo;
    rlmm: ObjectRemoteLogMetadataManager;
    tp: TopicIdPartition;
  } {
    const io = new FaultyObjectIo(inner);
    return { io, inner, rlmm: new ObjectRemoteLogMetadataManager(io, ROOT), tp: topicPartition(1) };
  }

  describe('cell layout', () => {
    it('keeps one cell per topic-partition at <root>/tiering/<topicId>-<partition>/', async () => {
      const { inner, rlmm, tp } = setUp();
      await rlmm.addRemoteLogSegmentMetadata(segment(tp, { start: 0, end: 9 }));
      const page = await inner.listPage(`${ROOT}/tiering/`, { delimiter: '/' });
      expect(page.commonPrefixes).toEqual([`${ROOT}/tiering/${tp.topicId}-${tp.partition}/`]);
      const versions = await inner.listPage(`${ROOT}/tiering/${tp.topicId}-${tp.partition}/`);
      expect(versions.objects.map((o) => o.key)).toEqual([
        `${ROOT}/tiering/${tp.topicId}-${tp.partition}/00000000000000000001.json`,
      ]);
    });

    it('listPartitions ignores folders and files that are not partition cells', async () => {
      const { inner, rlmm, tp } = setUp();
      await rlmm.addRemoteLogSegmentMetadata(segment(tp, { start: 0, end: 9 }));
      await inner.putIfAbsent(`${ROOT}/tiering/.DS_Store`, new Uint8Array([1]));
      await inner.putIfAbsent(`${ROOT}/tiering/notes/readme.txt`, new Uint8Array([1]));
      expect(await rlmm.listPartitions()).toEqual([
        { topicId: tp.topicId, partition: tp.partition },
      ]);
    });

    it('encodes deterministically: the same events give the same cell fields on any store', async () => {
      const tp = topicPartition(2);
      const events = [
        segment(tp, { start: 0, end: 9 }),
        segment(tp, {
          start: 10,
          end: 19,
          epochs: [
            [0, 10],
            [4, 15],
          ],
        }),
      ];
      const fieldsOn = async (): Promise<unknown> => {
        const io = new MemoryObjectIo();
        const rlmm = new ObjectRemoteLogMetadataManager(io, ROOT);
        for (const m of events) await rlmm.addRemoteLogSegmentMetadata(m);
        await rlmm.updateRemoteLogSegmentMetadata({
          ...update(events[1]!, 'COPY_SEGMENT_FINISHED'),
          eventId: '00000000-0000-4000-8000-000000000001',
        });
        return (await new CasCell(io, rlmm.cellNameOf(tp)).read())?.fields;
      };
      expect(await fieldsOn()).toEqual(await fieldsOn());
    });
  });

  describe('first load and caughtUp', () => {
    it('queries and caughtUp are NotReady while the first load runs, then answer', async () => {
      const { rlmm, tp } = setUp();
      const loading = rlmm.assignPartitions([tp]);
      expect((await rejectionOf(rlmm.caughtUp(tp))).code).toBe('NotReady');
      const query = await rejectionOf(rlmm.listRemoteLogSegments(tp));
      expect(query.code).toBe('NotReady');
      expect(query.details.reason).toBe('loading');
      await loading;
      expect(await rlmm.caughtUp(tp)).toBe(true);
      expect(await rlmm.listRemoteLogSegments(tp)).toEqual([]);
    });

    it('caughtUp throws Io when the committed position cannot be read', async () => {
      const { io, rlmm, tp } = setUp();
      await rlmm.assignPartitions([tp]);
      io.inject({ op: 'listPage', key: /tiering/, kind: 'unavailable' });
      const failure = await rejectionOf(rlmm.caughtUp(tp));
      expect(failure.code).toBe('Io');
      expect(failure.details.causeCode).toBe('Unavailable');
      io.clear();
      expect(await rlmm.caughtUp(tp)).toBe(true);
    });

    it('a failed first load leaves the partition NotReady until caughtUp loads it', async () => {
      const { io, rlmm, tp } = setUp();
      await rlmm.addRemoteLogSegmentMetadata(segment(tp, { start: 0, end: 9 }));
      const reader = new ObjectRemoteLogMetadataManager(io, ROOT);
      io.inject({ op: 'get', key: CELL_VERSION_KEY, kind: 'backend' });
      expect((await rejectionOf(reader.assignPartitions([tp]))).code).toBe('Io');
      expect((await rejectionOf(reader.listRemoteLogSegments(tp))).details.reason).toBe(
        'load-failed',
      );
      expect((await rejectionOf(reader.caughtUp(tp))).code).toBe('Io');
      io.clear();
      expect(await reader.caughtUp(tp)).toBe(true);
      expect(await reader.listRemoteLogSegments(tp)).toHaveLength(1);
    });

    it('a cell holding something this format did not write fails the load as Io', async () => {
      const { inner, rlmm, tp } = setUp();
      await new CasCell(inner, rlmm.cellNameOf(tp)).create({ unrelated: 'value' });
      const failure = await rejectionOf(rlmm.assignPartitions([tp]));
      expect(failure.code).toBe('Io');
      expect(failure.message).toContain('tiering.format');
    });

    it("queries answer from the cache; caughtUp brings a peer's events in", async () => {
      const { io, rlmm, tp } = setUp();
      const peer = new ObjectRemoteLogMetadataManager(io, ROOT);
      await rlmm.assignPartitions([tp]);
      const s = segment(tp, { start: 0, end: 9 });
      await peer.addRemoteLogSegmentMetadata(s);
      expect(rlmm.appliedVersion(tp)).toBe(0);
      expect(await rlmm.listRemoteLogSegments(tp)).toEqual([]); // stale until asked to catch up
      expect(await rlmm.caughtUp(tp)).toBe(true);
      expect(rlmm.appliedVersion(tp)).toBe(1);
      expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual([s.segmentId.id]);
    });
  });

  describe('responses lost after the create applied', () => {
    const LOSSES: FaultKind[] = ['apply-then-lose', 'apply-then-5xx'];

    it.each(LOSSES)(
      '%s on every event kind: the call succeeds and the event applies once',
      async (kind) => {
        const { io, rlmm, tp } = setUp();
        await rlmm.assignPartitions([tp]);
        const s = segment(tp, { start: 0, end: 9 });
        const steps = [
          () => rlmm.addRemoteLogSegmentMetadata(s),
          () => rlmm.updateRemoteLogSegmentMetadata(update(s, 'COPY_SEGMENT_FINISHED')),
          () =>
            rlmm.putRemotePartitionDeleteMetadata(partitionDelete(tp, 'DELETE_PARTITION_MARKED')),
        ];
        for (const [i, step] of steps.entries()) {
          io.inject({ op: 'putIfAbsent', key: CELL_VERSION_KEY, kind, count: 1 });
          await step();
          expect(await committedVersionOf(io, tp)).toBe(i + 1);
        }
        expect(io.fired).toBe(3);
        const listed = await rlmm.listRemoteLogSegments(tp);
        expect(listed.map((m) => [m.segmentId.id, m.state])).toEqual([
          [s.segmentId.id, 'COPY_SEGMENT_FINISHED'],
        ]);
      },
    );

    it('when the outcome cannot be learned the call fails as Io; the retry succeeds and applies once', async () => {
      const { io, rlmm, tp } = setUp();
      await rlmm.assignPartitions([tp]);
      const first = segment(tp, { start: 0, end: 9 });
      await rlmm.addRemoteLogSegmentMetadata(first);
      const s = segment(tp, { start: 10, end: 19 });
      io.inject({ op: 'putIfAbsent', key: CELL_VERSION_KEY, kind: 'apply-then-lose', count: 1 });
      io.inject({ op: 'get', key: CELL_VERSION_KEY, kind: 'unavailable' });
      expect((await rejectionOf(rlmm.addRemoteLogSegmentMetadata(s))).code).toBe('Io');
      io.clear();
      await rlmm.addRemoteLogSegmentMetadata(s);
      expect(await committedVersionOf(io, tp)).toBe(2);
      expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual([
        first.segmentId.id,
        s.segmentId.id,
      ]);
      // A retry through another manager (another process) is recognised too.
      const other = new ObjectRemoteLogMetadataManager(io, ROOT);
      await other.addRemoteLogSegmentMetadata(s);
      expect(await committedVersionOf(io, tp)).toBe(2);
    });

    it('a retry after a failure that never applied publishes the event', async () => {
      const { io, rlmm, tp } = setUp();
      await rlmm.assignPartitions([tp]);
      const s = segment(tp, { start: 0, end: 9 });
      io.inject({ op: 'putIfAbsent', key: CELL_VERSION_KEY, kind: 'unavailable', count: 1 });
      expect((await rejectionOf(rlmm.addRemoteLogSegmentMetadata(s))).code).toBe('Io');
      await rlmm.addRemoteLogSegmentMetadata(s);
      expect(await committedVersionOf(io, tp)).toBe(1);
      expect(idsOf(await rlmm.listRemoteLogSegments(tp))).toEqual([s.segmentId.id]);
    });
  });
});
