/**
 * A replay through the console's API that meets a damaged segment says so: a hole after the
 * entries read before it (object key, region, id range, the check that failed), a count in its
 * progress, the Regions view's Holes; a region the prefix does not have is `RegionNotFound`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import type { RegionsView, ReplayProgress } from '../../src/shared/contract/wal';
import { DAMAGED_REGION, writeDamagedPrefix } from '../support/damaged-segment';
import { failureOf, nextEvent, PREFIX, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

type Chunk = Extract<ApiEvent, { type: 'wal.replay.chunk' }>;

async function replayed(region: string) {
  const started = (await app.call('wal.replay.start', {
    prefix: PREFIX,
    region,
    chunkSize: 3,
  })) as ReplayProgress;
  const done = await nextEvent(
    app,
    (event: ApiEvent): event is Extract<ApiEvent, { type: 'wal.replay.done' }> =>
      event.type === 'wal.replay.done' && event.jobId === started.jobId,
  );
  const chunks = app.events.filter(
    (event): event is Chunk => event.type === 'wal.replay.chunk' && event.jobId === started.jobId,
  );
  return { done: done.progress, chunks };
}

describe('a replay over a damaged segment', () => {
  it('shows the hole where it was met, counts it, and the Regions view counts it', async () => {
    app = await walApp();
    const damaged = await writeDamagedPrefix(app.io);
    for (let pass = 0; pass < 2; pass++) {
      const { done, chunks } = await replayed('1:1');
      expect(done).toMatchObject({ state: 'finished', holes: 1 });
      expect(done.delivered).toBe(damaged.regionEntries - damaged.lostEntries);
      // Stream order: each chunk's entries, then its holes.
      const stream = chunks.flatMap((chunk) => [
        ...chunk.entries.map((entry) => entry.id),
        ...(chunk.holes ?? []).map((hole) => hole),
      ]);
      const at = stream.findIndex((item) => typeof item !== 'bigint');
      expect(stream[at]).toEqual({
        key: damaged.key,
        seq: damaged.seq,
        regionId: DAMAGED_REGION,
        firstId: damaged.firstId,
        lastId: damaged.lastId,
        check: 'segment-crc',
        detail: expect.any(String),
      });
      expect(stream[at - 1]).toBeLessThan(damaged.firstId);
      expect(stream[at + 1]).toBeGreaterThan(damaged.lastId);
    }
    const regions = (await app.call('wal.regions', { prefix: PREFIX })) as RegionsView;
    expect(regions.regions.find((r) => r.regionId === DAMAGED_REGION)?.holes).toBe(1);
  });

  it('refuses a region the prefix does not have', async () => {
    app = await walApp();
    await writeDamagedPrefix(app.io);
    const refused = await failureOf(
      app.call('wal.replay.start', { prefix: PREFIX, region: '9999:0' }),
    );
    expect(refused).toMatchObject({ code: 'RegionNotFound', details: { region: '9999:0' } });
  });
});
