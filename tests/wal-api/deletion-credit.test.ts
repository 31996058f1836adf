/**
 * Every deletion credited to its cause (issue #48 item 4): a bulk obsolete of 8 regions leaves
 * 8 region entries and then its deletion pass, credited to the bulk call - its id, session,
 * connection and parameters - and written after it; nothing is credited to a background pass
 * or to a call that did not ask. An obsolete and a GC from a browser session are credited to
 * that session. A collection the app starts by itself (watermark requests another process
 * wrote, applied by the app's writer) says so and why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contract';
import type { RegionsView } from '../../src/shared/contract/wal';
import { formatRegionId } from '../../src/shared/id-notation';
import type { Caller } from '../../src/main/services/caller';
import { registerStoreOf } from '../../src/main/engine/wal/register';
import { submitWatermarkRequest } from '../../src/main/engine/wal/watermark-requests/submit';
import { until } from '../wal/support/writer-harness';
import { CONNECTION, PREFIX, seed, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

const BROWSER: Caller = { session: { id: 'browser-7', name: 'browser 7f7f7f' }, channel: null };

/** The whole log, oldest first (the order things happened in). */
const logInOrder = async (): Promise<AuditEntry[]> =>
  (await app.services.audit.recent(1000)).reverse();

const paramsOf = (entry: AuditEntry) => entry.parameters as Record<string, unknown>;

/** A writer opened in the app by `caller` in operator mode; the prefix's region rows. */
async function operatorWriter(
  regions: number,
  count: number,
  caller: Caller,
): Promise<RegionsView['regions']> {
  app = await walApp();
  await seed(app.io, count, regions);
  await app.services.connections.setOperator(CONNECTION, true, caller.session);
  await app.router.call(
    'wal.writer.open',
    { connectionId: CONNECTION, prefix: PREFIX, takeOver: true, confirm: PREFIX },
    caller,
  );
  const view = await app.router.call(
    'wal.regions',
    { connectionId: CONNECTION, prefix: PREFIX },
    caller,
  );
  return (view as RegionsView).regions;
}

describe('deletions credited to their cause', () => {
  it('a bulk obsolete of 8 regions: 8 region entries, then its passes, credited to the bulk call', async () => {
    const rows = await operatorWriter(8, 160, BROWSER);
    expect(rows).toHaveLength(8);
    const before = (await logInOrder()).length;
    const targets = rows.map((row) => ({ region: formatRegionId(row.regionId) }));
    await app.router.call(
      'wal.obsolete.bulk',
      { connectionId: CONNECTION, prefix: PREFIX, regions: targets, confirm: 'obsolete 8 regions' },
      BROWSER,
    );
    const log = (await logInOrder()).slice(before);
    const regionEntries = log.filter((entry) => entry.action === 'wal.obsolete.bulk');
    const deletions = log.filter((entry) => entry.action === 'wal.gc.delete');
    expect(regionEntries.map((entry) => entry.target)).toEqual(targets.map((t) => t.region));
    expect(deletions.length).toBeGreaterThanOrEqual(1);
    const callId = regionEntries[0]?.callId;
    expect(callId).toEqual(expect.any(String));
    for (const entry of regionEntries)
      expect(entry).toMatchObject({ callId, session: 'browser 7f7f7f' });
    for (const entry of deletions) {
      expect(entry).toMatchObject({ callId, session: 'browser 7f7f7f', connectionId: CONNECTION });
      expect(paramsOf(entry).requestedBy).toEqual([
        {
          action: 'wal.obsolete.bulk',
          callId,
          parameters: {
            connectionId: CONNECTION,
            prefix: PREFIX,
            regions: rows.map((row) => ({ region: row.regionId })),
            upTo: { kind: 'latest' },
          },
        },
      ]);
    }
    // Ordered after the call: every region entry comes before any deletion it caused.
    const lastRegion = log.lastIndexOf(regionEntries.at(-1)!);
    expect(log.indexOf(deletions[0]!)).toBeGreaterThan(lastRegion);
    // Every object below the boundary is in some pass; none is credited to anything else.
    expect(
      log.filter((entry) => entry.action === 'wal.gc.delete' && entry.callId !== callId),
    ).toEqual([]);
    const triggers = deletions.flatMap(
      (entry) => paramsOf(entry).requestedBy as { action: string }[],
    );
    expect(triggers.map((trigger) => trigger.action)).not.toContain('wal.gc.background');
  });

  it('an obsolete and a GC from a browser session are credited to that session, after their entries', async () => {
    const rows = await operatorWriter(2, 80, BROWSER);
    const first = rows[0]!;
    const before = (await logInOrder()).length;
    await app.router.call(
      'wal.obsoleteAll',
      {
        connectionId: CONNECTION,
        prefix: PREFIX,
        region: first.regionId,
        confirm: formatRegionId(first.regionId),
      },
      BROWSER,
    );
    await app.router.call(
      'wal.gc',
      { connectionId: CONNECTION, prefix: PREFIX, confirm: PREFIX },
      BROWSER,
    );
    const log = (await logInOrder()).slice(before);
    const calls = log.filter((entry) => entry.action !== 'wal.gc.delete');
    expect(calls.map((entry) => entry.action)).toEqual(['wal.obsoleteAll', 'wal.gc']);
    for (const entry of log.filter((e) => e.action === 'wal.gc.delete')) {
      const cause = calls.find((call) => call.callId === entry.callId);
      expect(cause, 'a deletion credited to a call of this test').toBeDefined();
      expect(entry.session).toBe('browser 7f7f7f');
      expect(log.indexOf(entry)).toBeGreaterThan(log.indexOf(cause!));
    }
    expect(log.some((e) => e.action === 'wal.gc.delete' && e.callId === calls[0]?.callId)).toBe(
      true,
    );
  });

  it('a collection the app starts by itself says so and why', async () => {
    const rows = await operatorWriter(2, 80, BROWSER);
    const first = rows[0]!;
    const before = (await logInOrder()).length;
    // Another process asks the app's writer (the app is that process's "live writer").
    await submitWatermarkRequest(registerStoreOf(app.io, PREFIX), PREFIX, {
      id: 'from-the-cli',
      region: first.regionId,
      watermark: first.durableId,
      requestedAtMs: Date.now(),
      requestedBy: 'sre@host (cairn CLI)',
    });
    await until(
      async () => (await logInOrder()).slice(before).some((e) => e.action === 'wal.gc.delete'),
      'the app to collect after applying the request',
      15_000,
    );
    const deletion = (await logInOrder()).slice(before).find((e) => e.action === 'wal.gc.delete');
    expect(deletion).toMatchObject({ session: 'app', connectionId: CONNECTION });
    expect(deletion?.callId).toBeUndefined();
    expect(paramsOf(deletion!).requestedBy).toEqual([
      {
        action: 'app',
        why: 'watermark requests applied by this writer',
        parameters: {
          requests: ['from-the-cli'],
          requestedBy: ['sre@host (cairn CLI)'],
          regions: [formatRegionId(first.regionId)],
        },
      },
    ]);
  });
});
