/**
 * The actor's pipeline keeps per-phase counts as batches move, so backpressure and the step's
 * early returns read a count instead of filtering. The counts must always equal what a pass
 * over the batches says, through every valid move, a commit at the front and a failure
 * anywhere.
 */
import { describe, expect, it } from 'vitest';
import { encodeObject } from '../../../src/main/engine/wal/format';
import { Pipeline } from '../../../src/main/engine/wal/actor/pipeline';
import {
  isUnindexed,
  type BatchPhase,
  type SealedBatch,
} from '../../../src/main/engine/wal/actor/sealed-batch';

const PHASES: readonly BatchPhase[] = [
  'queued',
  'creating',
  'retry-wait',
  'created',
  'indexed',
  'fencing',
  'committed',
  'failed',
];

function sealed(seq: bigint): SealedBatch {
  return {
    seq,
    key: `objects/${seq}.wal`,
    epoch: 1n,
    link: null,
    encoded: encodeObject({ seq, epoch: 1n, link: null, segments: new Map() }),
    entries: 1,
    waiters: [],
    lastIds: new Map(),
    firstAdmittedAt: 0,
    sealedAt: 0,
    phase: 'queued',
    attempt: 0,
    createStartedAt: null,
    createRunning: false,
    retryAt: 0,
  };
}

function expectCountsMatch(pipeline: Pipeline): void {
  const batches = pipeline.toArray();
  for (const phase of PHASES)
    expect(pipeline.count(phase), phase).toBe(batches.filter((b) => b.phase === phase).length);
  expect(pipeline.unindexedCount()).toBe(batches.filter(isUnindexed).length);
  expect(pipeline.firstQueued()).toBe(batches.find((b) => b.phase === 'queued'));
}

describe('the pipeline of sealed batches', () => {
  it('counts every phase as batches are sealed, created, fenced, committed and failed', () => {
    const pipeline = new Pipeline();
    const [a, b, c, d] = [sealed(1n), sealed(2n), sealed(3n), sealed(4n)];
    for (const batch of [a, b, c, d]) pipeline.push(batch);
    expectCountsMatch(pipeline);
    pipeline.move(a, 'creating');
    pipeline.move(b, 'creating');
    pipeline.move(b, 'retry-wait');
    expectCountsMatch(pipeline);
    pipeline.move(a, 'created');
    pipeline.move(a, 'indexed');
    pipeline.move(a, 'fencing');
    expect(pipeline.unindexedCount()).toBe(3);
    expectCountsMatch(pipeline);
    expect(pipeline.take(a, 'committed')).toBe(true);
    expect(a.phase).toBe('committed');
    expect(pipeline.first()).toBe(b);
    expectCountsMatch(pipeline);
    expect(pipeline.take(c, 'failed')).toBe(true);
    expect(pipeline.toArray()).toEqual([b, d]);
    expectCountsMatch(pipeline);
    expect(pipeline.last()).toBe(d);
  });

  it('refuses an invalid move without changing a count', () => {
    const pipeline = new Pipeline();
    const batch = sealed(7n);
    pipeline.push(batch);
    expect(() => pipeline.move(batch, 'indexed')).toThrow(/no transition from queued to indexed/);
    expect(batch.phase).toBe('queued');
    expectCountsMatch(pipeline);
  });
});
