/**
 * The WAL procedures through the real router and services over a temp local store: read-only
 * refusal, bad input naming the field, the live-writer refusal, obsolete preview + apply with
 * the watermark persisted and visible to `wal.inspect`, the region table, metrics and audit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  InspectView,
  ObsoletePreview,
  RegionsView,
  WalListedPrefix,
  WriterView,
} from '../../src/shared/contract/wal';
import { CONNECTION, PREFIX, failureOf, seed, walApp, type WalApp } from './support';

let app: WalApp;
beforeEach(async () => {
  app = await walApp();
  await seed(app.io, SEEDED);
});
afterEach(() => app.close());

const SEEDED = 40;
const PER_REGION = SEEDED / 4;
const REGION_1 = (1n << 32n) | 1n;
const inspect = async () => (await app.call('wal.inspect', { prefix: PREFIX })) as InspectView;
const regions = async () =>
  ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions;

describe('reading a prefix', () => {
  it('lists the prefix and inspects it read-only', async () => {
    const listed = (await app.call('wal.prefixes', {})) as WalListedPrefix[];
    expect(listed).toEqual([
      { nodeId: 0n, generation: 0, prefix: PREFIX, format: 'cairn-v1', openInApp: false },
    ]);
    const report = await inspect();
    expect(report.failure).toBeNull();
    expect(report.register.exists).toBe(true);
    expect(report.regions.map((region) => region.entries).reduce((a, b) => a + b, 0)).toBe(SEEDED);
    expect(report.registerWrittenAtMs).not.toBeNull();
    const rows = await regions();
    expect(rows.map((row) => row.regionId)).toEqual([1n, 2n, 3n, 4n].map((n) => (1n << 32n) | n));
    expect(
      rows.every(
        (row) =>
          row.entries === PER_REGION &&
          row.firstId > 0n &&
          row.latestId >= row.firstId &&
          row.holes === 0,
      ),
    ).toBe(true);
    const page = (await app.call('wal.objects', { prefix: PREFIX, limit: 2 })) as {
      total: number;
      rows: Array<{ status: string; segments: number | null }>;
    };
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    expect(page.rows.every((row) => row.status === 'chain' && row.segments !== null)).toBe(true);
  });

  it('shows the register history and the sealed directory with its budget', async () => {
    const manifest = (await app.call('wal.manifest', { prefix: PREFIX })) as {
      register: { sealed: unknown[] };
      history: Array<{ version: number }>;
      sealedDirectoryBytes: number;
      sealedDirectoryBudget: number;
    };
    expect(manifest.register.sealed).toHaveLength(1);
    expect(manifest.history.length).toBeGreaterThan(0);
    expect(manifest.history[0]!.version).toBeGreaterThan(manifest.history.at(-1)!.version - 1);
    expect(manifest.sealedDirectoryBudget).toBe(64 * 1024);
    expect(manifest.sealedDirectoryBytes).toBeGreaterThan(0);
  });

  it('refuses bad input before any handler runs, naming the field', async () => {
    expect((await failureOf(app.call('wal.inspect', { prefix: 'a//b' }))).details.field).toBe(
      'prefix',
    );
    expect(
      (await failureOf(app.call('wal.obsolete.preview', { prefix: PREFIX, region: '1:x', id: 5n })))
        .details.field,
    ).toBe('region');
    expect(
      (
        await failureOf(
          app.call('wal.obsolete.preview', { prefix: PREFIX, region: '1:1', id: -1n }),
        )
      ).details.field,
    ).toBe('id');
    expect(
      (
        await failureOf(
          app.call('wal.replay.start', { prefix: PREFIX, region: '1:1', chunkSize: 0 }),
        )
      ).details.field,
    ).toBe('chunkSize');
    expect(
      (await failureOf(app.call('wal.objects', { prefix: PREFIX, limit: 501 }))).details.field,
    ).toBe('limit');
    expect((await failureOf(app.call('wal.inspect', { prefix: PREFIX, extra: 1 }))).code).toBe(
      'InvalidInput',
    );
    expect(
      await failureOf(app.call('wal.inspect', { prefix: 'other/nodes/0/generations/0' })),
    ).toMatchObject({ code: 'NotAWalPrefix' });
  });

  it('verifies one WAL object, and refuses keys outside the WAL root', async () => {
    const page = (await app.call('wal.objects', { prefix: PREFIX, limit: 1 })) as {
      rows: Array<{ key: string }>;
    };
    const verdict = (await app.call('wal.verifyObject', { key: page.rows[0]!.key })) as {
      ok: boolean;
      gone: boolean;
    };
    expect(verdict).toMatchObject({ ok: true, gone: false });
    expect((await failureOf(app.call('wal.verifyObject', { key: 'connections.json' }))).code).toBe(
      'NotAWalObject',
    );
  });
});

describe('operating a prefix', () => {
  it('refuses every change on a read-only connection', async () => {
    for (const [name, input] of [
      ['wal.writer.open', { prefix: PREFIX, takeOver: true }],
      ['wal.obsolete', { prefix: PREFIX, region: '1:1', id: 1n }],
      ['wal.obsoleteAll', { prefix: PREFIX, region: '1:1' }],
      ['wal.namespaces.create', { prefix: PREFIX, region: '2:1' }],
      ['wal.load.start', { prefix: PREFIX }],
    ] as const) {
      expect(await failureOf(app.call(name, input))).toMatchObject({
        code: 'ReadOnly',
        details: { action: name },
      });
    }
    expect(((await app.call('wal.prefixes', {})) as WalListedPrefix[])[0]!.openInApp).toBe(false);
  });

  it('refuses to take a fresh register without takeOver, naming the prefix', async () => {
    await app.services.connections.setOperator(CONNECTION, true);
    expect(await failureOf(app.call('wal.writer.open', { prefix: PREFIX }))).toMatchObject({
      code: 'LiveWriter',
      details: { prefix: PREFIX },
    });
    expect(await app.call('wal.writer.state', { prefix: PREFIX })).toBeNull();
    expect(
      await failureOf(
        app.call('wal.obsolete', { prefix: PREFIX, region: '1:1', id: 1n, confirm: '1:1' }),
      ),
    ).toMatchObject({ code: 'WriterNotOpen' });
  });

  it('previews and applies an obsolete; the watermark is persisted and visible to inspect', async () => {
    await app.services.connections.setOperator(CONNECTION, true);
    const opened = (await app.call('wal.writer.open', {
      prefix: PREFIX,
      takeOver: true,
      confirm: PREFIX,
    })) as WriterView;
    expect(opened.state.poisoned).toBeNull();
    const region = (await regions()).find((row) => row.regionId === REGION_1)!;
    const middle = (await app.call('wal.obsolete.preview', {
      prefix: PREFIX,
      region: '1:1',
      id: region.latestId,
    })) as ObsoletePreview;
    expect(middle).toMatchObject({
      watermark: 0n,
      latestId: region.latestId,
      hiddenEntries: PER_REGION,
      noChange: false,
    });
    expect(middle.hiddenObjects).toBe(region.objects);

    const above = await failureOf(
      app.call('wal.obsolete', {
        prefix: PREFIX,
        region: String(REGION_1),
        id: region.latestId + 1n,
        confirm: '1:1',
      }),
    );
    expect(above).toMatchObject({
      code: 'ObsoleteAboveLatest',
      details: { latest: region.latestId },
    });

    const target = region.firstId; // hides exactly the first entry
    const preview = (await app.call('wal.obsolete.preview', {
      prefix: PREFIX,
      region: '1:1',
      id: target,
    })) as ObsoletePreview;
    expect(preview.hiddenEntries).toBe(1);
    const applied = (await app.call('wal.obsolete', {
      prefix: PREFIX,
      region: '1:1',
      id: target,
      confirm: '1:1',
    })) as ObsoletePreview;
    expect(applied).toEqual(preview);
    expect((await regions()).find((row) => row.regionId === REGION_1)?.watermark).toBe(target);
    const report = await inspect();
    expect(report.openInApp).toBe(true);
    expect(report.register.watermarks).toContainEqual({ regionId: REGION_1, watermark: target });
    expect(report.regions.find((row) => row.regionId === REGION_1)?.watermark).toBe(target);
    const again = (await app.call('wal.obsolete.preview', {
      prefix: PREFIX,
      region: '1:1',
      id: target,
    })) as ObsoletePreview;
    expect(again).toMatchObject({ noChange: true, hiddenEntries: 0 });

    // The collection after the obsolete audits its deletions on its own (deletion-audit tests).
    const audit = (await app.services.audit.recent(6)).filter((e) => e.action !== 'wal.gc.delete');
    expect(audit.slice(0, 3).map((entry) => [entry.action, entry.result, entry.target])).toEqual([
      ['wal.obsolete', 'ok', PREFIX],
      ['wal.obsolete', 'error', PREFIX],
      ['wal.writer.open', 'ok', PREFIX],
    ]);
  });

  it('obsoletes a region wholly, edits the region table and closes with a sealed epoch', async () => {
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const all = (await app.call('wal.obsoleteAll', {
      prefix: PREFIX,
      region: '1:2',
      confirm: '1:2',
    })) as ObsoletePreview;
    expect(all.hiddenEntries).toBe(PER_REGION);
    await app.call('wal.namespaces.create', { prefix: PREFIX, region: '7:1' });
    expect((await regions()).find((row) => row.regionId === (7n << 32n) + 1n)?.listedInTable).toBe(
      true,
    );
    await app.call('wal.namespaces.delete', { prefix: PREFIX, region: '7:1', confirm: '7:1' });
    expect(
      (await regions()).find((row) => row.regionId === (7n << 32n) + 1n)?.listedInTable ?? false,
    ).toBe(false);
    const metrics = (await app.call('wal.metrics', { prefix: PREFIX })) as { prometheus: string };
    expect(metrics.prometheus).toContain('# TYPE');
    const closed = (await app.call('wal.writer.close', { prefix: PREFIX })) as { sealed: boolean };
    expect(closed.sealed).toBe(true);
    expect((await inspect()).register.sealed).toHaveLength(2);
    expect(app.events.filter((event) => event.type === 'wal.writer.state').at(-1)).toMatchObject({
      writer: null,
    });
  });

  it('runs the in-app load generator with samples and live state', async () => {
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    await app.call('wal.load.start', {
      prefix: PREFIX,
      regions: 2,
      writers: 2,
      count: 100,
      size: 32,
    });
    const last = await new Promise<{ acknowledged: number }>((resolve) => {
      const stop = app.services.events.subscribe((event) => {
        if (event.type === 'wal.load.sample' && !event.running) {
          stop();
          resolve(event.sample);
        }
      });
    });
    expect(last.acknowledged).toBe(100);
    const writer = (await app.call('wal.writer.state', { prefix: PREFIX })) as WriterView;
    expect(writer.load).toMatchObject({ running: false, acknowledged: 100, failed: 0 });
    expect(
      app.events.some((event) => event.type === 'wal.writer.state' && event.writer !== null),
    ).toBe(true);
    const rows = await regions();
    expect(rows.reduce((sum, row) => sum + row.entries, 0)).toBe(SEEDED + 100);
  });
});
