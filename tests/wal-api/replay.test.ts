/**
 * Replay jobs: chunks bounded by the chunk size, ids in order, pause holding the read (the job
 * never pulls more than one chunk ahead), cancel ending the underlying read, and the same
 * through the router over a seeded prefix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import type { ReplayEntryView, ReplayProgress } from '../../src/shared/contract/wal';
import type { WalEntry } from '../../src/main/engine/wal/entry';
import { ReplayJob } from '../../src/main/services/wal/replay-job';
import { PREFIX, failureOf, nextEvent, seed, walApp, type WalApp } from './support';

/** An endless region: counts what the job pulled and whether the read was ended. */
function endlessSource(): {
  source: AsyncIterable<WalEntry>;
  pulled: () => number;
  closed: () => boolean;
} {
  let pulled = 0;
  let closed = false;
  async function* generate(): AsyncGenerator<WalEntry> {
    try {
      for (let id = 1n; ; id++) {
        pulled += 1;
        await Promise.resolve();
        yield {
          id,
          data: new Uint8Array([Number(id % 256n)]),
          regionId: 1n,
          provider: { prefix: 'p', regionId: 1n },
        };
      }
    } finally {
      closed = true;
    }
  }
  return { source: generate(), pulled: () => pulled, closed: () => closed };
}

function recordingSink() {
  const chunks: ReplayEntryView[][] = [];
  let done: ReplayProgress | null = null;
  let onChunk: (() => void) | null = null;
  return {
    sink: {
      chunk: (entries: readonly ReplayEntryView[]) => {
        chunks.push([...entries]);
        onChunk?.();
      },
      done: (progress: ReplayProgress) => (done = progress),
    },
    chunks,
    done: () => done,
    nextChunk: () => new Promise<void>((resolve) => (onChunk = resolve)),
  };
}

describe('ReplayJob', () => {
  it('holds at most one chunk while paused and ends the read when cancelled', async () => {
    const { source, pulled, closed } = endlessSource();
    const sink = recordingSink();
    const first = sink.nextChunk();
    let job: ReplayJob | null = null;
    const paused = first.then(() => job?.pause());
    job = new ReplayJob('job-1', source, { chunkSize: 4, latestId: 0n }, sink.sink);
    await paused;
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(job.progress().state).toBe('paused');
    const delivered = job.progress().delivered;
    expect(pulled()).toBeLessThanOrEqual(delivered + 4);
    expect(sink.chunks.every((chunk) => chunk.length <= 4)).toBe(true);
    expect(job.cancel('asked').state).toBe('cancelled');
    await job.finished;
    expect(closed()).toBe(true);
    expect(sink.done()).toMatchObject({ state: 'cancelled' });
  });

  it('stops after maxEntries with the ids in order', async () => {
    const { source } = endlessSource();
    const sink = recordingSink();
    const job = new ReplayJob(
      'job-2',
      source,
      { chunkSize: 7, maxEntries: 30, latestId: 30n },
      sink.sink,
    );
    await job.finished;
    const ids = sink.chunks.flat().map((entry) => entry.id);
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => BigInt(i + 1)));
    expect(sink.done()).toMatchObject({ state: 'finished', delivered: 30, lastId: 30n });
  });
});

describe('wal.replay through the router', () => {
  let app: WalApp;
  afterEach(() => app.close());

  const doneOf = (jobId: string) =>
    nextEvent(
      app,
      (event: ApiEvent): event is Extract<ApiEvent, { type: 'wal.replay.done' }> =>
        event.type === 'wal.replay.done' && event.jobId === jobId,
    );
  const chunksOf = (jobId: string) =>
    app.events.flatMap((event) =>
      event.type === 'wal.replay.chunk' && event.jobId === jobId ? [event.entries] : [],
    );

  it('streams a region read-only in bounded chunks, from an id', async () => {
    app = await walApp();
    await seed(app.io, 40);
    const started = (await app.call('wal.replay.start', {
      prefix: PREFIX,
      region: '1:2',
      chunkSize: 3,
    })) as ReplayProgress;
    const done = await doneOf(started.jobId);
    expect(done.progress).toMatchObject({ state: 'finished', delivered: 10 });
    const chunks = chunksOf(started.jobId);
    expect(chunks.every((chunk) => chunk.length <= 3)).toBe(true);
    const ids = chunks.flat().map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(ids.at(-1)).toBe(done.progress.latestId);

    const from = ids[4]!;
    const later = (await app.call('wal.replay.start', {
      prefix: PREFIX,
      region: String((1n << 32n) | 2n),
      fromId: from,
    })) as ReplayProgress;
    expect((await doneOf(later.jobId)).progress.delivered).toBe(6);
    expect(chunksOf(later.jobId).flat()[0]?.id).toBe(from);
  });

  it('cancels a paced replay mid-stream and forgets unknown jobs', async () => {
    app = await walApp();
    await seed(app.io, 40);
    const started = (await app.call('wal.replay.start', {
      prefix: PREFIX,
      region: '1:1',
      chunkSize: 1,
      ratePerSecond: 5,
    })) as ReplayProgress;
    await nextEvent(
      app,
      (event: ApiEvent): event is ApiEvent =>
        event.type === 'wal.replay.chunk' && event.jobId === started.jobId,
    );
    expect(
      ((await app.router.call('wal.replay.cancel', { jobId: started.jobId })) as ReplayProgress)
        .state,
    ).toBe('cancelled');
    const done = await doneOf(started.jobId);
    expect(done.progress.state).toBe('cancelled');
    expect(done.progress.delivered).toBeLessThan(10);
    expect((await failureOf(app.router.call('wal.replay.pause', { jobId: 'nope' }))).code).toBe(
      'ReplayJobNotFound',
    );
  });
});
