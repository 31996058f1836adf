/** Garbage collection through the API: a dry run first, the pass only by a writer opened here. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONNECTION, PREFIX, failureOf, seed, walApp, type WalApp } from './support';
import { formatWalRegion } from '../../src/shared/contract/wal';

let app: WalApp;
beforeEach(async () => {
  app = await walApp();
  await seed(app.io, 400);
});
afterEach(() => app.close());

describe('wal.gc', () => {
  it('previews exactly what the pass then deletes, and announces the collection', async () => {
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const regions = (await app.call('wal.regions', { prefix: PREFIX })) as {
      regions: Array<{ regionId: bigint; latestId: bigint }>;
    };
    // Obsolete every region wholly: everything below the newest objects becomes collectable.
    for (const region of regions.regions)
      await app.call('wal.obsoleteAll', {
        prefix: PREFIX,
        region: region.regionId.toString(),
        confirm: formatWalRegion(region.regionId),
      });
    await app.services.wal.closeAll();
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const preview = (await app.call('wal.gc.preview', { prefix: PREFIX })) as {
      dryRun: boolean;
      objects: Array<{ key: string }>;
      boundary: bigint;
    };
    expect(preview.dryRun).toBe(true);
    const pass = (await app.call('wal.gc', { prefix: PREFIX, confirm: PREFIX })) as {
      dryRun: boolean;
      objects: Array<{ key: string }>;
      boundary: bigint;
      failure: string | null;
    };
    expect(pass).toMatchObject({ dryRun: false, failure: null, boundary: preview.boundary });
    expect(pass.objects.map((object) => object.key)).toEqual(
      preview.objects.map((object) => object.key),
    );
    for (const object of pass.objects)
      expect(await failureOf(app.io.head(object.key))).toMatchObject({ code: 'NotFound' });
    const after = (await app.call('wal.gc.preview', { prefix: PREFIX })) as { objects: unknown[] };
    expect(after.objects).toHaveLength(0);
    expect(
      app.events.some((event) => event.type === 'wal.gc.collected' && event.prefix === PREFIX),
    ).toBe(true);
    const audit = await app.services.audit.recent(5);
    expect(audit.map((entry) => entry.action)).toContain('wal.gc');
  });

  it('after a pass collected regions whole, the read-only Regions view still shows their latest ids', async () => {
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    type Rows = { regions: Array<{ regionId: bigint; latestId: bigint; watermark: bigint }> };
    const before = (await app.call('wal.regions', { prefix: PREFIX })) as Rows;
    for (const region of before.regions)
      await app.call('wal.obsoleteAll', {
        prefix: PREFIX,
        region: region.regionId.toString(),
        confirm: formatWalRegion(region.regionId),
      });
    // Each obsolete already ran a pass in the background; this one finishes whatever is left.
    await app.call('wal.gc', { prefix: PREFIX, confirm: PREFIX });
    await app.services.wal.closeAll();
    const after = (await app.call('wal.regions', { prefix: PREFIX })) as Rows;
    const latest = (rows: Rows) => rows.regions.map((r) => [r.regionId, r.latestId]);
    expect(latest(after)).toEqual(latest(before));
    expect(after.regions.every((r) => r.latestId === r.watermark && r.latestId > 0n)).toBe(true);
  });

  it('previews read-only on a prefix not opened here, and refuses the pass there', async () => {
    const preview = (await app.call('wal.gc.preview', { prefix: PREFIX })) as {
      dryRun: boolean;
      unjudged: unknown;
    };
    expect(preview).toMatchObject({ dryRun: true, unjudged: null });
    expect((await failureOf(app.call('wal.gc', { prefix: PREFIX }))).code).toBe('ReadOnly');
    await app.services.connections.setOperator(CONNECTION, true);
    expect((await failureOf(app.call('wal.gc', { prefix: PREFIX, confirm: PREFIX }))).code).toBe(
      'WriterNotOpen',
    );
  });
});
