/**
 * Every panel and dialog that acts on or shows one WAL prefix names it (issue #51): a walk over
 * the demo data through Overview (its garbage collection of the selected prefix), Batches,
 * Manifest, Regions and their dialogs (take over, obsolete, obsolete all, bulk obsolete, garbage
 * collection), Replay, Search and Activity, then Batches and Manifest of a GreptimeDB prefix.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';
import { operatorOn, takeOverInRegions } from './operate';

const CAIRN = 'wal/nodes/0/generations/0';
const GREPTIME = 'wal/datanodes/0/epochs/0';

/** Cancel closes a dialog without acting: only its title was wanted. */
async function dismiss(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
}

test('every panel and dialog names the prefix it acts on', async ({ page, store }) => {
  test.setTimeout(150_000);
  await store.open(page);
  await page.getByRole('button', { name: `Generate demo data in ${store.name}` }).click();
  await expect(page.getByText(`Demo data written to ${store.name}`, { exact: true })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Views' });
  const view = (name: string) => nav.getByRole('button', { name, exact: true }).click();
  const panel = (name: string) => page.getByRole('region', { name, exact: true });
  const of = (what: string, prefix = CAIRN) => `${what} of ${prefix}`;

  await openPrefix(page, CAIRN);
  await view('Batches');
  await expect(panel('Objects')).toContainText(of('Objects'));
  await expect(panel('Chain summary')).toContainText(of('Chain'));
  await expect(panel('Garbage collection')).toContainText(of('Garbage collection'));

  await view('Overview');
  await expect(panel('Garbage collection')).toContainText(of('Garbage collection'));

  await view('Manifest');
  await expect(panel('Register')).toContainText(of('Register'));
  await expect(panel('Sealed directory')).toContainText(of('Sealed epochs'));
  await expect(panel('Version history')).toContainText(of('Version history'));

  await operatorOn(page, store.name);
  await takeOverInRegions(page, CAIRN); // its dialog is found by "Take over as writer of" the prefix
  await expect(page.getByRole('heading', { name: of('Regions') })).toBeVisible();
  await page.getByRole('button', { name: 'Obsolete region 1:2' }).click();
  await dismiss(page.getByRole('dialog', { name: of('Obsolete region 1:2'), exact: true }));
  await page.getByRole('button', { name: 'Obsolete all of region 1:2' }).click();
  await dismiss(page.getByRole('dialog', { name: of('Obsolete all of region 1:2'), exact: true }));
  await page.getByRole('checkbox', { name: 'Select all regions' }).check();
  await page.getByRole('button', { name: 'Obsolete selected…' }).click();
  await dismiss(
    page.getByRole('dialog', { name: new RegExp(`^Obsolete \\d+ regions of ${CAIRN}$`) }),
  );

  // One obsolete done: the activity log names its prefix.
  const regions = page.getByRole('table', { name: `Regions of ${CAIRN}` });
  const region11 = regions
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: '1:1', exact: true }) });
  // Up to its latest id: the demo obsoleted the region's first entries already.
  const latestId = (await region11.getByRole('cell').nth(2).textContent())?.trim() ?? '';
  await region11.getByRole('button', { name: 'Obsolete region 1:1' }).click();
  const obsolete = page.getByRole('dialog', { name: of('Obsolete region 1:1') });
  await obsolete.getByLabel('Up to entry id').fill(latestId);
  await obsolete.getByRole('button', { name: 'Preview' }).click();
  await expect(obsolete.getByRole('status', { name: 'Obsolete preview' })).toContainText('Hides');
  await obsolete.getByLabel('Type 1:1 to confirm').fill('1:1');
  await obsolete.getByRole('button', { name: 'Obsolete', exact: true }).click();
  await expect(obsolete).toBeHidden();

  await view('Batches');
  await expect(panel('Sequence strip')).toContainText(of('Sequence strip'));
  const gc = panel('Garbage collection');
  await gc.getByRole('button', { name: 'Preview garbage collection' }).click();
  await gc.getByRole('button', { name: 'Collect…' }).click();
  await dismiss(page.getByRole('dialog', { name: of('Collect garbage'), exact: true }));

  await view('Replay');
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1:2');
  await form.getByRole('button', { name: 'Start replay' }).click();
  await expect(page.getByRole('heading', { name: `${of('Replay')} · region 1:2` })).toBeVisible();

  await view('Search');
  await page
    .getByRole('form', { name: 'Search the prefix' })
    .getByRole('button', { name: 'Search', exact: true })
    .click();
  await expect(panel('Hits per region')).toContainText(of('Hits per region'));

  await view('Activity');
  const obsoleted = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'wal.obsolete', exact: true }) });
  await expect(obsoleted.getByRole('cell', { name: CAIRN, exact: true }).first()).toBeVisible();

  await openPrefix(page, GREPTIME);
  await view('Batches');
  await expect(panel('Preflight')).toContainText(of('Preflight', GREPTIME));
  await expect(panel('Writer runs')).toContainText(of('Writer runs', GREPTIME));
  await openPrefix(page, 'datanodes/1/epochs/8');
  await view('Batches');
  await expect(panel('Sequence strip')).toContainText(of('Chain', 'datanodes/1/epochs/8'));
  await view('Manifest');
  await expect(panel('No register')).toContainText(of('Register', 'datanodes/1/epochs/8'));
});
