/**
 * Issue #47 item 2: no destructive call acts without its audit entry. The entry is written and
 * flushed before the call acts; when the audit log cannot be written (here: its file is a
 * folder, as good as a full disk or a read-only data directory to an append) the call is
 * refused with `AuditUnavailable` naming the file and the reason, no watermark moves, no
 * object is deleted, and the process log says so. Once the log can be written the same call
 * goes through, audited one entry per region, with no started entry left showing; an action
 * whose outcome was never written stays visible as started.
 */
import { mkdir, rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RegionsView } from '../../src/shared/contract/wal';
import { processLog } from '../../src/main/services/process-log';
import { writeAhead } from '../../src/main/services/audit/write-ahead';
import { CONNECTION, failureOf, PREFIX, seed, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(async () => {
  vi.restoreAllMocks();
  await app.close();
});

const watermarks = async () =>
  ((await app.call('wal.regions', { prefix: PREFIX })) as RegionsView).regions.map(
    (row) => row.watermark,
  );

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of app.io.list(`${PREFIX}/`))
    keys.push(...page.objects.map((object) => object.key));
  return keys;
}

describe('write-ahead audit', () => {
  it('refuses a bulk obsolete of all regions, typed, when the audit log cannot be written, and changes nothing', async () => {
    app = await walApp();
    await seed(app.io, 80, 4);
    await app.services.connections.setOperator(CONNECTION, true);
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    const marks = await watermarks();
    const keys = await storedKeys();
    const logged = vi.spyOn(processLog, 'error');
    await rm(app.services.audit.file, { force: true });
    await mkdir(app.services.audit.file); // An append to it now fails (EISDIR).

    const refused = await failureOf(
      app.call('wal.obsolete.bulk', {
        prefix: PREFIX,
        regions: 'all',
        confirm: 'obsolete all regions',
      }),
    );
    expect(refused).toMatchObject({
      code: 'AuditUnavailable',
      details: { file: app.services.audit.file, reason: expect.stringMatching(/^EISDIR/) },
    });
    expect(await watermarks()).toEqual(marks);
    await app.services.wal.closeAll(); // Any collection would have run by now.
    // Nothing deleted (closing the writer may add its own records).
    expect(await storedKeys()).toEqual(expect.arrayContaining(keys));
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'AuditUnavailable', file: app.services.audit.file }),
      expect.stringContaining('refused before it acted'),
    );

    // The log writable again: the same call acts, audited, and no started entry shows.
    await rm(app.services.audit.file, { recursive: true });
    await app.call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });
    await app.call('wal.obsolete.bulk', {
      prefix: PREFIX,
      regions: 'all',
      confirm: 'obsolete all regions',
    });
    expect((await watermarks()).every((mark) => mark > 0n)).toBe(true);
    const entries = await app.services.audit.recent(100);
    expect(entries.filter((entry) => entry.action === 'wal.obsolete.bulk')).toHaveLength(4);
    expect(entries.filter((entry) => entry.result === 'started')).toEqual([]);
  });

  it('shows an action whose outcome was never written as started, and hides answered ones', async () => {
    app = await walApp();
    const entry = { connectionId: CONNECTION, action: 'wal.gc', target: PREFIX, parameters: {} };
    const answered = await writeAhead(app.services.audit, entry);
    await answered.settle([{ ...entry, result: 'ok' }]);
    await writeAhead(app.services.audit, { ...entry, target: 'crashed' });
    const page = await app.services.audit.page(1);
    expect(page.entries.map((shown) => [shown.target, shown.result])).toEqual([
      ['crashed', 'started'],
    ]);
    const rest = await app.services.audit.page(10, page.older ?? undefined);
    expect(rest.entries.map((shown) => [shown.target, shown.result])).toEqual([[PREFIX, 'ok']]);
    expect(rest.older).toBeNull();
  });
});
