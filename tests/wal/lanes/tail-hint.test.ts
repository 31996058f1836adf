/**
 * The periodic `cairn.tail` hint (control.md: written by the epoch holder every 10 s and at
 * stop): with a short `tailIntervalMs`, a read-only inspection sees the register's tail
 * follow the indexed tip while the writer appends, before any stop - on every backend.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { seqOf } from '../../../src/main/engine/wal/ids';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import { s3Lane } from '../../support/s3';
import {
  REGION_A,
  appendParts,
  laneConfig,
  localLane,
  memoryLane,
  openLaneStore,
  payload,
  s3WalLane,
  until,
  type WalLane,
} from './lane-kit';

async function tailOf(lane: { io: Parameters<typeof inspectPrefix>[0] }) {
  return (await inspectPrefix(lane.io, laneConfig())).register.tail;
}

function tailFollowsTheTip(lane: WalLane): void {
  describe(`the tail hint on ${lane.name}`, () => {
    afterAll(() => lane.dispose());

    it('advances with the indexed tip while the writer appends', async () => {
      const io = await lane.makeIo('tail');
      const store = await openLaneStore(io, laneConfig(), { probe: false, tailIntervalMs: 20 });
      const start = store.state().indexedTip;
      await until(
        async () => (await tailOf({ io }))?.seq === start?.seq,
        'the tail to name the start object',
      );

      const [first] = await appendParts(store, [[REGION_A, payload('t1', 10)]]);
      const firstSeq = seqOf(first?.id ?? 0n);
      await until(
        async () => (await tailOf({ io }))?.seq === firstSeq,
        'the tail to reach the first object',
      );
      expect(await tailOf({ io })).toEqual({ seq: firstSeq, epoch: store.epoch });

      for (let i = 0; i < 3; i++) await appendParts(store, [[REGION_A, payload(`t${i + 2}`, 10)]]);
      const tip = store.state().indexedTip;
      expect(tip?.seq).toBeGreaterThan(firstSeq);
      await until(
        async () => (await tailOf({ io }))?.seq === tip?.seq,
        'the tail to reach the new tip',
      );
      expect(store.state().stopped).toBe(false); // written by the running writer, not by stop
      await store.stop();
    }, 20_000);
  });
}

const s3 = s3Lane();
for (const lane of [memoryLane(), localLane(), ...(s3 === null ? [] : [s3WalLane(s3)])])
  tailFollowsTheTip(lane);
