/**
 * Regression for an engine fix (actor.ts, the enqueued retry): a transiently failed create is
 * created again after a short delay, and its timer alone makes it due. Before the fix the
 * retry started only if `Date.now()` had reached the recorded `retryAt` when the timer fired,
 * so a timer firing a millisecond early, or a wall clock stepping back during the wait, left
 * the batch in 'retry-wait' forever: `waitDurable` and `stop` never returned. The clock step
 * is simulated by running `Date.now()` one second ahead while the failure is judged.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { objectKey } from '../../../src/main/engine/wal/keys';
import {
  REGION_A,
  appendParts,
  collect,
  laneConfig,
  openLaneStore,
  payload,
  providerOf,
  shapeOf,
  until,
} from './lane-kit';

/** Fails instead of hanging: a liveness guard, not a timing claim. */
function settlesWithin<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} never settled`)), ms).unref(),
    ),
  ]);
}

describe('the enqueued retry of a transiently failed create', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs when its timer fires, even if the wall clock stepped back meanwhile', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const store = await openLaneStore(io, laneConfig({ ackMode: 'enqueued' }), {
      probe: false,
      createRetryDelayMs: 20,
    });
    const seq = store.state().nextSeq;
    io.inject({
      op: 'putIfAbsent',
      key: new RegExp(`${objectKey(store.prefix, seq)}$`),
      kind: 'unavailable',
      count: 1,
    });
    const realNow = Date.now.bind(Date);
    let skewMs = 1000;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + skewMs);

    const written = await appendParts(store, [[REGION_A, payload('retried', 16)]]);
    await until(
      () => io.fired === 1 && store.state().createsInFlight.length === 0,
      'the failed create judged',
    );
    skewMs = 0; // the wall clock steps back one second while the retry waits

    await settlesWithin(
      store.waitDurable(providerOf(store, REGION_A), written[0]?.id ?? 0n),
      'waitDurable',
    );
    expect(shapeOf(await collect(store.read(providerOf(store, REGION_A), 0n)))).toEqual(
      shapeOf(written),
    );
    expect(await settlesWithin(store.stop(), 'stop')).toMatchObject({ sealed: true, lost: null });
  });
});
