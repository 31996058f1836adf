/**
 * Links that reopen everything (#42): a copied Replay link opened in a new page runs the same
 * replay and shows the same rows, filter and selected entry; a bucket browser link brings its
 * folder, object and listing start back; a link names its store so that another data
 * directory holding the same store under another name opens it, and one naming a store no
 * saved connection opens asks (add it, or pick one) and reads nothing meanwhile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { runCairn } from '../support/cairn-cli';
import {
  expect,
  startServe,
  stopServe,
  test,
  type ServedApp,
  type StoreUnderTest,
} from './fixtures';
import { openPrefix } from './open-prefix';

const PREFIX = 'wal/nodes/0/generations/0';

test.describe.configure({ timeout: 120_000 });

/** Demo data in the store under test, and its first Cairn prefix picked in the Overview. */
async function demoAtPrefix(page: Page, store: StoreUnderTest): Promise<void> {
  await store.open(page);
  await page.getByRole('button', { name: `Generate demo data in ${store.name}` }).click();
  await expect(page.getByText(`Demo data written to ${store.name}`, { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await openPrefix(page, PREFIX);
}

/** What "Copy link" put on the clipboard. */
async function copyLink(page: Page, context: BrowserContext): Promise<string> {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied', { exact: true })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).not.toContain('token');
  return link;
}

/** The entry ids the replay grid shows, in order. */
async function idsShown(page: Page): Promise<string[]> {
  const grid = page.getByRole('grid', { name: 'Replayed entries list' });
  return grid.getByRole('row').locator('[role="gridcell"]:first-child').allTextContents();
}

test('a copied Replay link reopens the same replay, rows, filter and selected entry', async ({
  page,
  context,
  store,
}) => {
  await demoAtPrefix(page, store);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Replay' })
    .click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  const region = form.getByRole('combobox', { name: 'Region' });
  // The picker lists the prefix's four regions with their entry counts.
  await expect(region.getByRole('option')).toHaveText([
    /^1:1 · \d+ entries$/,
    /^1:2 · \d+ entries$/,
    /^1:3 · \d+ entries$/,
    /^1:4 · \d+ entries$/,
  ]);
  await region.selectOption('1:3');
  // The start is checked against the region: past its latest id is refused, with the bound.
  const latest = form.getByRole('button', { name: /^From the latest entry / });
  const latestId = (await latest.textContent()) ?? '';
  const [seq] = latestId.split(':');
  await form.getByRole('textbox', { name: 'From id' }).fill(`${Number(seq) + 1}:1`);
  await expect(page.getByRole('alert')).toHaveText(
    `From id ${Number(seq) + 1}:1 is after region 1:3's latest entry ${latestId}`,
  );
  await form.getByRole('button', { name: /^From the first entry / }).click();
  await form.getByRole('button', { name: 'Start replay' }).click();
  const status = page.getByRole('status', { name: 'Replay status' });
  await expect(status).toContainText('finished');
  await page.getByRole('textbox', { name: 'Text filter' }).fill('"demo entry 3');
  await page.getByRole('checkbox', { name: 'Newest first' }).uncheck();
  const shown = page.getByRole('status', { name: 'Rows shown' });
  const shownText = (await shown.textContent()) ?? '';
  expect(shownText).toMatch(/^\d+ shown of \d+ kept/);
  const ids = await idsShown(page);
  expect(ids.length).toBeGreaterThan(2);
  const grid = page.getByRole('grid', { name: 'Replayed entries list' });
  await grid.getByRole('row').nth(2).click();
  await expect(page).toHaveURL(/run=1/);

  const link = await copyLink(page, context);
  const second = await context.newPage();
  await second.goto(link);
  await expect(second.getByRole('status', { name: 'Replay status' })).toContainText('finished');
  const reopened = second.getByRole('form', { name: 'Replay a region' });
  await expect(reopened.getByRole('combobox', { name: 'Region' })).toHaveValue('1:3');
  await expect(reopened.getByRole('textbox', { name: 'From id' })).not.toHaveValue('');
  await expect(second.getByRole('textbox', { name: 'Text filter' })).toHaveValue('"demo entry 3');
  await expect(second.getByRole('checkbox', { name: 'Newest first' })).not.toBeChecked();
  await expect(second.getByRole('status', { name: 'Rows shown' })).toHaveText(shownText);
  expect(await idsShown(second)).toEqual(ids);
  const selected = second
    .getByRole('grid', { name: 'Replayed entries list' })
    .getByRole('row', { selected: true });
  await expect(selected).toHaveCount(1);
  await expect(selected.getByRole('gridcell').first()).toHaveText(ids[2] ?? '');
  await expect(second.getByRole('complementary', { name: 'Entry payload' })).toBeVisible();

  // Another prefix never keeps a region it does not have; coming back finds 1:3 again.
  const picker = second.getByRole('combobox', { name: 'WAL prefix' });
  await picker.selectOption('datanodes/1/epochs/8');
  await expect(reopened.getByRole('combobox', { name: 'Region' })).toHaveValue(/^1024:/);
  await picker.selectOption(PREFIX);
  await expect(reopened.getByRole('combobox', { name: 'Region' })).toHaveValue('1:3');
  // Switching views drops Replay's parameters from the link.
  await second
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Batches' })
    .click();
  await expect(second).toHaveURL(/#\/batches\?/);
  expect(second.url()).not.toMatch(/region=|run=|text=/);
});

test("a bucket browser link brings back the prefix's folder, the object and where the list starts", async ({
  page,
  context,
  store,
}) => {
  await demoAtPrefix(page, store);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Bucket browser' }).click();
  // The browser follows the prefix picked in the Overview to its objects folder.
  const crumbs = page.getByRole('navigation', { name: 'Prefix path' });
  await expect(crumbs).toContainText('objects');
  const grid = page.getByRole('grid', { name: 'Objects' });
  await expect(grid.getByRole('button', { name: '00000000000000000064.wal' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Go to sequence or key' }).fill('129:2');
  await page.getByRole('button', { name: 'Jump' }).click();
  const key = `${PREFIX}/objects/00000000000000000129.wal`;
  const inspector = page.getByRole('complementary', { name: 'Object inspector' });
  await expect(inspector.getByRole('heading', { name: key })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Listing start' })).toContainText(
    '00000000000000000129.wal',
  );
  // The listing opens at the object: the objects before it are not listed.
  await expect(grid.getByRole('button', { name: '00000000000000000064.wal' })).toHaveCount(0);
  await expect(page).toHaveURL(/#\/browser\?(.*&)?folder=.*&object=.*&at=/);
  expect(page.url()).not.toMatch(/prefix=|region=/);

  const link = await copyLink(page, context);
  const second = await context.newPage();
  await second.goto(link);
  await expect(
    second
      .getByRole('complementary', { name: 'Object inspector' })
      .getByRole('heading', { name: key }),
  ).toBeVisible();
  await expect(second.getByRole('navigation', { name: 'Prefix path' })).toContainText('objects');
  const reopened = second.getByRole('grid', { name: 'Objects' });
  await expect(reopened.getByRole('button', { name: '00000000000000000129.wal' })).toBeVisible();
  await second.getByRole('button', { name: 'List from the start' }).click();
  await expect(reopened.getByRole('button', { name: '00000000000000000064.wal' })).toBeVisible();
});

/** Saves the store under test in another data directory, under another name. */
function saveSameStore(store: StoreUnderTest, dataDir: string, name: string, path: string): void {
  const flags = store.kind === 's3' ? ['add-s3', ...store.cliFlags] : ['add-local', '--path', path];
  const run = runCairn(['connections', ...flags, '--data-dir', dataDir, '--name', name], store.env);
  expect(run.code, run.stderr).toBe(0);
}

test('a link names its store: another data directory holding it under another name opens it, one holding none asks', async ({
  page,
  context,
  served,
  store,
}) => {
  // The local lane links a saved directory (the embedded store is each install's own).
  const storePath = join(served.dataDir, 'cairn-data');
  if (store.kind === 'local') saveSameStore(store, served.dataDir, 'Shared dir', storePath);
  const name = store.kind === 'local' ? 'Shared dir' : store.name;
  const append = runCairn(
    ['wal', 'append', ...store.cliFlags, '--count', '20', '--writers', '1', '--regions', '2'],
    store.env,
  );
  expect(append.code, append.stderr).toBe(0);
  await page.goto(served.url);
  await page.getByRole('combobox', { name: 'Connection' }).selectOption({ label: name });
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Regions' })
    .click();
  await expect(page.getByRole('table', { name: `Regions of ${PREFIX}` })).toBeVisible();
  await expect(page).toHaveURL(store.kind === 's3' ? /bucket=/ : /dir=/);
  const link = await copyLink(page, context);
  const hash = link.slice(link.indexOf('#'));

  const otherDir = await mkdtemp(join(tmpdir(), 'cairn-e2e-other-'));
  saveSameStore(store, otherDir, 'Team copy', storePath);
  const { app: other, child } = await startServe(otherDir);
  try {
    // The colleague's Cairn runs elsewhere (another port here): Open link takes the whole link.
    const colleague = await context.newPage();
    await colleague.goto(other.url);
    await colleague.getByRole('button', { name: 'Open link' }).click();
    const dialog = colleague.getByRole('dialog', { name: 'Open a link' });
    await dialog.getByRole('textbox', { name: 'Link' }).fill(link);
    await dialog.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(colleague.getByRole('table', { name: `Regions of ${PREFIX}` })).toBeVisible();
    const connection = colleague.getByRole('combobox', { name: 'Connection' });
    await expect(connection.locator('option:checked')).toHaveText('Team copy');

    await expectPromptThenAdd(colleague, other, hash);
  } finally {
    await stopServe(child);
    await rm(otherDir, { recursive: true, force: true });
  }
});

/**
 * A link to a store none of the saved connections opens: the console says which, reads
 * nothing, and opens the link once the store is added from the prompt.
 */
async function expectPromptThenAdd(page: Page, app: ServedApp, hash: string): Promise<void> {
  const elsewhere = await mkdtemp(join(tmpdir(), 'cairn-e2e-elsewhere-'));
  try {
    const params = new URLSearchParams(hash.slice(hash.indexOf('?') + 1));
    for (const name of ['bucket', 'root', 'endpoint', 'dir', 'connection']) params.delete(name);
    params.set('dir', elsewhere);
    await page.goto(`${app.url}#/regions?${params.toString()}`);
    await expect(page.getByRole('alert')).toHaveText(
      `This link names the local directory ${elsewhere}. None of your saved connections opens it, so nothing has been read.`,
    );
    await expect(page.getByRole('heading', { name: 'Regions', exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Add this connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add connection' });
    await expect(dialog.getByRole('textbox', { name: 'Directory' })).toHaveValue(elsewhere);
    await dialog.getByRole('button', { name: 'Save connection' }).click();
    // Saved: the link opens on it (an empty directory: no prefix yet).
    await expect(page.getByRole('heading', { name: 'Regions', exact: true })).toBeVisible();
    await expect(
      page.getByRole('combobox', { name: 'Connection' }).locator('option:checked'),
    ).toHaveText(elsewhere.split('/').pop() ?? '');
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
}
