/**
 * Bulk obsolete in the console (issue #42): the 8 regions of a prefix selected at once,
 * obsoleted up to their latest ids - one region up to an id of its own - from one preview of
 * what it hides and what the garbage collection after it deletes, under one typed
 * confirmation; Activity then holds one entry per region, and the Manifest's history says
 * which watermarks moved.
 */
import { expect, test } from './fixtures';
import { runCairn } from '../support/cairn-cli';
import { operatorOn, takeOverInRegions } from './operate';

const PREFIX = 'wal/nodes/0/generations/0';

test('8 regions obsoleted in one confirmation, one audit entry each', async ({ page, store }) => {
  test.setTimeout(120_000);
  const seeded = runCairn(
    ['wal', 'append', ...store.cliFlags, '--regions', '8', '--count', '160', '--writers', '1'],
    store.env,
  );
  expect(seeded.code, seeded.stderr).toBe(0);
  await store.open(page);
  await operatorOn(page, store.name);
  await takeOverInRegions(page, PREFIX);
  const nav = page.getByRole('navigation', { name: 'Views' });
  const regions = page.getByRole('table', { name: `Regions of ${PREFIX}` });
  await expect(regions.locator('tbody tr')).toHaveCount(8);

  // Region 1:8 will go only up to its first entry (the dialog hides the table).
  const first =
    (await regions.getByRole('row').last().getByRole('cell').nth(1).textContent()) ?? '';
  await page.getByRole('checkbox', { name: 'Select all regions' }).check();
  const bar = page.getByRole('group', { name: 'Bulk obsolete' });
  await expect(bar.getByRole('status', { name: 'Regions selected' })).toHaveText(
    '8 of 8 regions selected',
  );
  await bar.getByRole('button', { name: 'Obsolete selected…' }).click();
  const dialog = page.getByRole('dialog', { name: `Obsolete 8 regions of ${PREFIX}` });
  const preview = dialog.getByRole('status', { name: 'Bulk obsolete preview' });
  await expect(preview).toHaveText('Hides 160 entries in 8 of 8 regions.');
  await expect(dialog.getByLabel('Deletion preview')).toContainText(/deletes \d+ objects/);

  const lastRegion = dialog.getByRole('row').filter({ hasText: /^1:8/ });
  await lastRegion.getByLabel('Region 1:8: up to').selectOption('id');
  await lastRegion.getByLabel('Region 1:8: entry id').fill(first.trim());
  await expect(lastRegion).toContainText(`up to ${first.trim()}`);
  await expect(preview).toHaveText('Hides 141 entries in 8 of 8 regions.');

  const confirm = dialog.getByRole('button', { name: 'Obsolete regions' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type obsolete 8 regions to confirm').fill('obsolete 8 regions');
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('8 regions obsolete', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Watermark of 1:8')).toContainText(first.trim());

  await nav.getByRole('button', { name: 'Activity' }).click();
  const audit = page.getByRole('table', { name: 'Audit log' });
  // The call's rows by their action (the deletion after them names the bulk call as its cause).
  const bulkRows = audit
    .locator('tbody tr')
    .filter({ has: page.getByRole('cell', { name: 'wal.obsolete.bulk', exact: true }) });
  await expect(bulkRows).toHaveCount(8);
  const deletion = audit.locator('tbody tr').filter({ hasText: 'wal.gc.delete' }).first();
  await expect(deletion.getByRole('cell', { name: 'Deletion' })).toContainText(
    'for wal.obsolete.bulk call',
  );
  // Each row's target is its region, of the prefix it is in.
  for (let region = 1; region <= 8; region++)
    await expect(
      bulkRows.getByRole('cell', { name: `1:${region} of ${PREFIX}`, exact: true }),
    ).toHaveCount(1);

  await nav.getByRole('button', { name: 'Manifest' }).click();
  await expect(page.getByRole('table', { name: 'Register versions' })).toContainText(
    `watermark 1:8 none → ${first.trim()}`,
  );
});
