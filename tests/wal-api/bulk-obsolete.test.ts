/**
 * Bulk obsolete through the API (issue #42): 8 regions in one call under one typed
 * confirmation, each up to its own point, one audit entry per region; one preview says what
 * it hides in all and what the collection after it deletes. Operator mode and the phrase are
 * enforced by the router; bad input - an unknown region, an id above the latest, a region
 * named twice - is refused typed before anything changes. A time maps to the newest id
 * written at or before it.
 */
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contract';
import type { RegionsView } from '../../src/shared/contract/wal';
import type { BulkObsoleteView } from '../../src/shared/contract/wal-bulk-obsolete';
import { formatEntryId, formatRegionId } from '../../src/shared/id-notation';
import { embeddedStoreDir } from '../../src/main/services/app-paths';
import { regionIdThrough } from '../../src/main/services/wal/obsolete-points';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { CONNECTION, failureOf, PREFIX, seed, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

const regionsOf = async () =>
  ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions;
const watermarks = async () =>
  new Map((await regionsOf()).map((row) => [row.regionId, row.watermark]));
const entriesOf = async (action: string): Promise<AuditEntry[]> =>
  (await app.services.audit.recent(1000)).filter((entry) => entry.action === action).reverse();

async function operatorWithWriter(regions: number, count = 160): Promise<void> {
  app = await walApp();
  await seed(app.io, count, regions);
  await app.services.connections.setOperator(CONNECTION, true);
  await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
}

describe('bulk obsolete', () => {
  it('obsoletes 8 regions in one confirmed call, one audit entry per region', async () => {
    await operatorWithWriter(8);
    const rows = await regionsOf();
    expect(rows).toHaveLength(8);
    const preview = (await app.call('wal.obsolete.bulk.preview', {
      prefix: PREFIX,
      regions: 'all',
    })) as BulkObsoleteView;
    expect(preview.regions.map((region) => region.id)).toEqual(rows.map((row) => row.durableId));
    expect(preview.hiddenEntries).toBe(160);
    expect(preview.deletes?.objects).toBeGreaterThan(0);

    const targets = rows.map((row) => ({ region: formatRegionId(row.regionId) }));
    // The phrase names the count: the call is refused without it, and with another count.
    for (const confirm of [undefined, 'obsolete all regions', 'obsolete 7 regions'])
      expect(
        await failureOf(
          app.call('wal.obsolete.bulk', { prefix: PREFIX, regions: targets, confirm }),
        ),
      ).toMatchObject({
        code: 'ConfirmationRequired',
        details: { expected: 'obsolete 8 regions' },
      });
    expect([...(await watermarks()).values()].every((mark) => mark === 0n)).toBe(true);

    const done = (await app.call('wal.obsolete.bulk', {
      prefix: PREFIX,
      regions: targets,
      confirm: 'obsolete 8 regions',
    })) as BulkObsoleteView;
    expect(done.hiddenEntries).toBe(160);
    expect(await watermarks()).toEqual(new Map(rows.map((row) => [row.regionId, row.durableId])));
    const entries = await entriesOf('wal.obsolete.bulk');
    expect(entries.map((entry) => [entry.target, entry.result])).toEqual(
      rows.map((row) => [formatRegionId(row.regionId), 'ok']),
    );
    expect(entries[0]?.parameters).toMatchObject({
      prefix: PREFIX,
      region: formatRegionId(rows[0]!.regionId),
      upTo: { kind: 'latest' },
      id: formatEntryId(rows[0]!.durableId),
      bulk: 8,
    });
    // The collections after it deleted what the preview said, audited as deletions.
    await app.services.wal.closeAll();
    const deleted = (await entriesOf('wal.gc.delete')).reduce(
      (sum, entry) => sum + Number((entry.parameters as { objects: number }).objects),
      0,
    );
    expect(deleted).toBe(preview.deletes?.objects);
  });

  it('takes a point per region, and refuses bad input before anything changes', async () => {
    await operatorWithWriter(3, 60);
    const [first, second, third] = await regionsOf();
    if (first === undefined || second === undefined || third === undefined)
      throw new Error('three regions expected');
    const before = await watermarks();
    const refusals: Array<[unknown, string]> = [
      [[{ region: '9:9' }], 'RegionNotFound'],
      [
        [
          { region: formatRegionId(first.regionId) },
          {
            region: formatRegionId(second.regionId),
            upTo: { kind: 'id', id: second.durableId + 1n },
          },
        ],
        'ObsoleteAboveLatest',
      ],
      [[{ region: '1:1' }, { region: String((1n << 32n) | 1n) }], 'InvalidInput'],
      [[], 'InvalidInput'],
      [[{ region: '1:1', upTo: { kind: 'time', atMs: -1 } }], 'InvalidInput'],
    ];
    for (const [regions, code] of refusals) {
      const count = Array.isArray(regions) ? regions.length : 0;
      const failure = await failureOf(
        app.call('wal.obsolete.bulk', {
          prefix: PREFIX,
          regions,
          confirm: `obsolete ${count} region${count === 1 ? '' : 's'}`,
        }),
      );
      expect(failure.code).toBe(code);
    }
    expect(await watermarks()).toEqual(before);

    const done = (await app.call('wal.obsolete.bulk', {
      prefix: PREFIX,
      regions: [
        {
          region: formatRegionId(first.regionId),
          upTo: { kind: 'id', id: formatEntryId(first.firstId) },
        },
        { region: formatRegionId(second.regionId) },
      ],
      upTo: { kind: 'latest' },
      confirm: 'obsolete 2 regions',
    })) as BulkObsoleteView;
    expect(done.regions.map((region) => [region.region, region.id, region.hiddenEntries])).toEqual([
      [first.regionId, first.firstId, 1],
      [second.regionId, second.durableId, second.entries],
    ]);
    expect(await watermarks()).toEqual(
      new Map([
        [first.regionId, first.firstId],
        [second.regionId, second.durableId],
        [third.regionId, 0n],
      ]),
    );
  });

  it('needs operator mode and a writer opened here', async () => {
    app = await walApp();
    await seed(app.io, 20, 2);
    const call = () =>
      app.call('wal.obsolete.bulk', {
        prefix: PREFIX,
        regions: 'all',
        confirm: 'obsolete all regions',
      });
    expect(await failureOf(call())).toMatchObject({ code: 'ReadOnly' });
    await app.services.connections.setOperator(CONNECTION, true);
    expect(await failureOf(call())).toMatchObject({ code: 'WriterNotOpen' });
    // A refusal after the router's checks is audited, as the one call it was.
    expect((await entriesOf('wal.obsolete.bulk')).map((entry) => entry.target)).toEqual([
      'all regions',
    ]);
  });
});

describe('a time as the point', () => {
  it('maps to the newest id written at or before it, never past a later object', async () => {
    app = await walApp();
    await seed(app.io, 60, 2);
    const log = await openReadOnly(app.io, { root: 'wal', nodeId: 0n, generation: 0 });
    const chain = [...log.catalog.objects()];
    // Each chain object written one second after the one before it.
    const start = Date.UTC(2026, 0, 1) / 1000;
    const dir = embeddedStoreDir(app.dataDir);
    for (const [at, object] of chain.entries())
      await utimes(join(dir, object.key), start + at, start + at);
    const region = (1n << 32n) | 1n;
    const preview = async (atMs: number) =>
      (
        (await app.call('wal.obsolete.bulk.preview', {
          prefix: PREFIX,
          regions: [{ region: '1:1' }],
          upTo: { kind: 'time', atMs },
        })) as BulkObsoleteView
      ).regions[0];

    const k = 10;
    const mapped = await preview((start + k) * 1000 + 500);
    expect(mapped?.mappedTo).toEqual({ seq: chain[k]!.seq, modifiedAtMs: (start + k) * 1000 });
    expect(mapped?.id).toBe(regionIdThrough(log.catalog, region, chain[k]!.seq));
    expect(mapped?.id).toBeGreaterThan(0n);

    // An object below k that landed after the time ends the run there.
    await utimes(join(dir, chain[k - 3]!.key), start + k + 5, start + k + 5);
    const early = await preview((start + k) * 1000 + 500);
    expect(early?.mappedTo?.seq).toBe(chain[k - 4]!.seq);

    // Before the first object: nothing was written by then, nothing is hidden.
    expect(await preview((start - 10) * 1000)).toMatchObject({
      mappedTo: null,
      noChange: true,
      hiddenEntries: 0,
    });
  });
});
