/**
 * Live views: with the console open on a prefix, `cairn wal append` in another process
 * writes more objects and they appear - marked - in Overview and Batches without a reload;
 * the refresh can be paused; every place has a link that opens it again, token-free, and
 * back / forward walk the places visited.
 */
import { objectsFolder } from '../../src/main/engine/wal/keys';
import { runCairn } from '../support/cairn-cli';
import { expect, test, type StoreUnderTest } from './fixtures';

const PREFIX = 'wal/nodes/0/generations/0';

// Each `cairn wal append` is a process of its own (several seconds on a busy machine).
test.describe.configure({ timeout: 120_000 });

/**
 * Appends from a `cairn` process and returns how many objects the prefix holds once it has
 * exited. A view refreshed while that process was still writing showed fewer: a test waits
 * for this count, not for the first change it sees.
 */
async function appendFromAnotherProcess(store: StoreUnderTest): Promise<number> {
  const run = runCairn(
    ['wal', 'append', ...store.cliFlags, '--count', '40', '--writers', '1', '--regions', '2'],
    store.env,
  );
  expect(run.code, run.stderr).toBe(0);
  let objects = 0;
  for await (const page of store.io().list(objectsFolder(PREFIX))) objects += page.objects.length;
  return objects;
}

test('objects written by another process appear in Overview and Batches', async ({
  page,
  store,
}) => {
  const before = await appendFromAnotherProcess(store);
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await expect(page.getByRole('group', { name: 'Data freshness' })).toContainText(/updated/);

  await nav.getByRole('button', { name: 'Overview' }).click();
  const objects = page.getByLabel(`Objects of ${PREFIX}`);
  await expect(objects).toContainText(`${before} chain`);
  const after = await appendFromAnotherProcess(store);
  expect(after).toBeGreaterThan(before);
  await expect(objects).toContainText(`${after} chain`);
  await expect(objects).toContainText(/was \d+/);

  await nav.getByRole('button', { name: 'Batches' }).click();
  const rows = page.getByRole('table', { name: `Objects of ${PREFIX}` }).locator('tbody tr');
  await expect(rows).toHaveCount(after);
  await appendFromAnotherProcess(store);
  await expect(rows.filter({ hasText: 'new' }).first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(after);
});

test('a paused refresh leaves the view as it was read', async ({ page, store }) => {
  const shown = await appendFromAnotherProcess(store);
  await store.open(page);
  await page.getByRole('combobox', { name: 'Refresh interval' }).selectOption('0');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Batches' })
    .click();
  const rows = page.getByRole('table', { name: `Objects of ${PREFIX}` }).locator('tbody tr');
  await expect(rows).toHaveCount(shown);
  await appendFromAnotherProcess(store);
  // Refresh now reads the store once: the new objects appear, marked.
  await expect(rows).toHaveCount(shown);
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(rows.filter({ hasText: 'new' }).first()).toBeVisible();
});

test('every place has a token-free link; back and forward walk them', async ({
  page,
  context,
  store,
}) => {
  await appendFromAnotherProcess(store);
  await store.open(page);
  expect(page.url()).not.toContain('token');
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Regions' }).click();
  await expect(page).toHaveURL(/#\/regions\?/);
  await page.getByRole('button', { name: 'Replay region 1:2' }).click();
  await expect(page).toHaveURL(/#\/replay\?.*region=1%3A2/);
  await expect(page.getByRole('combobox', { name: 'Region' })).toHaveValue('1:2');

  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Regions', exact: true })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Replay', exact: true })).toBeVisible();

  // The link opens the same place in a new window (same browser, so its cookie holds the token).
  const link = page.url();
  expect(link).not.toContain('token');
  const second = await context.newPage();
  await second.goto(link);
  await expect(second.getByRole('heading', { name: 'Replay', exact: true })).toBeVisible();
  await expect(second.getByRole('combobox', { name: 'WAL prefix' })).toHaveValue(PREFIX);
  await expect(second.getByRole('combobox', { name: 'Region' })).toHaveValue('1:2');
});

test('a link to a bucket object opens its folder and inspector again after a reload', async ({
  page,
  store,
}) => {
  await appendFromAnotherProcess(store);
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Bucket browser' })
    .click();
  const grid = page.getByRole('grid', { name: 'Objects' });
  for (const folder of ['wal/', 'nodes/', '0/', 'generations/', '0/', 'objects/'])
    await grid.getByRole('button', { name: `📁 ${folder}`, exact: true }).click();
  const first = grid.getByRole('button').filter({ hasNotText: '📁' }).first();
  const name = (await first.textContent()) ?? '';
  await first.click();
  const key = `${PREFIX}/objects/${name}`;
  await expect(page).toHaveURL(new RegExp(`object=${encodeURIComponent(key)}`));

  await page.reload();
  await expect(page.getByRole('complementary', { name: 'Object inspector' })).toContainText(key);
  await expect(page.getByRole('navigation', { name: 'Prefix path' })).toContainText('generations');
});

test('a prefix deleted while shown is said to be gone, never shown stale', async ({
  page,
  store,
}) => {
  await appendFromAnotherProcess(store);
  const other = 'wal/nodes/7/generations/0';
  const run = runCairn(
    ['wal', 'append', ...store.cliFlags, '--node', '7', '--count', '5', '--writers', '1'],
    store.env,
  );
  expect(run.code, run.stderr).toBe(0);
  await store.open(page);
  await page.getByRole('combobox', { name: 'Refresh interval' }).selectOption('2000');
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Overview' }).click();
  await page
    .getByRole('table', { name: 'WAL prefixes' })
    .getByRole('button', { name: other })
    .click();
  await nav.getByRole('button', { name: 'Batches' }).click();
  await expect(page.getByRole('table', { name: `Objects of ${other}` })).toBeVisible();
  const io = store.io();
  for await (const page of io.list(`${other}/`))
    for (const object of page.objects) await io.delete(object.key);
  await expect(page.getByText(`${other} is gone`, { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('table', { name: `Objects of ${PREFIX}` })).toBeVisible();
});
