/**
 * A committed batch lets go of the appends it acknowledged: its waiter array is emptied in
 * place (the array the batch and the open batch it came from share), so garbage that still
 * points at the batch keeps none of them alive.
 */
import { describe, expect, it } from 'vitest';
import { encodeObject } from '../../../src/main/engine/wal/format';
import type { AppendWaiter } from '../../../src/main/engine/wal/actor/open-batch';
import { letGoOfWaiters, type SealedBatch } from '../../../src/main/engine/wal/actor/sealed-batch';

function waiter(index: number): AppendWaiter {
  return {
    resolve: () => undefined,
    reject: () => undefined,
    arrivedAt: index,
    result: { lastEntryIds: new Map() },
  };
}

function committed(waiters: AppendWaiter[]): SealedBatch {
  return {
    seq: 7n,
    key: 'objects/7.wal',
    epoch: 1n,
    link: null,
    encoded: encodeObject({ seq: 7n, epoch: 1n, link: null, segments: new Map() }),
    entries: waiters.length,
    waiters,
    lastIds: new Map(),
    firstAdmittedAt: 0,
    sealedAt: 0,
    phase: 'committed',
    attempt: 1,
    createStartedAt: 0,
    retryAt: 0,
  };
}

describe('a committed batch', () => {
  it('empties its waiter array in place, the array it shares with its open batch', () => {
    const shared = Array.from({ length: 1024 }, (_, index) => waiter(index));
    const batch = committed(shared);
    letGoOfWaiters(batch);
    expect(batch.waiters).toBe(shared);
    expect(shared).toEqual([]);
    expect(shared[0]).toBeUndefined();
  });

  it('lets go of an empty batch without harm', () => {
    const batch = committed([]);
    letGoOfWaiters(batch);
    expect(batch.waiters).toEqual([]);
  });
});
