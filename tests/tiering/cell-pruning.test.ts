/**
 * tiering.md, pruning: a manager that wrote a multiple of 64 prunes the partition's cell
 * (ascending, never the newest 16). Several managers race on one cell with lost responses and
 * concurrent prunes; a stale manager whose base version was pruned meets Conflict and
 * re-reads. No event is lost or applied twice, and the cell's stored versions stay bounded.
 */
import { describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import {
  ObjectRemoteLogMetadataManager,
  type RemoteLogSegmentMetadata,
  type TopicIdPartition,
} from '../../src/main/engine/tiering';
import { PRUNE_EVERY_VERSIONS } from '../../src/main/engine/tiering/object-manager';
import { MIN_KEPT_VERSIONS } from '../../src/main/engine/cas/cas-cell';
import { segment, topicPartition, update } from './fixtures';
import { ROOT, committedVersionOf } from './lanes';

const MANAGERS = 3;
const SEGMENTS_EACH = 40;

/** Runs `call` until it stops failing with Io (a lost outcome the cell could not learn). */
async function untilApplied(call: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if ((error as { code?: string }).code !== 'Io' || attempt > 8) throw error;
    }
  }
}

async function storedVersions(io: MemoryObjectIo, cell: string): Promise<number[]> {
  const page = await io.listPage(`${cell}/`);
  return page.objects.map((o) => Number(/(\d{20})\.json$/.exec(o.key)?.[1])).sort((a, b) => a - b);
}

describe('tiering cells are pruned', () => {
  // 64: the rule as shipped; 2: prunes overlap each other and almost every write.
  it.each([PRUNE_EVERY_VERSIONS, 2])(
    'every %s versions, several managers, lost responses, concurrent prunes, a stale updater: every event once, the cell bounded',
    async (every) => {
      const inner = new MemoryObjectIo();
      const io = new FaultyObjectIo(inner);
      const tp: TopicIdPartition = topicPartition(3);
      const managers = Array.from(
        { length: MANAGERS },
        (_, i) =>
          new ObjectRemoteLogMetadataManager(io, ROOT, {
            writerId: `m${i}`,
            pruneEveryVersions: every === PRUNE_EVERY_VERSIONS ? undefined : every,
          }),
      );
      // The stale one loads the cell early, then stays quiet while the others write past it.
      const stale = new ObjectRemoteLogMetadataManager(io, ROOT, { writerId: 'stale' });
      const early = segment(tp, { start: 1_000_000, end: 1_000_009 });
      await stale.addRemoteLogSegmentMetadata(early);
      const staleBase = await committedVersionOf(io, tp);

      // Lost responses scattered through the run (created, answer lost / 5xx).
      for (let i = 0; i < 12; i++) {
        io.inject({
          op: 'putIfAbsent',
          key: /\/tiering\//,
          kind: i % 2 === 0 ? 'apply-then-lose' : 'apply-then-5xx',
          count: 1,
        });
      }
      const written: RemoteLogSegmentMetadata[][] = managers.map(() => []);
      await Promise.all(
        managers.map(async (manager, m) => {
          for (let i = 0; i < SEGMENTS_EACH; i++) {
            const s = segment(tp, {
              start: (m * SEGMENTS_EACH + i) * 10,
              end: (m * SEGMENTS_EACH + i) * 10 + 9,
            });
            const finished = update(s, 'COPY_SEGMENT_FINISHED');
            await untilApplied(() => manager.addRemoteLogSegmentMetadata(s));
            await untilApplied(() => manager.updateRemoteLogSegmentMetadata(finished));
            written[m]!.push(s);
          }
        }),
      );
      expect(io.fired).toBe(12);
      io.clear();

      // The stale manager's base was pruned long ago: its update meets Conflict and re-reads.
      const cell = stale.cellNameOf(tp);
      expect((await storedVersions(inner, cell))[0]).toBeGreaterThan(staleBase + 1);
      expect(stale.appliedVersion(tp)).toBe(staleBase);
      await stale.updateRemoteLogSegmentMetadata(update(early, 'COPY_SEGMENT_FINISHED'));

      // Every event applied exactly once: one version per event, nothing lost or doubled.
      const events = 2 + MANAGERS * SEGMENTS_EACH * 2;
      expect(await committedVersionOf(io, tp)).toBe(events);
      const reader = new ObjectRemoteLogMetadataManager(io, ROOT);
      await reader.assignPartitions([tp]);
      expect(await reader.caughtUp(tp)).toBe(true);
      const listed = await reader.listRemoteLogSegments(tp);
      const expected = [early, ...written.flat()].map((s) => s.segmentId.id).sort();
      expect(listed.map((s) => s.segmentId.id).sort()).toEqual(expected);
      expect(listed.every((s) => s.state === 'COPY_SEGMENT_FINISHED')).toBe(true);

      // Bounded: at most the newest 16 plus the writes since the last multiple of 64.
      const versions = await storedVersions(inner, cell);
      expect(versions.length).toBeLessThanOrEqual(MIN_KEPT_VERSIONS + every);
      expect(versions[versions.length - 1]).toBe(events);
      // Pruned strictly from the bottom: what is stored is one unbroken run up to the newest.
      expect(versions).toEqual(
        Array.from({ length: versions.length }, (_, i) => events - versions.length + 1 + i),
      );
    },
    60_000,
  );
});
