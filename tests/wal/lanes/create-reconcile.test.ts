/**
 * A create whose outcome is unknown is reconciled once by reading the key back (wal.md,
 * after the failure matrix): identical bytes -> created; different -> conflict; absent or
 * unreadable -> transient. First the uploader's verdicts on their own, then each verdict
 * through a real writer on every backend, with the row of the matrix it must land in.
 * A lost response whose create did NOT apply is made by stacking two FaultyObjectIo: the
 * outer loses the response, the inner refuses the create.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { OutcomeUnknownError } from '../../../src/main/engine/objectio/errors';
import { encodeObject } from '../../../src/main/engine/wal/format';
import { seqOf } from '../../../src/main/engine/wal/ids';
import { objectKey } from '../../../src/main/engine/wal/keys';
import { createObject, reconcileCreate } from '../../../src/main/engine/wal/uploader';
import { s3Lane } from '../../support/s3';
import { foreignObject } from '../support/writer-harness';
import {
  REGION_A,
  appendParts,
  codeOf,
  collect,
  laneConfig,
  localLane,
  memoryLane,
  openLaneStore,
  payload,
  prefixOf,
  providerOf,
  s3WalLane,
  settle,
  shapeOf,
  type WalLane,
} from './lane-kit';

const KEY = 'x/objects/00000000000000000070.wal';
const cause = new OutcomeUnknownError(KEY, 'memory', 'response lost');
const ours = encodeObject({
  seq: 70n,
  epoch: 4n,
  link: null,
  segments: new Map([[REGION_A, [{ id: (70n << 20n) | 1n, bytes: payload('ours', 9) }]]]),
}).bytes;

describe('reconcileCreate: one read-back decides', () => {
  it('identical bytes -> created (via the read-back)', async () => {
    const io = new MemoryObjectIo();
    await io.putIfAbsent(KEY, ours);
    expect(await reconcileCreate(io, KEY, ours, cause)).toEqual({
      kind: 'created',
      viaReadback: true,
    });
  });

  it('different bytes -> conflict naming the stored object epoch (null when its trailer is unreadable)', async () => {
    const io = new MemoryObjectIo();
    const theirs = foreignObject(70n, 9n);
    await io.putIfAbsent(KEY, theirs);
    expect(await reconcileCreate(io, KEY, ours, cause)).toEqual({
      kind: 'conflict',
      epoch: 9n,
      size: theirs.length,
    });
    const junkKey = KEY.replace('70', '71');
    await io.putIfAbsent(junkKey, new Uint8Array([1, 2, 3]));
    expect(await reconcileCreate(io, junkKey, ours, cause)).toEqual({
      kind: 'conflict',
      epoch: null,
      size: 3,
    });
  });

  it('absent -> transient carrying the original cause; unreadable -> transient; a terminal read -> terminal', async () => {
    const memory = new MemoryObjectIo();
    expect(await reconcileCreate(memory, KEY, ours, cause)).toEqual({
      kind: 'transient',
      error: cause,
    });
    const io = new FaultyObjectIo(memory);
    io.inject({ op: 'get', kind: 'unavailable', count: 1 });
    const unreadable = await reconcileCreate(io, KEY, ours, cause);
    expect(unreadable.kind).toBe('transient');
    if (unreadable.kind === 'transient') expect(unreadable.error.code).toBe('Unavailable');
    io.inject({ op: 'get', kind: 'backend', count: 1 });
    expect((await reconcileCreate(io, KEY, ours, cause)).kind).toBe('terminal');
  });

  it('createObject: a lost response of a create that never applied reads back absent -> transient', async () => {
    const inner = new FaultyObjectIo(new MemoryObjectIo());
    const outer = new FaultyObjectIo(inner);
    inner.inject({ op: 'putIfAbsent', kind: 'unavailable', count: 1 });
    outer.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    const outcome = await createObject(outer, KEY, ours);
    expect(outcome.kind).toBe('transient');
    if (outcome.kind === 'transient') expect(outcome.error.code).toBe('OutcomeUnknown');
    await expect(outer.head(KEY)).rejects.toMatchObject({ code: 'NotFound' });
  });
});

const keyOf = (seq: bigint): RegExp => new RegExp(`${objectKey(prefixOf(laneConfig()), seq)}$`);

function reconcileThroughWriter(lane: WalLane): void {
  describe(`an unknown create outcome through a writer on ${lane.name}`, () => {
    afterAll(() => lane.dispose());

    it('read-back finds different bytes of an earlier epoch: durable -> fails as transient, store healthy', async () => {
      const io = new FaultyObjectIo(await lane.makeIo('reconcile-diff'));
      const store = await openLaneStore(io, laneConfig(), { probe: false });
      const seq = store.state().nextSeq;
      await io.putIfAbsent(objectKey(store.prefix, seq), foreignObject(seq, store.epoch - 1n));
      io.inject({ op: 'putIfAbsent', key: keyOf(seq), kind: 'apply-then-lose', count: 1 });
      const failed = await settle(appendParts(store, [[REGION_A, payload('lost', 5)]]));
      expect(io.fired).toBe(1);
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(codeOf(failed.error)).toBe('ConflictingObject');
      expect(store.state().poisoned).toBeNull();
      expect(store.metrics().createConflicts).toBe(1);
      const kept = await appendParts(store, [[REGION_A, payload('kept', 5)]]);
      expect(seqOf(kept[0]?.id ?? 0n)).toBe(seq + 1n); // consumed, never reused
      expect(shapeOf(await collect(store.read(providerOf(store, REGION_A), 0n)))).toEqual(
        shapeOf(kept),
      );
      await store.stop();
    });

    it('read-back finds different bytes of a later epoch -> poisoned with Fenced', async () => {
      const io = new FaultyObjectIo(await lane.makeIo('reconcile-later'));
      const store = await openLaneStore(io, laneConfig(), { probe: false });
      const seq = store.state().nextSeq;
      await io.putIfAbsent(objectKey(store.prefix, seq), foreignObject(seq, store.epoch + 1n));
      io.inject({ op: 'putIfAbsent', key: keyOf(seq), kind: 'apply-then-lose', count: 1 });
      const failed = await settle(appendParts(store, [[REGION_A, payload('x', 5)]]));
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(codeOf(failed.error)).toBe('Fenced');
      expect(store.state().poisoned?.code).toBe('Fenced');
      await store.stop();
    });

    it('read-back finds the key absent: durable -> transient (sequence consumed); enqueued -> created again', async () => {
      const inner = new FaultyObjectIo(await lane.makeIo('reconcile-absent'));
      const io = new FaultyObjectIo(inner);
      const durable = await openLaneStore(io, laneConfig(), { probe: false });
      const seq = durable.state().nextSeq;
      inner.inject({ op: 'putIfAbsent', key: keyOf(seq), kind: 'unavailable', count: 1 });
      io.inject({ op: 'putIfAbsent', key: keyOf(seq), kind: 'apply-then-lose', count: 1 });
      const failed = await settle(appendParts(durable, [[REGION_A, payload('gone', 5)]]));
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(codeOf(failed.error)).toBe('OutcomeUnknown');
      expect(durable.state().poisoned).toBeNull();
      const after = await appendParts(durable, [[REGION_A, payload('after', 5)]]);
      expect(seqOf(after[0]?.id ?? 0n)).toBe(seq + 1n);
      await durable.stop();

      const enqueued = await openLaneStore(io, laneConfig({ ackMode: 'enqueued' }), {
        probe: false,
        createRetryDelayMs: 5,
      });
      const next = enqueued.state().nextSeq;
      inner.inject({ op: 'putIfAbsent', key: keyOf(next), kind: 'unavailable', count: 1 });
      io.inject({ op: 'putIfAbsent', key: keyOf(next), kind: 'apply-then-lose', count: 1 });
      const written = await appendParts(enqueued, [[REGION_A, payload('retried', 5)]]);
      await enqueued.waitDurable(providerOf(enqueued, REGION_A), written[0]?.id ?? 0n);
      expect(seqOf(written[0]?.id ?? 0n)).toBe(next); // the same bytes, created again
      const read = await collect(enqueued.read(providerOf(enqueued, REGION_A), 0n));
      expect(shapeOf(read)).toEqual(shapeOf([...after, ...written]));
      await enqueued.stop();
    });
  });
}

const s3 = s3Lane();
const lanes: WalLane[] = [memoryLane(), localLane(), ...(s3 === null ? [] : [s3WalLane(s3)])];
for (const lane of lanes) reconcileThroughWriter(lane);
