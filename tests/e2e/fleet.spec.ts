/**
 * The fleet overview in the console, on the embedded store and on S3: 40 Cairn prefixes of
 * different lengths, a damaged one and a GreptimeDB one, laid out as their writers would.
 * Every prefix gets its row with its columns read; sorting by a column orders the rows and
 * says so (aria-sort); the filter finds the damaged prefix by its error code, "problems only"
 * keeps it alone, the format filter keeps the GreptimeDB one; a prefix another process adds
 * later appears without a reload.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { objectBytes } from '../wal/recovery/prefix-builder';
import { expect, test } from './fixtures';

const PREFIXES = 40;
const DAMAGED = walPrefix('wal', 99n, 0);
const GREPTIME = 'datanodes/5/epochs/2';

async function chain(io: ObjectIo, prefix: string, objects: number): Promise<void> {
  for (let seq = 0n; seq < BigInt(objects); seq++)
    await io.putIfAbsent(
      objectKey(prefix, seq),
      objectBytes({ seq, epoch: 1n, link: seq === 0n ? null : [seq - 1n, 1n] }),
    );
}

async function layOut(io: ObjectIo): Promise<void> {
  const nodes = Array.from({ length: PREFIXES }, (_, node) => node);
  await Promise.all(
    nodes.map((node) => chain(io, walPrefix('wal', BigInt(node), 0), 1 + (node % 5))),
  );
  await chain(io, DAMAGED, 2);
  await io.putIfAbsent(objectKey(DAMAGED, 2n), new TextEncoder().encode('not a WAL object'));
  const builder = new GtPrefixBuilder(GREPTIME);
  builder.openInstance();
  builder.append([[makeRegionId(7, 1), ['x']]]);
  await builder.writeTo(io);
}

test('every prefix of a bucket at a glance: sorted, filtered, live', async ({ page, store }) => {
  test.setTimeout(120_000);
  await layOut(store.io());
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Overview' })
    .click();
  const table = page.getByRole('table', { name: 'WAL prefixes' });
  const progress = page.getByRole('status', { name: 'Fleet progress' });
  await expect(progress).toHaveText(new RegExp(`^${PREFIXES + 2} prefixes`), { timeout: 60_000 });
  await expect(table.getByRole('status')).toHaveCount(0);

  await table.getByRole('button', { name: 'Objects' }).click();
  await expect(table.getByRole('columnheader', { name: 'Objects' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await table.getByRole('button', { name: 'Objects' }).click();
  await expect(table.getByRole('columnheader', { name: 'Objects' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  const firstRow = table.locator('tbody tr').first();
  await expect(firstRow.getByLabel(/^Objects of /)).toContainText('5 chain');

  const search = page.getByRole('search', { name: 'Filter prefixes' });
  await search.getByLabel('Filter').fill('CorruptObject');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText(DAMAGED);
  await expect(table.locator('tbody tr')).toContainText('open fails: CorruptObject');
  await search.getByLabel('Filter').fill('');
  await search.getByLabel(/Problems only/).check();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await search.getByLabel(/Problems only/).uncheck();
  await search.getByLabel('Format').selectOption('greptimedb-v1');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText('GreptimeDB v1 · read-only');
  await search.getByLabel('Format').selectOption('any');

  await chain(store.io(), walPrefix('wal', 500n, 3), 2);
  await expect(progress).toHaveText(new RegExp(`^${PREFIXES + 3} prefixes`), { timeout: 30_000 });
  await search.getByLabel('Filter').fill('wal/nodes/500/');
  await expect(table.locator('tbody tr')).toContainText('2 chain');
});
