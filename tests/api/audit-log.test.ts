/**
 * The audit log is read from its tail and pages back, and rotates by size without losing an
 * entry (issue #38): a 600 MB `audit.jsonl` made `audit.recent` fail with `Internal` on every
 * call (the whole file read into one string, past V8's limit), so the Activity view was gone
 * for good. The big file here is sparse (its middle a hole of zeros, one over-long line), so it
 * costs no disk and seconds to read back through.
 */
import { appendFile, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contract';
import { AuditLog, AUDIT_LOG_DEFAULTS } from '../../src/main/services/audit-log';
import { EventBus } from '../../src/main/services/event-bus';
import { makeTestApp } from '../support/app-services';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cairn-audit-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const BIG_FILE_BYTES = 600 * 1024 * 1024;

function line(n: number): string {
  const entry: AuditEntry = {
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    connectionId: 'embedded',
    action: 'wal.obsolete',
    target: `wal/${n}`,
    parameters: { json: { region: String(n) }, meta: { values: { region: ['bigint'] } } },
    result: 'ok',
  };
  return JSON.stringify(entry) + '\n';
}

const lines = (from: number, to: number): string =>
  Array.from({ length: to - from }, (_, i) => line(from + i)).join('');

/** Every page from the newest back, with the cursors and unreadable counts met. */
async function allPages(log: AuditLog, limit: number) {
  const entries: AuditEntry[] = [];
  let unreadable = 0;
  let pages = 0;
  let before: string | undefined;
  do {
    const page = await log.page(limit, before);
    entries.push(...page.entries);
    unreadable += page.unreadable;
    pages += 1;
    before = page.older ?? undefined;
  } while (before !== undefined);
  return { entries, unreadable, pages };
}

describe('the audit log', () => {
  it('reads the newest entries of a 600 MB log, pages back through it, and rotates it', async () => {
    const file = join(dataDir, 'audit.jsonl');
    await writeFile(file, lines(0, 30));
    await truncate(file, BIG_FILE_BYTES); // a hole of zeros: one line far longer than any entry
    await appendFile(file, '\n' + lines(30, 60));
    const log = new AuditLog(dataDir, new EventBus(), {
      ...AUDIT_LOG_DEFAULTS,
      maxFileBytes: 64 * 1024,
    });

    const newest = await log.recent(5);
    expect(newest.map((entry) => entry.target)).toEqual(
      [59, 58, 57, 56, 55].map((n) => `wal/${n}`),
    );
    // Stored superjson parameters come back as the call's values.
    expect(newest[0]!.parameters).toEqual({ region: 59n });

    await log.record({
      connectionId: 'embedded',
      action: 'wal.gc',
      target: 'wal/after',
      parameters: { dryRun: false },
      result: 'ok',
    });
    expect((await readdir(dataDir)).sort()).toEqual(['audit.1.jsonl', 'audit.jsonl']);

    const { entries, unreadable, pages } = await allPages(log, 7);
    expect(entries.map((entry) => entry.target)).toEqual([
      'wal/after',
      ...Array.from({ length: 60 }, (_, i) => `wal/${59 - i}`),
    ]);
    expect(unreadable).toBe(1);
    expect(pages).toBeGreaterThan(8);
  });

  it('rotates by size under concurrent appends and keeps every entry, in order', async () => {
    const log = new AuditLog(dataDir, new EventBus(), {
      ...AUDIT_LOG_DEFAULTS,
      maxFileBytes: 2048,
    });
    const count = 120;
    await Promise.all(
      Array.from({ length: count }, (_, n) =>
        log.record({
          connectionId: null,
          action: 'connections.setOperator',
          target: String(n),
          parameters: { n },
          result: 'ok',
        }),
      ),
    );
    const names = await readdir(dataDir);
    expect(names.length).toBeGreaterThan(5);
    const { entries, unreadable } = await allPages(log, 13);
    expect(unreadable).toBe(0);
    expect(entries.map((entry) => entry.target)).toEqual(
      Array.from({ length: count }, (_, i) => String(count - 1 - i)),
    );
    // A cursor taken before a rotation still pages on from the same entry after it.
    const first = await log.page(10);
    for (let n = 0; n < 40; n++)
      await log.record({
        connectionId: null,
        action: 'later',
        target: `later ${n}`,
        parameters: {},
        result: 'ok',
      });
    const next = await log.page(10, first.older ?? undefined);
    expect(next.entries.map((entry) => entry.target)).toEqual(
      Array.from({ length: 10 }, (_, i) => String(count - 11 - i)),
    );
  });

  it('counts a torn or foreign line as unreadable and reads on', async () => {
    await writeFile(join(dataDir, 'audit.jsonl'), line(1) + '{"torn":\n' + 'not json\n' + line(2));
    const log = new AuditLog(dataDir, new EventBus());
    const page = await log.page(10);
    expect(page.entries.map((entry) => entry.target)).toEqual(['wal/2', 'wal/1']);
    expect(page).toMatchObject({ unreadable: 2, older: null });
  });

  it('answers audit.page through the router and refuses a malformed cursor', async () => {
    const app = await makeTestApp();
    try {
      await app.router.call('connections.setOperator', { id: 'embedded', operator: true });
      const page = (await app.router.call('audit.page', { limit: 1 })) as {
        entries: AuditEntry[];
        older: string | null;
      };
      expect(page.entries[0]).toMatchObject({ action: 'connections.setOperator' });
      expect(page.older).toBeNull();
      await expect(app.router.call('audit.page', { before: '../etc' })).rejects.toMatchObject({
        code: 'InvalidInput',
      });
    } finally {
      await app.dispose();
    }
  });
});
