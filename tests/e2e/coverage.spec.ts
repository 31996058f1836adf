/**
 * The Overview says what its State covers: a prefix whose objects nobody read whole reads
 * `unverified` (why on hover), never healthy; once a Verify has read it, `healthy · verified
 * just now`, and Batches' headline names what was read whole and CRC-checked.
 */
import { seed } from '../wal-api/support';
import { expect, test } from './fixtures';

const PREFIX = 'wal/nodes/0/generations/0';

test('unverified until a verify reads it whole, then healthy with its coverage', async ({
  page,
  store,
}) => {
  test.skip(store.kind !== 'local', 'one lane is enough: coverage is the same on either');
  await seed(store.io(), 20, 2);
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Overview' }).click();
  const row = page.getByRole('table', { name: 'WAL prefixes' }).locator('tbody tr');
  await expect(row).toHaveCount(1);
  const state = row.getByLabel(`State of ${PREFIX}`);
  await expect(state).toHaveText(/^unverified: never verified: \d+ objects known only by footer$/);
  await expect(state).toHaveAttribute('title', /^never verified/);

  const verify = page.getByRole('group', { name: 'Verify the fleet' });
  await verify.getByRole('button', { name: 'Verify all prefixes' }).click();
  await expect(verify.getByRole('status', { name: 'Verify status' })).toContainText(
    /^finished · prefix 1 of 1 · .* no damage/,
  );
  await expect(state).toHaveText(/^healthy · verified (just now|\d+ s ago)$/);
  await expect(state).toHaveAttribute('title', /read whole and CRC-checked/);

  await row.getByRole('button', { name: PREFIX }).click();
  await nav.getByRole('button', { name: 'Batches' }).click();
  await expect(page.getByRole('status', { name: 'Prefix state' })).toHaveText(
    /^healthy · verified (just now|\d+ s ago): \d+ objects read whole and CRC-checked/,
  );
});
