/**
 * Issue #47 item 4: the damage ledger's file is a claim, never trusted. A forged finding on a
 * sound object (its size and ETag copied right) is read through the format's checks and
 * dropped, never shown; a finding whose key the store refuses is dropped with a log line, and
 * the prefix still reads; a time a Date cannot hold refuses the file at load; the findings of a
 * connection that no longer exists are pruned.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../src/main/api/create-router';
import { createServices } from '../../src/main/services/services';
import { processLog } from '../../src/main/services/process-log';
import { LEDGER_FILE } from '../../src/main/services/wal/scrub/ledger-file';
import { CONNECTION, PREFIX, seed, settledFleet, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(async () => {
  vi.restoreAllMocks();
  await app.close();
});

async function restarted(dataDir: string) {
  const services = await createServices({ name: 'Cairn', version: '0', mode: 'browser', dataDir });
  const router = createRouter(services);
  return {
    services,
    call: (name: string, input: Record<string, unknown>) =>
      router.call(name, { connectionId: CONNECTION, ...input }),
    close: () => services.wal.closeAll(),
  };
}

function finding(
  key: string,
  size: number | null,
  etag: string | null,
  foundAtMs = 1_700_000_000_000,
) {
  return {
    key,
    seq: '1',
    size,
    etag,
    check: 'segment-crc',
    detail: 'forged',
    regions: null,
    ranges: [],
    source: 'scrub',
    foundAtMs,
  };
}

async function writeLedger(prefixes: Array<{ slot: string; findings: unknown[] }>): Promise<void> {
  await writeFile(
    join(app.dataDir, LEDGER_FILE),
    JSON.stringify({ format: 'cairn-damage-ledger', version: 1, prefixes }),
  );
}

async function soundObject(): Promise<{ key: string; size: number; etag: string }> {
  await seed(app.io, 40, 2);
  for await (const page of app.io.list(`${PREFIX}/objects/`)) {
    const object = page.objects[0]!;
    return { key: object.key, size: object.size, etag: object.etag };
  }
  throw new Error('no object');
}

const damagedRows = async (api: {
  call: (n: string, i: Record<string, unknown>) => Promise<unknown>;
}) =>
  ((await api.call('wal.objects', { prefix: PREFIX, status: 'damaged' })) as { rows: unknown[] })
    .rows;

describe('a forged damage ledger', () => {
  it('never shows a forged finding on a sound object, and forgets it', async () => {
    app = await walApp();
    const sound = await soundObject();
    await writeLedger([
      { slot: `${CONNECTION}\n${PREFIX}`, findings: [finding(sound.key, sound.size, sound.etag)] },
    ]);
    const again = await restarted(app.dataDir);
    try {
      expect(await damagedRows(again)).toEqual([]);
      const row = (await settledFleet(again)).rows.find((r) => r.prefix === PREFIX);
      expect(row).toMatchObject({ damaged: 0 });
      await again.services.wal.closeAll();
      const kept = JSON.parse(await readFile(join(app.dataDir, LEDGER_FILE), 'utf8')) as {
        prefixes: unknown[];
      };
      expect(kept.prefixes).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('drops a finding whose key the store refuses, with a log line, and the prefix still reads', async () => {
    app = await walApp();
    const sound = await soundObject();
    const warned = vi.spyOn(processLog, 'warn');
    await writeLedger([
      {
        slot: `${CONNECTION}\n${PREFIX}`,
        findings: [finding(`${PREFIX}/objects/../../../../etc/passwd`, null, null)],
      },
      { slot: `removed-connection\n${PREFIX}`, findings: [finding(sound.key, null, null)] },
    ]);
    const again = await restarted(app.dataDir);
    try {
      expect(await damagedRows(again)).toEqual([]);
      const row = (await settledFleet(again)).rows.find((r) => r.prefix === PREFIX);
      expect(row).toMatchObject({ damaged: 0 });
      expect(row?.health.state).not.toBe('error');
      expect(warned).toHaveBeenCalledWith(
        expect.objectContaining({ key: `${PREFIX}/objects/../../../../etc/passwd` }),
        expect.stringContaining('refuses'),
      );
      // The removed connection's slot was pruned at load.
      expect(warned).toHaveBeenCalledWith(
        { pruned: 1 },
        expect.stringContaining('removed connections'),
      );
    } finally {
      await again.close();
    }
  });

  it('refuses a file whose time a Date cannot hold', async () => {
    app = await walApp();
    const sound = await soundObject();
    await writeLedger([
      {
        slot: `${CONNECTION}\n${PREFIX}`,
        findings: [finding(sound.key, sound.size, sound.etag, 1e300)],
      },
    ]);
    const warnings: string[] = [];
    const { LedgerFile } = await import('../../src/main/services/wal/scrub/ledger-file');
    expect(await new LedgerFile(app.dataDir, (m) => warnings.push(m)).load()).toEqual([]);
    expect(warnings[0]).toMatch(/foundAtMs/);
  });
});
