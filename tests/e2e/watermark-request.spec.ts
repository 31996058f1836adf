/**
 * Obsolete by request (issue #48 item 5), as an SRE does it: on a prefix another process's
 * writer holds, Regions offers "Request obsolete…" (operator mode, the region typed); the
 * request shows pending, with how long it waits, while no writer applies it; once a writer
 * runs there (it takes the prefix over), it applies the request and the panel says so.
 */
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';
import { operatorOn } from './operate';

const PREFIX = 'wal/nodes/0/generations/0';
const cli = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

test('a request waits, shown pending, until a writer applies it', async ({ page, store }) => {
  test.setTimeout(120_000);
  execFileSync(process.execPath, [cli, 'wal', 'append', ...store.cliFlags, '--count', '40'], {
    env: store.env,
    stdio: 'ignore',
  });
  await store.open(page);
  await operatorOn(page, store.name);
  await openPrefix(page, PREFIX);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Regions' })
    .click();

  const panel = page.getByRole('region', { name: 'Watermark requests' });
  await expect(panel.getByRole('note', { name: 'Register holder' })).toContainText('epoch 1');
  await page.getByRole('button', { name: 'Request obsolete of region 1:1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request obsolete of region 1:1' });
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('status', { name: 'Obsolete preview' })).toContainText('Hides');
  await dialog.getByLabel('Type 1:1 to confirm').fill('1:1');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();

  // No writer runs: the request waits, and the panel counts how long.
  await expect(panel.getByRole('heading')).toContainText('1 pending');
  const row = panel.getByRole('table', { name: 'Watermark request list' }).getByRole('row').nth(1);
  await expect(row).toContainText('pending');
  await expect(row).toContainText('waiting for the writer');
  await expect(row.getByRole('cell', { name: 'Waited' })).toHaveText(/^\d+ s$/);

  // A writer opens there (another process): it applies what waits, at open.
  const writer = spawn(
    process.execPath,
    [cli, 'wal', 'append', ...store.cliFlags, '--count', '100000000', '--writers', '1'],
    { stdio: 'ignore', env: store.env },
  );
  try {
    await expect(row).toContainText('applied by epoch', { timeout: 30_000 });
    await expect(panel.getByRole('heading')).not.toContainText('pending');
  } finally {
    writer.kill('SIGTERM');
  }
});
