/**
 * Damage a scrub found is still shown after the app restarts on the same data directory (the
 * damage ledger's file), and only while the store still holds the object found damaged: an
 * object replaced between the runs shows nothing stale.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScrubJobView } from '../../src/shared/contract/wal-scrub';
import { createRouter } from '../../src/main/api/create-router';
import { createServices } from '../../src/main/services/services';
import { writeDamagedPrefix } from '../support/damaged-segment';
import { CONNECTION, PREFIX, scrubEnded, settledFleet, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

/** The same app started again on its data directory. */
async function restarted(dataDir: string) {
  const services = await createServices({
    name: 'Cairn',
    version: '0',
    mode: 'browser',
    dataDir,
    backgroundScrub: false,
  });
  const router = createRouter(services);
  return {
    call: (name: string, input: Record<string, unknown>) =>
      router.call(name, { connectionId: CONNECTION, ...input }),
    close: () => services.wal.closeAll(),
  };
}

async function scrubbedAndClosed(): Promise<{ key: string }> {
  const damaged = await writeDamagedPrefix(app.io);
  const started = (await app.call('wal.scrub.start', { prefix: PREFIX })) as ScrubJobView;
  expect(await scrubEnded(app, started.jobId)).toMatchObject({ state: 'finished', damaged: 1 });
  await app.services.wal.closeAll();
  return damaged;
}

describe('the damage ledger across a restart', () => {
  it('shows what an earlier run found, in the fleet and in the object list', async () => {
    app = await walApp();
    const damaged = await scrubbedAndClosed();
    const again = await restarted(app.dataDir);
    try {
      const row = (await settledFleet(again)).rows.find((r) => r.prefix === PREFIX);
      expect(row).toMatchObject({ damaged: 1, health: { state: 'unhealthy' } });
      const page = (await again.call('wal.objects', { prefix: PREFIX, status: 'damaged' })) as {
        rows: Array<{ key: string; damage?: { check: string; source: string } }>;
      };
      expect(page.rows.map((r) => [r.key, r.damage?.check, r.damage?.source])).toEqual([
        [damaged.key, 'segment-crc', 'scrub'],
      ]);
    } finally {
      await again.close();
    }
  });

  it('shows nothing from the old finding once the object was replaced between the runs', async () => {
    app = await walApp();
    const damaged = await scrubbedAndClosed();
    // The same bytes written again: another object (another ETag), for a new scrub to judge.
    const bytes = new Uint8Array((await app.io.get(damaged.key)).bytes);
    await app.io.delete(damaged.key);
    await app.io.putIfAbsent(damaged.key, bytes);
    const again = await restarted(app.dataDir);
    try {
      const page = (await again.call('wal.objects', { prefix: PREFIX, status: 'damaged' })) as {
        rows: unknown[];
      };
      expect(page.rows).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
