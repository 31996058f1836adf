/**
 * A GreptimeDB prefix in the console, on the embedded store and on S3: Overview lists it with
 * the read-only badge; Batches shows its chain with instances, the late orphan and the reclaim
 * boundary; Regions shows its entries with the reason no action applies (none offered, even
 * in operator mode); Replay streams a region's entries; Manifest says GreptimeDB keeps no
 * register; the bucket browser's inspector lays an object out with each CRC's status.
 */
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { expect, test } from './fixtures';

const PREFIX = 'datanodes/3/epochs/9';
const R1 = makeRegionId(1024, 1);

function greptimePrefix(): GtPrefixBuilder {
  const builder = new GtPrefixBuilder(PREFIX);
  builder.openInstance();
  builder.append([[R1, ['{"v":1}', '{"v":2}']]]);
  const last = builder.append([[R1, ['{"v":3}']]]);
  builder.flushBelow(2n);
  builder.openInstance(1n);
  builder.append([[R1, ['{"v":4}']]]);
  builder.lateObject(last + 1n, 1n, { seq: last, epoch: 1n }, [[R1, ['{"late":true}']]]);
  return builder;
}

test('a GreptimeDB prefix is read in every view and never offered a write', async ({
  page,
  store,
}) => {
  test.setTimeout(90_000);
  await greptimePrefix().writeTo(store.io());
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });

  await nav.getByRole('button', { name: 'Overview' }).click();
  const row = page
    .getByRole('table', { name: 'WAL prefixes' })
    .getByRole('row')
    .filter({ hasText: PREFIX });
  await expect(row).toContainText('GreptimeDB v1 · read-only');
  // Its late object of an earlier instance is an orphan: the State says so, never `healthy`.
  await expect(row).toContainText('orphans: 1 object off the chain');
  await expect(row).not.toContainText('healthy');
  await row.getByRole('button', { name: PREFIX }).click();

  await nav.getByRole('button', { name: 'Connections' }).click();
  await page.getByRole('switch', { name: `Operator mode for ${store.name}` }).click();

  await nav.getByRole('button', { name: 'Batches' }).click();
  await expect(page.locator('.view-header').getByText('GreptimeDB v1 · read-only')).toBeVisible();
  const strip = page.getByRole('list', { name: 'Chain' });
  await expect(strip.getByLabel('Reclaim boundary')).toContainText('seq 2');
  await expect(strip.getByLabel('orphan seq 3')).toBeVisible();
  await expect(strip.getByLabel('chain seq 5')).toBeVisible();
  const instances = page.getByRole('table', { name: 'Instances' });
  await expect(instances.locator('tbody tr')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /take over/i })).toHaveCount(0);
  const objects = page.getByRole('table', { name: `Objects of ${PREFIX}` });
  await page.getByRole('tab', { name: 'below-boundary' }).click();
  await expect(objects.locator('tbody tr')).toHaveCount(2);

  await nav.getByRole('button', { name: 'Regions' }).click();
  await expect(page.getByRole('note', { name: 'Why no region action' })).toContainText(
    'never writes',
  );
  const regions = page.getByRole('table', { name: `Regions of ${PREFIX}` });
  await expect(regions.locator('tbody tr')).toHaveCount(1);
  // Ids carry copy menus and a region its Replay link; no operation is offered.
  await expect(regions.getByRole('button', { name: /obsolete/i })).toHaveCount(0);

  await nav.getByRole('button', { name: 'Replay' }).click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1024:1');
  await form.getByRole('button', { name: 'Start replay' }).click();
  // The chain holds 3 entries of 1024:1 at or above the boundary; the orphan's is never replayed.
  await expect(page.getByRole('status', { name: 'Replay status' })).toContainText('finished');
  await expect(page.getByRole('status', { name: 'Rows shown' })).toHaveText(
    '2 shown of 2 kept (newest 1000)',
  );

  await nav.getByRole('button', { name: 'Manifest' }).click();
  await expect(page.getByRole('region', { name: 'No register' })).toContainText(
    'keeps no register',
  );
});

test('the object inspector lays a GreptimeDB object out with each CRC', async ({ page, store }) => {
  await greptimePrefix().writeTo(store.io());
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Bucket browser' })
    .click();
  await page.getByLabel('Prefix', { exact: true }).fill(`${PREFIX}/objects/`);
  await page.getByLabel('Prefix', { exact: true }).press('Enter');
  await page.getByText('00000000000000000005.wal').click();
  const parts = page.getByRole('region', { name: 'WAL object' });
  await expect(parts).toContainText('GreptimeDB v1 object');
  await expect(parts).toContainText('Every check passes.');
  await expect(parts.getByLabel('Header')).toContainText('5 · 5');
  await expect(parts.getByText('CRC bad')).toHaveCount(0);
  await expect(parts.getByRole('table', { name: 'Segments' }).locator('tbody tr')).toHaveCount(1);
});
