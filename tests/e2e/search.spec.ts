/**
 * Search over the demo data in Chromium: from Batches' "Search this prefix", one condition
 * typed finds the GreptimeDB prefix's rows in every region, counted per region, in a table of
 * hits; the NDJSON and CSV exports hold exactly the bytes `cairn wal search` prints with the
 * flags the page shows; the link reruns the same search.
 */
import { readFile } from 'node:fs/promises';
import { runCairn } from '../support/cairn-cli';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';

const PREFIX = 'datanodes/1/epochs/8';

test('a typed filter finds the rows of every region, counted per region, exported as the CLI prints them', async ({
  page,
  store,
}) => {
  test.setTimeout(120_000);
  await store.open(page);
  await page.getByRole('button', { name: `Generate demo data in ${store.name}` }).click();
  await expect(page.getByText(`Demo data written to ${store.name}`, { exact: true })).toBeVisible();
  await openPrefix(page, PREFIX);
  await page.getByRole('button', { name: 'Search this prefix', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Search', exact: true })).toBeVisible();

  const form = page.getByRole('form', { name: 'Search the prefix' });
  await form.getByRole('textbox', { name: /Where/ }).fill('host=web-1');
  await form.getByRole('button', { name: 'Search', exact: true }).click();
  const status = page.getByRole('status', { name: 'Search progress' });
  await expect(status).toContainText('Done');

  const perRegion = page.getByRole('region', { name: 'Hits per region' });
  const counts = await perRegion.getByRole('row').allInnerTexts();
  const byRegion = counts.slice(1).map((line) => line.split(/\s+/));
  expect(byRegion.length).toBeGreaterThan(1);
  const total = byRegion.reduce((sum, [, hits]) => sum + Number(hits), 0);
  await expect(status).toContainText(`${total.toLocaleString('en-US')} hits`);
  const grid = page.getByRole('grid', { name: 'Search hits' });
  await expect(grid.getByRole('columnheader', { name: 'host', exact: true })).toBeVisible();
  await expect(grid.getByRole('row').nth(1)).toContainText('web-1');
  await expect(page.getByLabel('Same search from the CLI')).toHaveText(
    `cairn wal search --prefix ${PREFIX} --where host=web-1 --limit 10000`,
  );

  const flags = [
    ...store.cliFlags,
    '--prefix',
    PREFIX,
    '--where',
    'host=web-1',
    '--limit',
    '10000',
  ];
  for (const [button, extra] of [
    ['Export NDJSON', []],
    ['Export CSV', ['--format', 'csv']],
  ] as const) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: button }).click();
    const exported = await readFile(await (await download).path(), 'utf8');
    const printed = runCairn(['wal', 'search', ...flags, ...extra], store.env);
    expect([0, 3]).toContain(printed.code);
    expect(exported).toBe(printed.stdout);
    expect(exported.trim().split('\n')).toHaveLength(button === 'Export CSV' ? total + 1 : total);
  }

  // The link holds the whole search: a reload runs it again.
  await expect(page).toHaveURL(/#\/search\?.*where=host%3Dweb-1.*run=1/);
  await page.reload();
  await expect(status).toContainText('Done');
  await expect(status).toContainText(`${total.toLocaleString('en-US')} hits`);
  await expect(form.getByRole('textbox', { name: /Where/ })).toHaveValue('host=web-1');
});
