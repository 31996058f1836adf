/**
 * The Namespaces view as an operator uses it, in real Chromium against `cairn serve`:
 * register, create explicit (bad JSON refused before sending), details drawer, placement,
 * deprecate with a typed confirmation, filters, read-only without controls, and a NotOwner
 * explained in words and resolved by taking the shard.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { shardOfName } from '../../src/main/engine/namespaces';
import { expect, test, type StoreUnderTest } from './fixtures';

const cairn = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

async function openNamespacesAsOperator(page: Page, store: StoreUnderTest): Promise<void> {
  await store.open(page);
  await page.getByRole('switch', { name: `Operator mode for ${store.name}` }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Namespaces' })
    .click();
  await expect(page.getByRole('heading', { name: 'Namespaces', level: 1 })).toBeVisible();
}

async function register(page: Page, name: string): Promise<void> {
  await page
    .getByRole('group', { name: 'Registry actions' })
    .getByRole('button', { name: 'Register' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Register namespace' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog).toBeHidden();
}

function rowOf(page: Page, name: string) {
  return page
    .getByRole('table', { name: 'Namespaces' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name, exact: true }) });
}

test('an operator registers, creates, places, deprecates and filters namespaces', async ({
  page,
  store,
}) => {
  await openNamespacesAsOperator(page, store);

  await register(page, 'orders');
  await expect(page.getByText('Namespace "orders" created', { exact: true })).toBeVisible();
  await expect(rowOf(page, 'orders')).toContainText('minted');

  await page.getByRole('button', { name: 'Create explicit' }).click();
  const create = page.getByRole('dialog', { name: 'Create explicit namespace' });
  await create.getByLabel('Name').fill('team/billing');
  await create.getByLabel('Config (JSON object)').fill('{"retention": ');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByRole('alert')).toContainText('config: not valid JSON');
  await create.getByLabel('Config (JSON object)').fill('[1, 2]');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByRole('alert')).toContainText('config');
  await create
    .getByLabel('Config (JSON object)')
    .fill('{"retention": {"days": 7}, "owner": "payments"}');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  await expect(rowOf(page, 'team/billing')).toContainText('explicit');

  await rowOf(page, 'team/billing').getByRole('button', { name: 'team/billing' }).click();
  const drawer = page.getByRole('complementary', { name: 'Namespace details' });
  await expect(drawer.getByLabel('Config')).toContainText('"days": 7');
  await expect(drawer).toContainText('node 0 (epoch 1)');

  await drawer.getByRole('button', { name: 'Set placement' }).click();
  const placement = page.getByRole('dialog', { name: 'Set placement of team/billing' });
  await placement.getByLabel('Region').fill('eu-west');
  await placement.getByLabel('Tier').fill('hot');
  await placement.getByLabel('Pinned').check();
  await placement.getByRole('button', { name: 'Save placement' }).click();
  await expect(placement).toBeHidden();
  await expect(drawer.getByLabel('Placement')).toHaveText('region eu-west, tier hot, pinned');

  await drawer.getByRole('button', { name: 'Deprecate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Deprecate team/billing' });
  const deprecate = confirm.getByRole('button', { name: 'Deprecate' });
  await expect(deprecate).toBeDisabled();
  await confirm.getByLabel('Type team/billing to confirm').fill('team/bill');
  await expect(deprecate).toBeDisabled();
  await confirm.getByLabel('Type team/billing to confirm').fill('team/billing');
  await deprecate.click();
  await expect(confirm).toBeHidden();
  await expect(rowOf(page, 'team/billing')).toContainText('deprecated');
  await expect(drawer.getByRole('button', { name: 'Deprecate' })).toBeDisabled();

  const filters = page.getByRole('search', { name: 'Filter namespaces' });
  const rows = page.getByRole('table', { name: 'Namespaces' }).getByRole('row');
  await filters.getByLabel('State').selectOption('deprecated');
  await expect(rows).toHaveCount(2); // the header and team/billing
  await expect(rowOf(page, 'team/billing')).toBeVisible();
  await filters.getByLabel('State').selectOption('active');
  await expect(rows).toHaveCount(2);
  await expect(rowOf(page, 'orders')).toBeVisible();
  await filters.getByLabel('State').selectOption('any');
  await filters.getByLabel('Origin').selectOption('explicit');
  await expect(rows).toHaveCount(2);
  await filters.getByLabel('Origin').selectOption('any');
  await filters.getByLabel('Search namespaces').fill('payments');
  await expect(rows).toHaveCount(2);
  await expect(rowOf(page, 'team/billing')).toBeVisible();
});

test('a read-only connection shows the registry without any mutation control', async ({
  page,
  store,
}) => {
  await openNamespacesAsOperator(page, store);
  await register(page, 'orders');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Connections' })
    .click();
  await page.getByRole('switch', { name: `Operator mode for ${store.name}` }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Read-only');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Namespaces' })
    .click();

  await rowOf(page, 'orders').getByRole('button', { name: 'orders' }).click();
  const drawer = page.getByRole('complementary', { name: 'Namespace details' });
  await expect(drawer).toContainText('minted');
  await expect(
    page.getByRole('button', {
      name: /^(Register|Create explicit|Set placement|Deprecate|Take ownership)/,
    }),
  ).toHaveCount(0);
  await expect(page.getByText('Read-only: switch this connection to operator mode')).toBeVisible();
});

test('a shard another node took is explained, and taking it back fences that node', async ({
  page,
  store,
}) => {
  await openNamespacesAsOperator(page, store);
  await register(page, 'orders');
  const shard = shardOfName('orders', 16);
  const label = String(shard).padStart(2, '0');
  const taken = spawnSync(
    process.execPath,
    [cairn, 'ns', 'take-ownership', String(shard), '--node', '2', '--json', ...store.cliFlags],
    {
      encoding: 'utf8',
      env: store.env,
    },
  );
  expect(JSON.parse(taken.stdout)).toEqual({ shard, nodeId: 2, ownerEpoch: 2 });

  await rowOf(page, 'orders').getByRole('button', { name: 'orders' }).click();
  const drawer = page.getByRole('complementary', { name: 'Namespace details' });
  await drawer.getByRole('button', { name: 'Set placement' }).click();
  const placement = page.getByRole('dialog', { name: 'Set placement of orders' });
  await placement.getByLabel('Region').fill('eu');
  await placement.getByRole('button', { name: 'Save placement' }).click();
  await expect(placement.getByRole('note', { name: 'Why this was refused' })).toContainText(
    `shard ${label} is owned by node 2 (epoch 2); take ownership to write here`,
  );
  await expect(placement.getByRole('alert')).toContainText('NotOwner');

  await placement.getByRole('button', { name: `Take ownership of shard ${label}…` }).click();
  const take = page.getByRole('dialog', { name: `Take ownership of shard ${label}` });
  await expect(take).toContainText('fences node 2');
  await take.getByLabel(`Type shard ${label} to confirm`).fill(`shard ${label}`);
  await take.getByRole('button', { name: 'Take ownership' }).click();
  await expect(take).toBeHidden();
  await expect(drawer).toContainText('node 0 (epoch 3)');

  await drawer.getByRole('button', { name: 'Set placement' }).click();
  await placement.getByLabel('Region').fill('eu');
  await placement.getByRole('button', { name: 'Save placement' }).click();
  await expect(placement).toBeHidden();
  await expect(drawer.getByLabel('Placement')).toHaveText('region eu');
});
