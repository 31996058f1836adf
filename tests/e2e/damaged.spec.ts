/**
 * Bad input in the views: a namespace shard and a tiering cell whose newest versions are not
 * JSON are named (key and reason) while every healthy record and partition still shows; a WAL
 * segment with a flipped byte, which recovery cannot see, is found by a Verify of the fleet
 * and then shows in the Overview (Damaged, State with its reason), Batches (the object
 * `damaged` with its check), Regions (the damaged range, a hole) and Replay (a hole row).
 */
import { join } from 'node:path';
import { shardLabel, shardOfName } from '../../src/main/engine/namespaces/shard-hash';
import { runCairn } from '../support/cairn-cli';
import { damageCell } from '../support/damage-cell';
import { formatEntryId } from '../../src/shared/id-notation';
import { DAMAGE_PREFIX, writeDamagedPrefix } from '../support/damaged-segment';
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

test('a damaged WAL segment shows in every view once a Verify found it', async ({
  page,
  store,
}) => {
  test.skip(store.kind !== 'local', 'one lane is enough: the scrub reads through ObjectIo');
  const damaged = await writeDamagedPrefix(store.io());
  const ids = `${formatEntryId(damaged.firstId)}-${formatEntryId(damaged.lastId)}`;
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Overview' }).click();
  const row = page.getByRole('table', { name: 'WAL prefixes' }).locator('tbody tr');
  await expect(row).toHaveCount(1);
  // Recovery reads trailers and footers only: before a verify the prefix reads unverified,
  // never healthy.
  await expect(row).toContainText('unverified: never verified');

  const verify = page.getByRole('group', { name: 'Verify the fleet' });
  await verify.getByRole('button', { name: 'Verify all prefixes' }).click();
  await expect(verify.getByRole('status', { name: 'Verify status' })).toContainText(
    /^finished · prefix 1 of 1 · \d+ of \d+ objects checked .* · 1 damaged/,
  );
  await expect(row).toContainText(`damaged: 1 object, region 1:1 ids ${ids}`);
  await expect(row).not.toContainText('healthy');
  const search = page.getByRole('search', { name: 'Filter prefixes' });
  await search.getByLabel(/Problems only/).check();
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: DAMAGE_PREFIX }).click();
  await nav.getByRole('button', { name: 'Batches' }).click();
  const objects = page.getByRole('region', { name: 'Objects' });
  await objects.getByRole('tab', { name: 'damaged' }).click();
  const damagedRows = objects
    .getByRole('table', { name: `Objects of ${DAMAGE_PREFIX}` })
    .locator('tbody tr');
  await expect(damagedRows).toHaveCount(1);
  await expect(damagedRows).toContainText(String(damaged.seq));
  await expect(damagedRows).toContainText('damaged · segment-crc');

  await nav.getByRole('button', { name: 'Regions' }).click();
  const regions = page.getByRole('table', { name: `Regions of ${DAMAGE_PREFIX}` });
  const region11 = regions
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: '1:1', exact: true }) });
  await expect(region11.getByRole('list', { name: 'Damaged entry ranges' })).toHaveText(
    `ids ${formatEntryId(damaged.firstId)}–${formatEntryId(damaged.lastId)} (segment-crc)`,
  );

  await region11.getByRole('button', { name: 'Replay region 1:1' }).click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('button', { name: 'Start replay' }).click();
  const status = page.getByRole('status', { name: 'Replay status' });
  await expect(status).toContainText(
    `finished · ${damaged.regionEntries - damaged.lostEntries} entries · 1 damaged segment skipped`,
  );
  const hole = page
    .getByRole('grid', { name: 'Replayed entries list' })
    .getByRole('row', { name: 'Hole' });
  await expect(hole).toContainText(
    `region 1:1 ids ${formatEntryId(damaged.firstId)}–${formatEntryId(damaged.lastId)} skipped`,
  );
  await expect(hole).toContainText(damaged.key);
});
