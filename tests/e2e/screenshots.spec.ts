/**
 * A new user's walk: "Generate demo data", then every view shows it. Each view is captured;
 * with CAIRN_UPDATE_SCREENSHOTS=1 the captures become the README's images in docs/.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const docs = resolve(__dirname, '..', '..', 'docs');
const update = process.env.CAIRN_UPDATE_SCREENSHOTS === '1';

async function capture(page: Page, name: string): Promise<void> {
  const path = update ? resolve(docs, `${name}.png`) : test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
}

test('demo data populates every view', async ({ page, served }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1360, height: 820 });
  await page.goto(served.url);
  await page.getByRole('button', { name: 'Generate demo data in Embedded store' }).click();
  await expect(
    page.getByText('Demo data written to Embedded store', { exact: true }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await capture(page, 'connections');
  const nav = page.getByRole('navigation', { name: 'Views' });
  const show = (view: string) => nav.getByRole('button', { name: view }).click();

  await show('Overview');
  await expect(page.getByRole('table', { name: 'WAL prefixes' }).getByRole('row')).toHaveCount(3);
  await capture(page, 'overview');

  await show('Regions');
  await expect(page.getByRole('table', { name: /^Regions of / }).locator('tbody tr')).toHaveCount(
    4,
  );
  await capture(page, 'regions');

  await show('Manifest');
  const sealed = page.getByRole('table', { name: 'Sealed epochs' });
  await expect(sealed.locator('tbody tr').filter({ hasText: 'taken-over' })).toHaveCount(1);
  await expect(sealed.locator('tbody tr').filter({ hasText: 'stopped' })).toHaveCount(2);
  await capture(page, 'manifest');

  await show('Namespaces');
  await expect(page.getByText('inventory').first()).toBeVisible();
  await capture(page, 'namespaces');

  await show('Tiered segments');
  await page.getByRole('button', { name: 'orders-0' }).click();
  const segments = page.getByRole('table', { name: /^Segments of / });
  await expect(segments.locator('tbody tr')).toHaveCount(4);
  for (const state of ['COPY_SEGMENT_STARTED', 'COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED']) {
    await expect(segments.getByRole('cell', { name: state }).first()).toBeVisible();
  }
  await capture(page, 'segments');

  await page.emulateMedia({ colorScheme: 'light' });
  await show('Batches');
  await expect(page.getByRole('heading', { name: 'Batches' })).toBeVisible();
  await capture(page, 'batches');

  await show('Bucket browser');
  await expect(
    page.getByRole('grid', { name: 'Objects' }).getByRole('button', { name: /wal\// }),
  ).toBeVisible();
  await capture(page, 'browser');
});
