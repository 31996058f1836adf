/**
 * The scrub through the console's API, on a prefix with one damaged segment: a verify of the
 * prefix (or of the whole fleet) in the background finds it, and every view shows it - the
 * fleet row's Damaged and State (with its region and id range), the Batches object rows
 * (`damaged`, the check that failed), the Regions rows (the damaged range, counted as a hole)
 * and the object's own finding; pause holds the scrub, cancel ends it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import type { RegionsView, ReplayProgress } from '../../src/shared/contract/wal';
import type { ObjectDamage } from '../../src/shared/contract/wal-damage';
import type { ScrubJobView } from '../../src/shared/contract/wal-scrub';
import { formatEntryId } from '../../src/shared/id-notation';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { DAMAGED_REGION, writeDamagedPrefix } from '../support/damaged-segment';
import {
  failureOf,
  nextEvent,
  PREFIX,
  scrubEnded,
  settledFleet,
  walApp,
  type WalApp,
} from './support';

let app: WalApp;
afterEach(() => app.close());

describe('wal.scrub', () => {
  it('finds a damaged segment, and every view shows it', async () => {
    app = await walApp();
    const damaged = await writeDamagedPrefix(app.io);
    const before = await settledFleet(app);
    // Recovery read footers only: nothing is wrong that it saw, and nothing was read whole.
    expect(before.rows[0]).toMatchObject({
      damaged: 0,
      health: { state: 'unverified' },
      coverage: { state: 'never' },
    });

    const started = (await app.call('wal.scrub.start', { prefix: PREFIX })) as ScrubJobView;
    const job = await scrubEnded(app, started.jobId);
    expect(job).toMatchObject({ state: 'finished', prefixesDone: 1, damaged: 1, failures: [] });
    expect(job.checked).toBe(job.listed);

    const ids = `${formatEntryId(damaged.firstId)}-${formatEntryId(damaged.lastId)}`;
    const row = (await settledFleet(app)).rows.find((r) => r.prefix === PREFIX);
    expect(row).toMatchObject({ damaged: 1, health: { state: 'unhealthy' } });
    expect(row?.health.text).toBe(`damaged: 1 object, region 1:1 ids ${ids}`);

    const page = (await app.call('wal.objects', { prefix: PREFIX, status: 'damaged' })) as {
      rows: Array<{ key: string; status: string; damage?: { check: string } }>;
    };
    expect(page.rows).toEqual([
      expect.objectContaining({
        key: damaged.key,
        status: 'chain',
        damage: expect.objectContaining({ check: 'segment-crc' }),
      }),
    ]);
    const regions = (await app.call('wal.regions', { prefix: PREFIX })) as RegionsView;
    const region = regions.regions.find((r) => r.regionId === DAMAGED_REGION);
    expect(region).toMatchObject({
      holes: 1,
      damage: [
        {
          key: damaged.key,
          firstId: damaged.firstId,
          lastId: damaged.lastId,
          check: 'segment-crc',
        },
      ],
    });
    expect(
      regions.regions.filter((r) => r.regionId !== DAMAGED_REGION).every((r) => r.holes === 0),
    ).toBe(true);
    const finding = (await app.call('wal.damage.object', { key: damaged.key })) as ObjectDamage;
    expect(finding).toMatchObject({ source: 'scrub', onChain: true, check: 'segment-crc' });
  });

  it('scrubs the whole fleet, and pause holds it until resumed', async () => {
    app = await walApp();
    await writeDamagedPrefix(app.io);
    const started = (await app.call('wal.scrub.start', {})) as ScrubJobView;
    expect(started.prefix).toBeNull();
    const paused = (await app.router.call('wal.scrub.pause', {
      jobId: started.jobId,
    })) as ScrubJobView;
    expect(paused.state).toBe('paused');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const held = (await app.call('wal.scrub.jobs', {})) as ScrubJobView[];
    expect(held[0]).toMatchObject({ state: 'paused', checked: 0 });
    await app.router.call('wal.scrub.resume', { jobId: started.jobId });
    expect(await scrubEnded(app, started.jobId)).toMatchObject({
      state: 'finished',
      prefixesDone: 1,
      damaged: 1,
    });
    const damage = (await app.call('wal.damage', { prefix: PREFIX })) as ObjectDamage[];
    expect(damage).toHaveLength(1);
  });

  it("finds a GreptimeDB prefix's damaged segment; Regions and a replay count it as a hole", async () => {
    app = await walApp();
    const gt = 'datanodes/4/epochs/1';
    const region = makeRegionId(7, 1);
    const builder = new GtPrefixBuilder(gt);
    builder.openInstance();
    for (const text of ['a', 'bb', 'ccc']) builder.append([[region, [text, `${text}!`]]]);
    await builder.writeTo(app.io);
    const [, middle] = (await openGtReadOnly(app.io, gt)).catalog.objectsForRegion(region, 1n);
    if (middle === undefined) throw new Error('no middle segment');
    const bytes = new Uint8Array((await app.io.get(middle.key)).bytes);
    const last = middle.offset + middle.length - 1;
    bytes[last] = (bytes[last] ?? 0) ^ 0xff;
    await app.io.delete(middle.key);
    await app.io.putIfAbsent(middle.key, bytes);

    const started = (await app.call('wal.scrub.start', { prefix: gt })) as ScrubJobView;
    expect(await scrubEnded(app, started.jobId)).toMatchObject({ state: 'finished', damaged: 1 });
    const [found] = (await app.call('wal.damage', { prefix: gt })) as ObjectDamage[];
    expect(found).toMatchObject({
      key: middle.key,
      onChain: true,
      ranges: [{ regionId: region, firstId: middle.firstId, lastId: middle.lastId }],
    });
    const regions = (await app.call('wal.regions', { prefix: gt })) as RegionsView;
    expect(regions.regions.find((r) => r.regionId === region)?.holes).toBe(1);
    const replay = (await app.call('wal.replay.start', { prefix: gt, region })) as ReplayProgress;
    const done = await nextEvent(
      app,
      (event: ApiEvent): event is Extract<ApiEvent, { type: 'wal.replay.done' }> =>
        event.type === 'wal.replay.done' && event.jobId === replay.jobId,
    );
    expect(done.progress).toMatchObject({ state: 'finished', holes: 1, delivered: 4 });
  });

  it('cancels, and refuses what it cannot scrub', async () => {
    app = await walApp();
    await writeDamagedPrefix(app.io);
    const started = (await app.call('wal.scrub.start', { prefix: PREFIX })) as ScrubJobView;
    await app.router.call('wal.scrub.pause', { jobId: started.jobId });
    await app.router.call('wal.scrub.cancel', { jobId: started.jobId });
    expect(await scrubEnded(app, started.jobId)).toMatchObject({ state: 'cancelled', checked: 0 });
    expect((await failureOf(app.call('wal.scrub.start', { prefix: 'wal/nodes/x' }))).code).toBe(
      'NotAWalPrefix',
    );
    expect((await failureOf(app.router.call('wal.scrub.pause', { jobId: 'nope' }))).code).toBe(
      'ScrubJobNotFound',
    );
  });
});
