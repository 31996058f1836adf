/**
 * Replay's Rows mode over the demo data in Chromium: the GreptimeDB prefix's region shows the
 * rows its datanode wrote (columns marked tag / time index, PUT and DELETE badges), a column
 * filter and a time range narrow them, an entry's payload toggles between decoded and raw, and
 * the NDJSON and CSV exports hold exactly the bytes `cairn wal replay --rows` prints for the
 * same filter on the same store; the page's link brings the same rows back.
 */
import { readFile } from 'node:fs/promises';
import { runCairn } from '../support/cairn-cli';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';

const PREFIX = 'datanodes/1/epochs/8';

test('the demo GreptimeDB region replays as rows, filtered and exported as the CLI prints them', async ({
  page,
  store,
}) => {
  test.setTimeout(120_000);
  await store.open(page);
  await page.getByRole('button', { name: `Generate demo data in ${store.name}` }).click();
  await expect(page.getByText(`Demo data written to ${store.name}`, { exact: true })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Views' });
  await openPrefix(page, PREFIX);

  await nav.getByRole('button', { name: 'Replay' }).click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1024:0');
  await form.getByRole('button', { name: 'Start replay' }).click();
  await expect(page.getByRole('status', { name: 'Replay status' })).toContainText('finished');
  await expect(page.getByRole('grid', { name: 'Replayed entries list' })).toContainText(
    'WalEntry · 1 mutation · 4 rows',
  );

  await page.getByRole('tab', { name: 'Rows' }).click();
  const shown = page.getByRole('status', { name: 'Rows shown' });
  await expect(shown).toHaveText('101 rows shown from 29 decoded entries');
  const grid = page.getByRole('grid', { name: 'Replayed rows' });
  await expect(grid.getByRole('columnheader', { name: /host.*tag/ })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /ts.*time index/ })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /load1.*field/ })).toBeVisible();
  await expect(grid.getByText('DELETE').first()).toBeVisible();

  await grid.getByRole('textbox', { name: 'Filter host' }).fill('=web-1');
  await expect(shown).toHaveText('25 rows shown from 29 decoded entries');
  await page.getByRole('textbox', { name: 'Rows from' }).fill('2026-01-01T00:03:00Z');
  await page.getByRole('textbox', { name: 'Rows to' }).fill('2026-01-01T00:04:00.001Z');
  await expect(shown).toHaveText('6 rows shown from 29 decoded entries');
  const command = page.getByLabel('Same rows from the CLI');
  await expect(command).toContainText('--where host=web-1 --since 2026-01-01T00:03:00Z');
  // It names the store, so it runs as pasted: the connection's flags, then the prefix.
  await expect(command).toContainText(
    `cairn wal replay ${store.kind === 'local' ? '--store ' : '--bucket '}`,
  );

  // The DELETE row's entry: decoded shows its mutation, raw its bytes.
  await grid.getByRole('row').filter({ hasText: 'DELETE' }).click();
  const payload = page.getByRole('complementary', { name: 'Entry payload' });
  await expect(payload.getByRole('region', { name: 'Mutation 1' })).toContainText('DELETE');
  await payload.getByRole('tab', { name: 'Raw' }).click();
  await expect(payload.getByLabel('Payload', { exact: true })).toBeVisible();
  await expect(payload.getByRole('region', { name: 'Mutation 1' })).toHaveCount(0);

  const flags = [
    ...store.cliFlags,
    '--prefix',
    PREFIX,
    '--region',
    '1024:0',
    '--rows',
    '--where',
    'host=web-1',
    '--since',
    '2026-01-01T00:03:00Z',
    '--until',
    '2026-01-01T00:04:00.001Z',
  ];
  for (const [button, extra] of [
    ['Export NDJSON', []],
    ['Export CSV', ['--format', 'csv']],
  ] as const) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: button }).click();
    const exported = await readFile(await (await download).path(), 'utf8');
    const printed = runCairn(['wal', 'replay', ...flags, ...extra], store.env);
    expect(printed.code).toBe(0);
    expect(exported).toBe(printed.stdout);
    expect(exported.trim().split('\n')).toHaveLength(button === 'Export CSV' ? 7 : 6);
  }

  // The link holds the Rows mode, its column filter and time range: a reload replays and
  // shows the same rows.
  await expect(page).toHaveURL(/mode=rows&col\.host=%3Dweb-1&since=/);
  await page.reload();
  await expect(page.getByRole('status', { name: 'Replay status' })).toContainText('finished');
  await expect(page.getByRole('tab', { name: 'Rows' })).toHaveAttribute('aria-selected', 'true');
  await expect(shown).toHaveText('6 rows shown from 29 decoded entries');
  await expect(grid.getByRole('textbox', { name: 'Filter host' })).toHaveValue('=web-1');
});
