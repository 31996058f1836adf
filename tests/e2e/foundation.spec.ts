import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { expect, test } from './fixtures';

test('the page loads and shows app info from the main process', async ({ page, served }) => {
  await page.goto(served.url);
  const status = page.getByRole('contentinfo', { name: 'App information' });
  await expect(status).toContainText('Cairn 0.1.0');
  await expect(status).toContainText('Browser mode (websocket)');
  await expect(status).toContainText(served.dataDir);
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Read-only');
});

test('adds a local connection, lists it, tests it and removes it', async ({ page, served }) => {
  await page.goto(served.url);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add connection' });
  await dialog.getByLabel('Name').fill('Scratch store');
  await dialog.getByRole('textbox', { name: 'Directory' }).fill(join(served.dataDir, 'scratch'));
  await dialog.getByRole('button', { name: 'Save connection' }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Saved connections' });
  const row = table.getByRole('row').filter({ hasText: 'Scratch store' });
  await expect(row).toContainText(join(served.dataDir, 'scratch'));
  await row.getByRole('button', { name: 'Test Scratch store' }).click();
  await expect(row.getByRole('status')).toContainText('Reachable, conditional writes enforced');
  await row.getByRole('button', { name: 'Remove Scratch store' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'Scratch store' })).toHaveCount(0);
});

test('the add form refuses bad input before sending it', async ({ page, served }) => {
  await page.goto(served.url);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add connection' });
  await dialog.getByLabel('S3').check();
  await dialog.getByLabel('Name').fill('Bad bucket');
  await dialog.getByLabel('Bucket').fill('NOT_A_BUCKET');
  await dialog.getByRole('button', { name: 'Save connection' }).click();
  await expect(dialog.getByRole('alert')).toContainText('bucket');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('table', { name: 'Saved connections' }).getByRole('row')).toHaveCount(
    2,
  );
});

test('the operator switch changes the mode shown in the title bar', async ({ page, served }) => {
  await page.goto(served.url);
  await page.getByRole('switch', { name: 'Operator mode for Embedded store' }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');
  await page.getByRole('switch', { name: 'Operator mode for Embedded store' }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Read-only');
});

test('the bucket browser pages through folders and inspects an object', async ({
  page,
  served,
}) => {
  const store = join(served.dataDir, 'cairn-data');
  await mkdir(join(store, 'demo', 'logs'), { recursive: true });
  await writeFile(join(store, 'demo', 'logs', 'a.json'), JSON.stringify({ hello: 'cairn' }));
  await writeFile(join(store, 'demo', 'readme.txt'), 'plain text payload');
  await page.goto(served.url);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Bucket browser' })
    .click();
  const grid = page.getByRole('grid', { name: 'Objects' });
  await grid.getByRole('button', { name: /demo\// }).click();
  await grid.getByRole('button', { name: /logs\// }).click();
  await grid.getByRole('button', { name: 'a.json' }).click();
  const inspector = page.getByRole('complementary', { name: 'Object inspector' });
  await expect(inspector).toContainText('demo/logs/a.json');
  await expect(inspector.getByLabel('Payload', { exact: true })).toContainText('"hello": "cairn"');
  await inspector.getByRole('tab', { name: 'HEX' }).click();
  await expect(inspector.getByLabel('Payload', { exact: true })).toContainText('7b 22 68 65');
});

test('a folder scrolled past a few pages is no longer re-listed on the interval', async ({
  page,
  served,
}) => {
  const folder = join(served.dataDir, 'cairn-data', 'many');
  await mkdir(folder, { recursive: true });
  await Promise.all(
    Array.from({ length: 2_600 }, (_, at) =>
      writeFile(join(folder, `${String(at).padStart(5, '0')}.txt`), 'x'),
    ),
  );
  await page.goto(served.url);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Bucket browser' })
    .click();
  await page.getByRole('textbox', { name: 'Prefix' }).fill('many/');
  await page.getByRole('button', { name: 'Go' }).click();
  const grid = page.getByRole('grid', { name: 'Objects' });
  await expect(grid.getByRole('button', { name: '00000.txt' })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: /entries|more pages/ });
  await expect(status).not.toContainText('re-read on Refresh');
  // Scroll to the end until every page is loaded (500 keys, then 1,000 a page).
  await expect(async () => {
    await grid.evaluate((list) => (list.scrollTop = list.scrollHeight));
    await expect(status).toHaveText(/^2600 entries/, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(status).toContainText('more than 2,000 keys loaded: re-read on Refresh');
});

test('requests without the token are refused', async ({ request, served }) => {
  const page = await request.get(`${served.origin}/`, { failOnStatusCode: false });
  expect(page.status()).toBe(401);
  const asset = await request.get(`${served.origin}/index.html?token=wrong`, {
    failOnStatusCode: false,
  });
  expect(asset.status()).toBe(401);
  const refused = await new Promise<string>((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${served.port}/api`);
    socket.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
    socket.on('open', () => resolve('open'));
    socket.on('error', () => resolve('error'));
  });
  expect(refused).toBe('401');
});

test('operator actions appear in the activity log', async ({ page, served }) => {
  await page.goto(served.url);
  await page.getByRole('switch', { name: 'Operator mode for Embedded store' }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Activity' })
    .click();
  const log = page.getByRole('table', { name: 'Audit log' });
  await expect(log.getByRole('row').filter({ hasText: 'connections.setOperator' })).toContainText(
    'embedded',
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export NDJSON' }).click();
  expect((await download).suggestedFilename()).toBe('cairn-activity.ndjson');
});

test('generate demo data fills an empty store in one click', async ({ page, served }) => {
  await page.goto(served.url);
  await page.getByRole('button', { name: 'Generate demo data in Embedded store' }).click();
  await expect(
    page.getByText('Demo data written to Embedded store', { exact: true }),
  ).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Bucket browser' })
    .click();
  await expect(
    page.getByRole('grid', { name: 'Objects' }).getByRole('button', { name: /wal\// }),
  ).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Connections' })
    .click();
  await page.getByRole('button', { name: 'Generate demo data in Embedded store' }).click();
  await expect(page.getByText('No demo data written', { exact: true })).toBeVisible();
});

test('keyboard shortcuts switch views and are listed in a help dialog', async ({
  page,
  served,
}) => {
  await page.goto(served.url);
  await expect(page.getByRole('contentinfo', { name: 'App information' })).toContainText('Cairn');
  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { name: 'Bucket browser' })).toBeVisible();
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('row').filter({ hasText: 'Tiered segments' })).toContainText(
    'Ctrl+7',
  );
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});
