/**
 * Bad input in the views: a namespace shard and a tiering cell whose newest versions are not
 * JSON are named (key and reason) while every healthy record and partition still shows.
 */
import { join } from 'node:path';
import { shardLabel, shardOfName } from '../../src/main/engine/namespaces/shard-hash';
import { runCairn } from '../support/cairn-cli';
import { damageCell } from '../support/damage-cell';
import { expect, test } from './fixtures';

const TOPIC_ID = '6f1c2d3e-0000-4000-8000-000000000001';
const NAMES = ['orders', 'billing', 'inventory', 'audit', 'search', 'users'];

// Ten `cairn` processes set the store up, each several seconds on a busy machine.
test.describe.configure({ timeout: 120_000 });

test('damaged shards and partitions are named; the healthy ones still show', async ({
  page,
  served,
  store,
}) => {
  test.skip(store.kind !== 'local', 'damages files of the local store');
  const cairn = (...args: string[]) => {
    const run = runCairn([...args, ...store.cliFlags], store.env);
    expect([run.code, run.stderr]).toEqual([0, '']);
    return run;
  };
  for (const name of NAMES) cairn('ns', 'register', name);
  const shardCount = (JSON.parse(cairn('ns', 'shards', '--json').stdout) as unknown[]).length;
  const broken = shardOfName('orders', shardCount, 'fnv1a64');
  const shardKey = `namespaces/shards/${shardLabel(broken)}/`;
  for (const partition of ['0', '1'])
    cairn(
      'segments',
      'add',
      '--topic-id',
      TOPIC_ID,
      '--partition',
      partition,
      '--topic',
      'orders',
      '--start',
      '0',
      '--end',
      '9',
    );
  const cellKey = `tiering/${TOPIC_ID}-1/`;
  const storeDir = join(served.dataDir, 'cairn-data');
  await damageCell(join(storeDir, shardKey));
  await damageCell(join(storeDir, cellKey));

  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Namespaces' }).click();
  await expect(page.getByRole('alert', { name: 'Damaged shards' })).toContainText(
    `Shard ${shardLabel(broken)} at ${shardKey}`,
  );
  const healthy = NAMES.filter((name) => shardOfName(name, shardCount, 'fnv1a64') !== broken);
  for (const name of healthy)
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();

  await nav.getByRole('button', { name: 'Tiered segments' }).click();
  const picker = page.getByRole('complementary', { name: 'Topic-partitions' });
  await expect(picker.getByRole('alert')).toContainText(`Damaged: ${cellKey}`);
  await picker.getByRole('button', { name: 'orders-0' }).click();
  // The partition is part of the place: its link names it.
  await expect(page).toHaveURL(new RegExp(`#/segments\\?.*topic-id=${TOPIC_ID}&partition=0`));
  await expect(page.getByRole('table', { name: /^Segments of / }).locator('tbody tr')).toHaveCount(
    1,
  );
});
