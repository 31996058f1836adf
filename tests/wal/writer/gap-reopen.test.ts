/**
 * wal.md "A spent start gap": a durable writer whose failed creates consumed every sequence
 * below B + 64 without a landing re-opens itself under a new epoch by steps (a)-(e). The
 * admitted append fails with the retryable `WriterReopened`; appends go on; every
 * acknowledged entry replays once; a late object of the earlier epoch (above its recorded
 * last sequence) never appears. The rule and the pacing are also checked as pure functions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { START_GAP } from '../../../src/main/engine/wal/actor';
import {
  isStartGapSpent,
  ReopenPacer,
  type GapFacts,
} from '../../../src/main/engine/wal/actor/gap-reopen';
import { encodeObject } from '../../../src/main/engine/wal/format';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import {
  PREFIX,
  REGION_A,
  codeOf,
  entriesOf,
  keyAt,
  openStore,
  payloadOf,
  readAll,
  settle,
  walConfig,
} from '../support/writer-harness';
import { gcLanes } from '../gc/gc-support';

const text = new TextEncoder();

const { lanes, dispose } = gcLanes('wal-gap');
afterAll(dispose);

describe.each(lanes)('a spent start gap re-opens the writer on %s', (_lane, makeIo) => {
  it('consumes 64 sequences without a landing, re-opens, goes on; acknowledged entries replay once, late objects never', async () => {
    const io = new FaultyObjectIo(await makeIo());
    const store = await openStore(io, { maxBatchBytes: 1, maxInFlightCreates: 1 });
    const firstEpoch = store.epoch;
    const acknowledged: string[] = [];
    const before = await store.appendBatch(entriesOf(store, REGION_A, 'before'));
    acknowledged.push('before');
    const oldTip = before.lastEntryIds.get(REGION_A)! >> 20n;
    const b = store.state().certified; // The fence that acknowledged 'before' certified it.
    expect(b).toBe(oldTip);

    // Every create fails: each failed append consumes its sequence. The first lands, but its
    // answer and the read-back are lost, so the writer counts it failed (an unknown outcome).
    io.inject({ op: 'putIfAbsent', key: /\/objects\//, kind: 'apply-then-5xx', count: 1 });
    io.inject({ op: 'get', key: /\/objects\//, kind: 'unavailable', count: 1 });
    io.inject({ op: 'putIfAbsent', key: /\/objects\//, kind: 'unavailable' });
    for (let seq = oldTip + 1n; seq < b + START_GAP; seq++) {
      const failed = await settle(store.appendBatch(entriesOf(store, REGION_A, `lost${seq}`)));
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(['Unavailable', 'OutcomeUnknown']).toContain(codeOf(failed.error));
    }
    expect(store.state().nextSeq).toBe(b + START_GAP);
    io.clear();

    // The next batch sits at B + 64: nothing can certify a higher B, so the writer re-opens.
    const blocked = await settle(store.appendBatch(entriesOf(store, REGION_A, 'blocked')));
    expect(blocked.ok).toBe(false);
    if (!blocked.ok) {
      expect(codeOf(blocked.error)).toBe('WriterReopened');
      expect(blocked.error).toMatchObject({ epoch: firstEpoch });
    }
    const after = await store.appendBatch(entriesOf(store, REGION_A, 'after'));
    acknowledged.push('after');
    const state = store.state();
    expect(state.reopens).toBe(1);
    expect(state.lastReopen).toMatchObject({ fromEpoch: firstEpoch, toEpoch: store.epoch });
    expect(store.epoch).toBeGreaterThan(firstEpoch);
    expect(store.metrics().gapReopens).toBe(1);
    expect(after.lastEntryIds.get(REGION_A)! >> 20n).toBeGreaterThan(b + START_GAP);

    const control = (await readControl(registerStoreOf(io, PREFIX)))?.control;
    const record = control?.segments.find(
      (r) => r.firstEpoch <= firstEpoch && firstEpoch <= r.lastEpoch,
    );
    // Sealed where the writer knew it ended, its last committed object: the object that
    // landed unknown to it above that is excluded, and its failed append never reappears.
    expect(record).toMatchObject({ reason: 'stopped', lastSeq: oldTip });
    expect((await io.head(keyAt(oldTip + 1n))).size).toBeGreaterThan(0);

    // A create of the earlier epoch lands late, in a consumed sequence, linked to its tip.
    const lateSeq = oldTip + 5n;
    const late = encodeObject({
      seq: lateSeq,
      epoch: firstEpoch,
      link: { seq: oldTip, epoch: firstEpoch },
      segments: new Map([[REGION_A, [{ id: (lateSeq << 20n) | 1n, bytes: text.encode('late') }]]]),
    });
    await io.putIfAbsent(keyAt(lateSeq), late.bytes);

    await store.appendBatch(entriesOf(store, REGION_A, 'last'));
    acknowledged.push('last');
    expect((await readAll(store, REGION_A)).map(payloadOf)).toEqual(acknowledged);
    await store.stop();

    const reopened = await openStore(io);
    expect((await readAll(reopened, REGION_A)).map(payloadOf)).toEqual(acknowledged);
    await reopened.stop();
    const inspected = await inspectPrefix(io, walConfig());
    expect(inspected.excluded.map((o) => o.seq)).toEqual(
      expect.arrayContaining([oldTip + 1n, lateSeq]),
    );
  });
});

const SPENT: GapFacts = {
  ackMode: 'durable',
  ackFence: 'register',
  stopping: false,
  busy: false,
  createsInFlight: 0,
  onlyQueued: true,
  firstQueuedSeq: 164n,
  certified: 100n,
  gap: 64n,
  highestLanded: 100n,
};

describe('the spent-gap rule', () => {
  it.each<[string, Partial<GapFacts>, boolean]>([
    ['every sequence below B + 64 consumed, nothing certifiable', {}, true],
    [
      'with no fence, a landed object certifies nothing',
      { ackFence: 'none', highestLanded: 120n },
      true,
    ],
    ['the first queued batch is within the gap', { firstQueuedSeq: 163n }, false],
    ['a landed object a fence round can certify', { highestLanded: 120n }, false],
    ['a create (or orphan) still in flight', { createsInFlight: 1 }, false],
    ['a batch created, indexed or fencing', { onlyQueued: false }, false],
    ['an obsolete CAS, a fence round or a reopen running', { busy: true }, false],
    ['stopping', { stopping: true }, false],
    ['enqueued: its backlog is acknowledged', { ackMode: 'enqueued' }, false],
    ['nothing queued', { firstQueuedSeq: null }, false],
  ])('%s -> %s', (_row, change, spent) => {
    expect(isStartGapSpent({ ...SPENT, ...change })).toBe(spent);
  });

  it('paces reopens: the first is immediate, then doubling up to the cap, reset by a landing', () => {
    const pacer = new ReopenPacer(100, 1000);
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      delays.push(pacer.nextDelayMs());
      pacer.attempted();
    }
    expect(delays).toEqual([0, 100, 200, 400, 800, 1000, 1000]);
    pacer.landed();
    expect(pacer.nextDelayMs()).toBe(0);
  });
});
