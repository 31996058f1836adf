/**
 * Issue #38 in the console: operator mode belongs to a browser session (a colleague opening the
 * same link starts read-only), Activity names connections and sessions, shows the call's
 * parameters and pages back through a long log, and a replay the server cancelled because its
 * socket went away says so once the console is back, rather than "running" for good.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { WebSocketRoute } from '@playwright/test';
import { expect, test } from './fixtures';

const cli = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

test('a second browser session is read-only, whatever the first switched on', async ({
  page,
  served,
  browser,
}) => {
  await page.goto(served.url);
  const operatorSwitch = (of: typeof page) =>
    of.getByRole('switch', { name: 'Operator mode for Embedded store' });
  await operatorSwitch(page).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');

  const colleague = await browser.newContext();
  try {
    const other = await colleague.newPage();
    await other.goto(served.url);
    await expect(other.getByRole('status', { name: 'Access mode' })).toHaveText('Read-only');
    await expect(operatorSwitch(other)).not.toBeChecked();
  } finally {
    await colleague.close();
  }
  // The first browser's session is kept across a reload.
  await page.reload();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');

  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Activity' })
    .click();
  const row = page
    .getByRole('table', { name: 'Audit log' })
    .getByRole('row')
    .filter({ hasText: 'connections.setOperator' });
  await expect(row).toContainText('Embedded store');
  await expect(row).toContainText(/browser [0-9a-f]{6}/);
  await expect(row).toContainText('{"id":"embedded","operator":true}');
});

test('Activity names connections, shows parameters and pages back through a long log', async ({
  page,
  served,
}) => {
  const lines = Array.from({ length: 450 }, (_, n) =>
    JSON.stringify({
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
      connectionId: 'embedded',
      action: 'wal.obsolete',
      target: `wal/${n}`,
      parameters: {
        json: { connectionId: 'embedded', region: '4294967297', upTo: String(n) },
        meta: { values: { region: ['bigint'], upTo: ['bigint'] } },
      },
      result: 'ok',
    }),
  );
  await writeFile(join(served.dataDir, 'audit.jsonl'), lines.join('\n') + '\n');
  await page.goto(served.url);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Activity' })
    .click();
  const log = page.getByRole('table', { name: 'Audit log' });
  const newest = log.getByRole('row').filter({ hasText: 'wal/449' });
  await expect(newest).toContainText('Embedded store');
  await expect(newest).toContainText('{"region":"4294967297","upTo":"449"}');
  const paging = page.getByRole('status', { name: 'Audit log paging' });
  await expect(paging).toHaveText('200 entries shown');
  await page.getByRole('button', { name: 'Show older' }).click();
  await expect(paging).toHaveText('400 entries shown');
  await page.getByRole('button', { name: 'Show older' }).click();
  await expect(paging).toHaveText('450 entries shown · the oldest is reached');
  await expect(page.getByRole('button', { name: 'Show older' })).toHaveCount(0);
});

test('a replay the server cancelled when its socket went away says why', async ({
  page,
  store,
}) => {
  execFileSync(
    process.execPath,
    [cli, 'wal', 'append', ...store.cliFlags, '--count', '200', '--writers', '1'],
    { stdio: 'ignore', env: store.env },
  );
  // Every socket of the page goes through a proxy, so the test can cut the first one.
  const toServer: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api/, (socket) => {
    toServer.push(socket.connectToServer());
  });
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Replay' })
    .click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1:2');
  await form.getByRole('textbox', { name: 'Pace (entries/s)' }).fill('5');
  await form.getByRole('button', { name: 'Start replay' }).click();
  const status = page.getByRole('status', { name: 'Replay status' });
  await expect(status).toContainText(/running · [1-9]/);

  await toServer[0]!.close();
  await expect(status).toContainText('cancelled');
  await expect(status).toContainText('the console that started it disconnected');
});
