/**
 * A new user's walk over one connection: "Generate demo data", then every view shows it.
 * `capture` is called after each view settles (screenshots, when the caller wants them).
 */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export async function walkEveryView(
  page: Page,
  connection: string,
  capture: (name: string) => Promise<void> = async () => undefined,
): Promise<void> {
  await page.getByRole('button', { name: `Generate demo data in ${connection}` }).click();
  await expect(page.getByText(`Demo data written to ${connection}`, { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await capture('connections');
  const nav = page.getByRole('navigation', { name: 'Views' });
  const show = (view: string) => nav.getByRole('button', { name: view }).click();

  await show('Overview');
  const prefixes = page.getByRole('table', { name: 'WAL prefixes' });
  // The header, Cairn's two prefixes and GreptimeDB's two (chained and merged layouts).
  await expect(prefixes.getByRole('row')).toHaveCount(5);
  // Loaded, not pending: every prefix row has its state.
  await expect(prefixes.getByRole('status')).toHaveCount(0);
  await capture('overview');

  await show('Regions');
  await expect(page.getByRole('table', { name: /^Regions of / }).locator('tbody tr')).toHaveCount(
    4,
  );
  await capture('regions');

  await show('Manifest');
  const sealed = page.getByRole('table', { name: 'Sealed epochs' });
  await expect(sealed.locator('tbody tr').filter({ hasText: 'taken-over' })).toHaveCount(1);
  await expect(sealed.locator('tbody tr').filter({ hasText: 'stopped' })).toHaveCount(2);
  await capture('manifest');

  await show('Namespaces');
  await expect(page.getByText('inventory').first()).toBeVisible();
  await capture('namespaces');

  await show('Tiered segments');
  await page.getByRole('button', { name: 'orders-0' }).click();
  const segments = page.getByRole('table', { name: /^Segments of / });
  await expect(segments.locator('tbody tr')).toHaveCount(4);
  for (const state of ['COPY_SEGMENT_STARTED', 'COPY_SEGMENT_FINISHED', 'DELETE_SEGMENT_STARTED']) {
    await expect(segments.getByRole('cell', { name: state }).first()).toBeVisible();
  }
  await capture('segments');

  await show('Batches');
  await expect(page.getByRole('heading', { name: 'Batches' })).toBeVisible();
  // A read-only prefix lists every object: its chain and the excluded one of a sealed epoch.
  const objects = page.getByRole('table', { name: /^Objects of / });
  await expect(objects.locator('tbody tr')).toHaveCount(7);
  await expect(page.getByRole('status', { name: 'Listing objects' })).toHaveCount(0);
  await capture('batches');

  await show('Bucket browser');
  await expect(
    page.getByRole('grid', { name: 'Objects' }).getByRole('button', { name: /wal\// }),
  ).toBeVisible();
  await capture('browser');

  // The GreptimeDB prefix of the demo: its chain, instances, orphan and reclaim boundary.
  await show('Batches');
  const picker = page.getByRole('combobox', { name: 'WAL prefix' });
  const selected = await picker.inputValue();
  await picker.selectOption('datanodes/1/epochs/8');
  const chain = page.getByRole('list', { name: 'Chain' });
  await expect(chain.getByLabel('Reclaim boundary')).toContainText('seq 4');
  await expect(chain.getByLabel('orphan seq 6')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Instances' }).locator('tbody tr')).toHaveCount(2);
  await capture('greptimedb');
  // Callers go on with the prefix the walk started on.
  await picker.selectOption(selected);
}
