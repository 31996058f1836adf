/**
 * Deletions are previewed and audited through the console's API: an obsolete's preview and
 * its result say what the collection after it deletes (objects, bytes, key range); each pass
 * that deletes - after an obsolete, or asked for - writes one audit entry with the prefix, the
 * key range, the count, the bytes and the calls that asked for it; the GC preview names what
 * holds the boundary back and who holds the register.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, AuditEntry } from '../../src/shared/contract';
import type { GcReport, ObsoletePreview, RegionsView } from '../../src/shared/contract/wal';
import { formatWalRegion } from '../../src/shared/contract/wal';
import { CONNECTION, PREFIX, seed, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

type Collected = Extract<ApiEvent, { type: 'wal.gc.collected' }>;

const deletions = async (): Promise<AuditEntry[]> =>
  (await app.services.audit.recent(100)).filter((entry) => entry.action === 'wal.gc.delete');

/** Audit parameters as the log gives them back: the call's values. */
const paramsOf = (entry: AuditEntry) => entry.parameters as Record<string, unknown>;

describe('deletions', () => {
  it('an obsolete previews what its collection deletes, and that collection is audited once', async () => {
    app = await walApp();
    await seed(app.io, 200, 2);
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const rows = ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions;
    const [first, second] = rows;
    if (first === undefined || second === undefined) throw new Error('two regions expected');
    // Region 1 wholly, region 2 up to an id in the middle: the objects below become garbage.
    await app.call('wal.obsoleteAll', {
      prefix: PREFIX,
      region: first.regionId,
      confirm: formatWalRegion(first.regionId),
    });
    await app.services.wal.closeAll();
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const before = (await deletions()).length;
    const middle = (second.firstId + second.latestId) / 2n;
    const id = ((middle >> 20n) << 20n) | 1n;
    const preview = (await app.call('wal.obsolete.preview', {
      prefix: PREFIX,
      region: second.regionId,
      id,
    })) as ObsoletePreview;
    expect(preview.deletes).not.toBeNull();
    const collected = new Promise<Collected>((resolve) => {
      const stop = app.services.events.subscribe((event) => {
        if (event.type === 'wal.gc.collected' && event.report.objects.length > 0) {
          stop();
          resolve(event);
        }
      });
    });
    const applied = (await app.call('wal.obsolete', {
      prefix: PREFIX,
      region: second.regionId,
      id,
      confirm: formatWalRegion(second.regionId),
    })) as ObsoletePreview;
    expect(applied.deletes).toEqual(preview.deletes);
    const { report } = await collected;
    expect({
      objects: report.objects.length,
      bytes: report.bytes,
      firstKey: report.objects[0]?.key,
      lastKey: report.objects.at(-1)?.key,
      boundary: report.boundary,
    }).toEqual(preview.deletes);
    const entries = (await deletions()).slice(0, -before || undefined);
    expect(entries).toHaveLength(1);
    const call = (await app.services.audit.recent(100)).find((e) => e.action === 'wal.obsolete');
    expect(entries[0]).toMatchObject({
      connectionId: CONNECTION,
      target: PREFIX,
      result: 'ok',
      session: call?.session,
      callId: call?.callId,
    });
    expect(paramsOf(entries[0]!)).toMatchObject({
      prefix: PREFIX,
      objects: report.objects.length,
      bytes: report.bytes,
      firstKey: report.objects[0]?.key,
      lastKey: report.objects.at(-1)?.key,
      requestedBy: [
        {
          action: 'wal.obsolete',
          callId: call?.callId,
          parameters: { prefix: PREFIX, region: second.regionId, id },
        },
      ],
    });
  });

  it('an explicit GC is audited before it returns; its preview names the holder and what holds the boundary', async () => {
    app = await walApp();
    await seed(app.io, 200, 2);
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const writer = (await app.call('wal.writer.state', { prefix: PREFIX })) as {
      state: { epoch: bigint };
    };
    const rows = ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions;
    const preview = (await app.call('wal.gc.preview', { prefix: PREFIX })) as GcReport;
    expect(preview.holder).toMatchObject({
      epoch: writer.state.epoch,
      openInApp: true,
      live: true,
    });
    // Nothing obsolete yet: the first chain object holds the boundary, by its regions.
    const inspect = (await app.call('wal.inspect', { prefix: PREFIX })) as { tip: { seq: bigint } };
    expect(preview.heldBack).toMatchObject({ tipOnly: false });
    expect(preview.heldBack?.seq).toBeLessThan(inspect.tip.seq);
    const known = rows.map((r) => r.regionId);
    expect(preview.heldBack?.regions.length).toBeGreaterThan(0);
    for (const region of preview.heldBack?.regions ?? []) {
      expect(known).toContain(region.regionId);
      expect(region.watermark).toBe(0n);
    }
    const audited = (await deletions()).length;
    // The first epoch's start object (no entries) is wholly obsolete: a pass deletes it.
    const pass = (await app.call('wal.gc', { prefix: PREFIX, confirm: PREFIX })) as GcReport;
    expect(pass.objects).toHaveLength(1);
    expect(pass.objects[0]!.seq).toBeLessThan(preview.heldBack!.seq);
    const entries = await deletions();
    expect(entries).toHaveLength(audited + 1);
    expect(paramsOf(entries[0]!)).toMatchObject({
      objects: 1,
      firstKey: pass.objects[0]?.key,
      lastKey: pass.objects[0]?.key,
      requestedBy: [{ action: 'wal.gc' }],
    });
  });
});
