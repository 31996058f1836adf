/**
 * "Take over as writer" on a prefix another process is writing right now: the console warns
 * that a writer may be live, asks for the prefix typed, and taking the epoch fences that
 * process — its appends fail with Fenced — while everything it acknowledged stays readable.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from './fixtures';

const PREFIX = 'wal/nodes/0/generations/0';
const cli = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

test('taking over fences a running writer, and keeps what it acknowledged', async ({
  page,
  served,
  store,
}) => {
  test.setTimeout(120_000);
  const acksFile = join(served.dataDir, 'acks.ndjson');
  const writer = spawn(
    process.execPath,
    [
      cli,
      'wal',
      'append',
      ...store.cliFlags,
      '--count',
      '100000000',
      '--writers',
      '4',
      '--regions',
      '2',
      '--acks-out',
      acksFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: store.env },
  );
  let stderr = '';
  writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => writer.on('exit', (code) => done(code)));
  try {
    // The writer is live once it has acknowledged something.
    await expect
      .poll(async () => (await readFile(acksFile, 'utf8').catch(() => '')).length, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);

    await store.open(page);
    await page.getByRole('switch', { name: `Operator mode for ${store.name}` }).click();
    await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: 'Regions' })
      .click();
    await page.getByRole('button', { name: 'Take over as writer' }).click();
    const takeOver = page.getByRole('dialog', { name: `Take over as writer of ${PREFIX}` });
    await expect(takeOver.getByRole('alert')).toContainText('a writer may be live');
    await takeOver.getByLabel(`Type ${PREFIX} to confirm`).fill(PREFIX);
    await takeOver.getByRole('button', { name: 'Take over' }).click();
    await expect(page.getByRole('status', { name: 'Writer status' })).toContainText(
      'Writer open here',
    );

    // The fenced process stops with the typed error naming the newer epoch.
    expect(await exited).toBe(1);
    expect(stderr).toMatch(/Fenced/);

    // Every entry it acknowledged is still there (replay through the app's writer).
    const acks = (await readFile(acksFile, 'utf8'))
      .split('\n')
      .filter((line) => line.endsWith('}'))
      .map((line) => JSON.parse(line) as { region: string; id: string });
    const regions = page.getByRole('table', { name: `Regions of ${PREFIX}` });
    const entries = await regions
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => Number(row.querySelectorAll('td')[0]?.textContent ?? '0')),
      );
    expect(entries.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(acks.length);
  } finally {
    writer.kill('SIGKILL');
  }
});
