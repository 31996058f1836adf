/**
 * The console remembers (issue #51): the last view, connection and prefix come back on a start
 * that names no place (a restart, `npm start`'s fresh URL) and after a reload; and a dialog's
 * confirm button stays in view at any window height.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { runCairn } from '../support/cairn-cli';
import { openPrefix } from './open-prefix';
import { operatorOn, takeOverInRegions } from './operate';

const SECOND = 'wal/nodes/0/generations/1';

test('the last view and prefix come back after a reload and a fresh start', async ({
  page,
  served,
  store,
}) => {
  test.skip(store.kind !== 'local', 'the place is per data directory, whatever the store');
  const demo = runCairn(['demo', '--data-dir', served.dataDir]);
  expect(demo.code, demo.stderr).toBe(0);
  await store.open(page);
  await openPrefix(page, SECOND);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Regions' })
    .click();
  const regions = page.getByRole('table', { name: `Regions of ${SECOND}` });
  await expect(regions).toBeVisible();
  // Saved a second after the last change: wait until the data directory holds it.
  const kept = join(served.dataDir, 'ui-place.json');
  await expect
    .poll(() => (existsSync(kept) ? readFileSync(kept, 'utf8') : ''))
    .toContain('#/regions');

  await page.reload();
  await expect(page.getByRole('table', { name: `Regions of ${SECOND}` })).toBeVisible();

  await page.goto(served.url); // no place in the address: as after a restart
  await expect(page.getByRole('table', { name: `Regions of ${SECOND}` })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Regions' }),
  ).toHaveAttribute('aria-current', 'page');
});

for (const viewport of [
  { width: 1600, height: 1000 },
  { width: 1280, height: 600 },
])
  test(`the bulk obsolete dialog's confirm button is in view at ${viewport.width}x${viewport.height}`, async ({
    page,
    store,
  }) => {
    test.setTimeout(90_000);
    const prefix = 'wal/nodes/0/generations/0';
    const seeded = runCairn(
      ['wal', 'append', ...store.cliFlags, '--regions', '8', '--count', '80', '--writers', '1'],
      store.env,
    );
    expect(seeded.code, seeded.stderr).toBe(0);
    await page.setViewportSize(viewport);
    await store.open(page);
    await operatorOn(page, store.name);
    await takeOverInRegions(page, prefix);
    await page.getByRole('checkbox', { name: 'Select all regions' }).check();
    await page
      .getByRole('group', { name: 'Bulk obsolete' })
      .getByRole('button', { name: 'Obsolete selected…' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Obsolete 8 regions of ${prefix}` });
    await expect(dialog.getByRole('status', { name: 'Bulk obsolete preview' })).toContainText(
      'Hides',
    );
    await expect(dialog.getByRole('button', { name: 'Obsolete regions' })).toBeInViewport({
      ratio: 1,
    });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
  });
