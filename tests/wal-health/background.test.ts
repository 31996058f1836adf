/**
 * Health says what it covers, through the console's API: a prefix nobody verified reads
 * `unverified` (never plain healthy) with every chain object known only by its footer; the
 * background scrub verifies the prefixes the Overview reads, by itself, at the scrub's share of
 * the link, and once it has the prefix reads `healthy` with what was read whole and when - in
 * the fleet row and in the inspection Batches shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetRow, InspectView } from '../../src/shared/contract/wal';
import type { ScrubJobView } from '../../src/shared/contract/wal-scrub';
import { PREFIX, scrubEnded, seed, settledFleet, walApp, type WalApp } from '../wal-api/support';

let app: WalApp;
afterEach(() => app.close());

async function backgroundJob(): Promise<ScrubJobView> {
  for (;;) {
    const jobs = (await app.call('wal.scrub.jobs', {})) as ScrubJobView[];
    const job = jobs.find((candidate) => candidate.background);
    if (job !== undefined) return scrubEnded(app, job.jobId);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('coverage and the background scrub', () => {
  it('reads unverified until the background scrub has read every object, then healthy', async () => {
    app = await walApp({ backgroundScrub: true });
    await seed(app.io, 40);
    // The Overview's first read queues the scrub; on a fast machine the scrub (40 entries) can
    // end before the read settles, so the row is either not verified yet - and says so, never
    // plain healthy - or already verified whole: nothing in between.
    const first = (await settledFleet(app)).rows.find((row) => row.prefix === PREFIX);
    if (first?.health.state === 'unverified') {
      expect(first.health).toMatchObject({ state: 'unverified', reasons: [] });
      expect(first.coverage).toMatchObject({
        state: 'never',
        verifiedAtMs: null,
        footerOnly: first.objects,
      });
      expect(first.health.text).toMatch(
        /^unverified: never verified: \d+ objects? known only by footer/,
      );
    } else {
      expect(first?.health).toEqual({ state: 'healthy', reasons: [], text: 'healthy' });
      expect(first?.coverage).toMatchObject({ state: 'verified', footerOnly: 0 });
    }

    // The Overview's read queued it: the app's own job verifies it.
    const job = await backgroundJob();
    expect(job).toMatchObject({ background: true, state: 'finished', damaged: 0, failures: [] });
    expect(job.checked).toBe(job.listed);

    const row = (await settledFleet(app)).rows.find((r) => r.prefix === PREFIX) as FleetRow;
    expect(row.health).toEqual({ state: 'healthy', reasons: [], text: 'healthy' });
    expect(row.coverage).toMatchObject({ state: 'verified', objects: job.checked, footerOnly: 0 });
    expect(row.coverage?.text).toMatch(
      /^verified (just now|\d+ s ago): \d+ objects read whole and CRC-checked$/,
    );

    const inspect = (await app.call('wal.inspect', { prefix: PREFIX })) as InspectView;
    expect(inspect.health?.state).toBe('healthy');
    expect(inspect.coverage).toMatchObject({ state: 'verified', objects: job.checked });
  });

  it('leaves the scrubs to the user when the app is not asked to verify by itself', async () => {
    app = await walApp();
    await seed(app.io, 10);
    const row = (await settledFleet(app)).rows.find((r) => r.prefix === PREFIX);
    expect(row?.health).toMatchObject({ state: 'unverified', reasons: [] });
    expect(row?.coverage).toMatchObject({
      state: 'never',
      verifiedAtMs: null,
      footerOnly: row?.objects,
    });
    expect(row?.health.text).toMatch(
      /^unverified: never verified: \d+ objects? known only by footer/,
    );
    const inspect = (await app.call('wal.inspect', { prefix: PREFIX })) as InspectView;
    expect(inspect.health?.state).toBe('unverified');
    expect(await app.call('wal.scrub.jobs', {})).toEqual([]);
  });
});
