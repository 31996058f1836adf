/**
 * Search jobs through the router (search.md): the hits streamed as `wal.search.chunk` events
 * are the CLI's lines for the same filter, the progress counts hits per region and the hole,
 * bulk entries without rows are named in the chunks and those left out by time counted,
 * pause holds the scan and cancel ends it with its reason; a filter that does not read, or a
 * region the prefix lacks, is refused before anything is read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import type { SearchProgress } from '../../src/shared/contract/wal-search';
import { hitLine, type SearchHit } from '../../src/shared/search/search-hits';
import { openTargetReadOnly } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import { WHOLE_PREFIX } from '../../src/main/engine/search/plan';
import { parseCondition } from '../../src/shared/greptime/row-filter';
import { failureOf, nextEvent, walApp, type WalApp } from './support';
import {
  bruteForceRows,
  byRegionThenId,
  GT_PREFIX,
  REGIONS,
  writeGtSearchPrefix,
} from '../search/search-prefix';
import { BULK_PREFIX, hours, writeBulkSearchPrefix } from '../search/bulk-prefix';

type Done = Extract<ApiEvent, { type: 'wal.search.done' }>;

let app: WalApp;
afterEach(async () => app.close());

function isDone(jobId: string) {
  return (event: ApiEvent): event is Done =>
    event.type === 'wal.search.done' && event.jobId === jobId;
}

function hitsOf(jobId: string): SearchHit[] {
  return app.events.flatMap((event) =>
    event.type === 'wal.search.chunk' && event.jobId === jobId ? [...event.hits] : [],
  );
}

describe('wal.search', () => {
  it('streams the hits a replay of every region finds, with counts per region and the hole', async () => {
    app = await walApp();
    await writeGtSearchPrefix(app.io);
    const started = (await app.call('wal.search.start', {
      prefix: GT_PREFIX,
      where: ['host~^web-[15]$'],
    })) as SearchProgress;
    const done = await nextEvent(app, isDone(started.jobId));
    expect(done.progress).toMatchObject({ state: 'finished', kind: 'row', holes: 1 });
    const hits = hitsOf(started.jobId);
    const log = await openTargetReadOnly(app.io, await resolveReadTarget(app.io, GT_PREFIX));
    const condition = parseCondition('host~^web-[15]$');
    if (condition instanceof Error) throw condition;
    const expected = await bruteForceRows(log, WHOLE_PREFIX, {
      conditions: [condition],
      since: null,
      until: null,
    });
    expect(byRegionThenId(hits.map(hitLine))).toEqual(byRegionThenId(expected));
    expect(done.progress.hits).toBe(hits.length);
    expect(done.progress.regions.map((r) => r.region)).toEqual(REGIONS);
    for (const { region, hits: count } of done.progress.regions)
      expect(count).toBe(
        hits.filter((hit) => hit.kind === 'row' && hit.row.region === region).length,
      );
    expect(done.progress.objectsRead).toBe(done.progress.objectsPlanned);
    const holes = app.events.flatMap((e) =>
      e.type === 'wal.search.chunk' && e.jobId === started.jobId ? (e.holes ?? []) : [],
    );
    expect(holes.map((hole) => hole.regionId)).toEqual([REGIONS[1]]);
  });

  it('names the bulk entries that give no rows, and counts those its time range left out', async () => {
    app = await walApp();
    await writeBulkSearchPrefix(app.io);
    const started = (await app.call('wal.search.start', {
      prefix: BULK_PREFIX,
      ...hours(0, 6),
    })) as SearchProgress;
    const done = await nextEvent(app, isDone(started.jobId));
    expect(done.progress).toMatchObject({ state: 'finished', damagedPayloads: 2, bulkSkipped: 0 });
    const damaged = app.events.flatMap((e) =>
      e.type === 'wal.search.chunk' && e.jobId === started.jobId ? (e.damaged ?? []) : [],
    );
    expect(damaged.map((d) => [d.what, d.reason.replace(/ \(.*$/, '')])).toEqual([
      ['bulk entry', 'bulk entry 1 gives no rows: too-large'],
      ['bulk entry', 'bulk entry 1 gives no rows: no-body'],
    ]);
    const early = (await app.call('wal.search.start', {
      prefix: BULK_PREFIX,
      ...hours(0, 1),
    })) as SearchProgress;
    const earlyDone = await nextEvent(app, isDone(early.jobId));
    // Hours 1-5's bulk entries are left out undecoded, but for the one without a body.
    expect(earlyDone.progress).toMatchObject({ bulkSkipped: 29, damagedPayloads: 1 });
  });

  it('pauses and cancels with the reason', async () => {
    app = await walApp();
    await writeGtSearchPrefix(app.io, 40, false);
    const started = (await app.call('wal.search.start', { prefix: GT_PREFIX })) as SearchProgress;
    const paused = (await app.router.call('wal.search.pause', {
      jobId: started.jobId,
    })) as SearchProgress;
    expect(paused.state).toBe('paused');
    const cancelled = (await app.router.call('wal.search.cancel', {
      jobId: started.jobId,
    })) as SearchProgress;
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: 'cancelled on request' });
    const done = await nextEvent(app, isDone(started.jobId));
    expect(done.progress.state).toBe('cancelled');
    expect(done.progress.objectsRead).toBeLessThan(done.progress.objectsPlanned);
  });

  it('refuses a filter that does not read, or a region the prefix lacks, before reading', async () => {
    app = await walApp();
    await writeGtSearchPrefix(app.io, 4, false);
    for (const input of [{ where: ['cpu>x'] }, { ids: '5..1' }, { text: 'web' }])
      expect(
        (await failureOf(app.call('wal.search.start', { prefix: GT_PREFIX, ...input }))).code,
      ).toBe('InvalidSearch');
    const missing = await failureOf(
      app.call('wal.search.start', { prefix: GT_PREFIX, regions: '9:9' }),
    );
    expect(missing.code).toBe('RegionNotFound');
  });
});
