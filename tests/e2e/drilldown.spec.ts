/**
 * Drill-down (issue #42): the Overview's numbers carry their units and its garbage collection
 * is there for the selected prefix; a prefix's name opens it in Batches; a row of the
 * Batches object table opens that object's inspector (a click, or Enter on its sequence);
 * "go to" scrolls to an object far down the list and opens it; the inspector's headline names the
 * damaged segment by place and region, scrolls to its row, and shows ids as `seq:position`.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { formatEntryId } from '../../src/shared/id-notation';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { DAMAGE_CONFIG, flipSegmentByte } from '../support/damaged-segment';
import { expect, test } from './fixtures';

const PREFIX = walPrefix('wal', 0n, 0);
const REGION = (1n << 32n) | 1n;

/** `count` objects of one entry each (durable appends one at a time: one object per batch). */
async function writeObjects(io: ObjectIo, count: number): Promise<void> {
  const store = await ObjectStoreLogStore.open(
    io,
    { root: 'wal', nodeId: 0n, generation: 0, flushIntervalMs: 10 },
    { probe: false, gcAfterObsolete: false },
  );
  const provider = { prefix: store.prefix, regionId: REGION };
  for (let i = 0; i < count; i++)
    await store.appendBatch([
      store.entry(new TextEncoder().encode(`entry ${i}`), 0n, REGION, provider),
    ]);
  await store.stop();
}

test('from the Overview to an object far down the list, in a handful of actions', async ({
  page,
  store,
}) => {
  test.setTimeout(120_000);
  await writeObjects(store.io(), 130);
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Overview' }).click();
  const row = page.getByRole('table', { name: 'WAL prefixes' }).locator('tbody tr');
  // Every number with its unit: the lag in objects and in age, orphans and damage in objects.
  await expect(row.getByRole('cell').nth(5)).toHaveText(/^13\d objects · \d/);
  await expect(row.getByRole('cell').nth(6)).toHaveText('0 objects');
  // The selected prefix's garbage collection is here as in Batches and Manifest.
  await expect(page.getByRole('region', { name: 'Garbage collection' })).toBeVisible();
  await row.getByRole('button', { name: PREFIX }).click();
  // The name opened the prefix: Batches, on it.
  await expect(page.getByRole('heading', { name: 'Batches' })).toBeVisible();
  const objects = page.getByRole('table', { name: `Objects of ${PREFIX}` });
  // The whole list is one scroll (paged from the server as it scrolls), counted in its footer.
  await expect(page.getByText(/^13\d objects$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Garbage collection' })).toBeVisible();
  const inspector = page.getByRole('complementary', { name: 'Object inspector' });

  // A click anywhere on a row opens its object.
  const third = objects.locator('tbody tr').nth(2);
  const thirdSeq = (await third.getByRole('button').textContent()) ?? '';
  await third.getByRole('cell').nth(3).click();
  await expect(inspector).toContainText(objectKey(PREFIX, BigInt(thirdSeq)));
  await expect(third).toHaveAttribute('aria-selected', 'true');
  await inspector.getByRole('button', { name: 'Close inspector' }).click();
  await expect(inspector).toHaveCount(0);

  // Enter on a row's sequence opens it too.
  const fifth = objects.locator('tbody tr').nth(4).getByRole('button');
  const fifthSeq = (await fifth.textContent()) ?? '';
  await fifth.focus();
  await page.keyboard.press('Enter');
  await expect(inspector).toContainText(objectKey(PREFIX, BigInt(fifthSeq)));

  // Go to an entry id whose object is far below the fold: the list scrolls, the row is marked.
  const target = BigInt(thirdSeq) + 120n;
  const goTo = page.getByRole('search', { name: 'Go to object' });
  await goTo.getByLabel('Go to sequence or id').fill(formatEntryId((target << 20n) | 1n));
  await goTo.getByRole('button', { name: 'Go' }).click();
  const located = objects.getByRole('button', { name: `Inspect object seq ${target}` });
  await expect(located).toBeFocused();
  await expect(inspector).toContainText(objectKey(PREFIX, target));
  // The place names the object: a link reopens it.
  await expect(page).toHaveURL(/#\/batches\?.*inspect=/);

  await goTo.getByLabel('Go to sequence or id').fill('99999');
  await goTo.getByRole('button', { name: 'Go' }).click();
  await expect(goTo.getByRole('alert')).toContainText('seq 99999 is not among the objects listed');
});

/**
 * One object holding 40 regions, the segment of region 1:35 damaged (a byte flipped, the
 * object replaced whole): its row sits far below the fold of the inspector.
 */
async function writeWideDamagedObject(io: ObjectIo) {
  const store = await ObjectStoreLogStore.open(io, DAMAGE_CONFIG, {
    probe: false,
    gcAfterObsolete: false,
  });
  const regions = Array.from({ length: 40 }, (_, i) => (1n << 32n) | BigInt(i + 1));
  await store.appendBatch(
    regions.flatMap((region) =>
      [0, 1, 2].map((i) =>
        store.entry(new TextEncoder().encode(`r${region} e${i}`), 0n, region, {
          prefix: store.prefix,
          regionId: region,
        }),
      ),
    ),
  );
  await store.stop();
  const log = await openReadOnly(io, DAMAGE_CONFIG);
  const segment = log.catalog.objectsForRegion(regions[34] ?? 0n, 1n)[0];
  if (segment === undefined) throw new Error('no segment of region 1:35');
  await flipSegmentByte(io, segment);
  return segment;
}

test("the inspector's headline names the damaged segment and scrolls to it", async ({
  page,
  store,
}) => {
  test.skip(store.kind !== 'local', 'one lane is enough: the layout reads through ObjectIo');
  const damaged = await writeWideDamagedObject(store.io());
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Batches' })
    .click();
  const goTo = page.getByRole('search', { name: 'Go to object' });
  await goTo.getByLabel('Go to sequence or id').fill(String(damaged.seq));
  await goTo.getByRole('button', { name: 'Go' }).click();
  const inspector = page.getByRole('complementary', { name: 'Object inspector' });
  await expect(inspector).toContainText(damaged.key);
  await expect(inspector.getByRole('alert', { name: 'Damaged part' })).toHaveText(
    'Damaged: segment 35 of region 1:35, segment-crc',
  );
  const row = inspector.getByRole('table', { name: 'Segments' }).locator('tr[aria-current]');
  await expect(row).toBeInViewport();
  await expect(row).toContainText(
    `${formatEntryId(damaged.firstId)}–${formatEntryId(damaged.lastId)}`,
  );
  await expect(row).toContainText('CRC bad');
  // The ids are `seq:position`; the decimal is one click away.
  await row.getByRole('button', { name: formatEntryId(damaged.firstId) }).click();
  await expect(page.getByRole('menuitem', { name: `Copy ${damaged.firstId}` })).toBeVisible();
});
