/**
 * The Tiered segments view end to end in browser mode: operator mode on, open a partition,
 * add a segment, finish its copy, find it by (epoch, offset), read the timeline, and walk the
 * partition delete with typed confirmations; then read-only mode offers no mutation.
 */
import { expect, test } from './fixtures';

const TOPIC_ID = '6f1c2d3e-0000-4000-8000-0000000000e2';

test("operates a partition's segment metadata from the Tiered segments view", async ({
  page,
  store,
}) => {
  await store.open(page);
  await page.getByRole('switch', { name: `Operator mode for ${store.name}` }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Tiered segments' })
    .click();
  await expect(page.getByRole('heading', { name: 'Tiered segments' })).toBeVisible();

  const picker = page.getByRole('complementary', { name: 'Topic-partitions' });
  const opener = picker.getByRole('form', { name: 'Open a partition' });
  await opener.getByRole('textbox', { name: 'Topic id' }).fill(TOPIC_ID);
  await opener.getByRole('textbox', { name: 'Partition' }).fill('0');
  await opener.getByRole('textbox', { name: 'Topic name' }).fill('orders');
  await opener.getByRole('button', { name: 'Open partition' }).click();
  await expect(page.getByRole('status', { name: 'Caught up' })).toHaveText('Caught up · version 0');

  await page.getByRole('button', { name: 'Add segment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add segment' });
  await dialog.getByLabel('Start offset').fill('0');
  await dialog.getByLabel('End offset').fill('99');
  await dialog.getByLabel('Leader epochs').fill('0:0,1:150');
  await dialog.getByRole('button', { name: 'Save segment' }).click();
  await expect(dialog.getByRole('alert')).toContainText('segmentLeaderEpochs.1.startOffset');
  await dialog.getByLabel('Leader epochs').fill('0:0,1:50');
  await dialog.getByLabel('Size in bytes').fill('2048');
  await dialog.getByLabel('Broker').fill('3');
  await dialog.getByRole('button', { name: 'Save segment' }).click();
  await expect(dialog).toBeHidden();

  const table = page.getByRole('table', { name: 'Segments of orders-0' });
  const row = table.getByRole('row').filter({ hasText: 'COPY_SEGMENT_STARTED' });
  await expect(row).toContainText('0:0,1:50');
  await expect(row).toContainText('2.0 KiB');
  await expect(page.getByRole('status', { name: 'Caught up' })).toHaveText('Caught up · version 1');
  await expect(picker.getByRole('button', { name: 'orders-0' })).toBeVisible();

  const find = page.getByRole('region', { name: 'Find by epoch & offset' });
  await find.getByLabel('Leader epoch').fill('1');
  await find.getByLabel('Offset').fill('60');
  await find.getByRole('button', { name: 'Find segment' }).click();
  await expect(find.getByRole('status', { name: 'Find result' })).toHaveText(
    'No finished segment serves offset 60 of epoch 1.',
  );

  await row.getByRole('button', { name: /^Finish copy of segment / }).click();
  const finished = table.getByRole('row').filter({ hasText: 'COPY_SEGMENT_FINISHED' });
  await expect(finished).toHaveCount(1);
  // From COPY_SEGMENT_FINISHED the engine's table allows only the delete.
  await expect(finished.getByRole('button')).toHaveText(['Start delete']);

  await find.getByRole('button', { name: 'Find segment' }).click();
  await expect(find.getByRole('status', { name: 'Find result' })).toContainText(
    '(offsets 0–99) serves offset 60 of epoch 1.',
  );
  const highest = page.getByRole('region', { name: 'Highest offset for epoch' });
  await highest.getByLabel('Epoch').fill('0');
  await highest.getByRole('button', { name: 'Look up highest offset' }).click();
  await expect(highest.getByRole('status', { name: 'Highest offset result' })).toHaveText(
    'Highest offset of epoch 0: 99',
  );

  const timeline = page.getByRole('list', { name: 'Offset timeline of orders-0' });
  await expect(timeline.getByRole('listitem')).toHaveCount(1);
  await expect(timeline.getByRole('listitem').first()).toHaveAccessibleName(
    /offsets 0 to 99, COPY_SEGMENT_FINISHED$/,
  );

  for (const [action, state] of [
    ['Mark for delete', 'DELETE_PARTITION_MARKED'],
    ['Start partition delete', 'DELETE_PARTITION_STARTED'],
    ['Finish partition delete', 'DELETE_PARTITION_FINISHED'],
  ] as const) {
    await page.getByRole('button', { name: action, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: `${action} of orders-0` });
    const submit = confirm.getByRole('button', { name: action, exact: true });
    await expect(submit).toBeDisabled();
    await confirm.getByLabel('Partition name').fill('orders-1');
    await expect(submit).toBeDisabled();
    await confirm.getByLabel('Partition name').fill('orders-0');
    await submit.click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('status', { name: 'Partition delete state' })).toHaveText(state);
  }
  await expect(table).toContainText('No segments.');
  await expect(page.getByRole('button', { name: 'Mark for delete', exact: true })).toHaveCount(0);
});

test('read-only mode shows the metadata but offers no mutation', async ({ page, store }) => {
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Tiered segments' })
    .click();
  const picker = page.getByRole('complementary', { name: 'Topic-partitions' });
  const opener = picker.getByRole('form', { name: 'Open a partition' });
  await opener.getByRole('textbox', { name: 'Topic id' }).fill(TOPIC_ID);
  await opener.getByRole('button', { name: 'Open partition' }).click();
  await expect(page.getByRole('status', { name: 'Caught up' })).toBeVisible();
  await expect(page.getByRole('table', { name: `Segments of ${TOPIC_ID}-0` })).toContainText(
    'No segments.',
  );
  await expect(page.getByRole('button', { name: 'Add segment' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark for delete' })).toHaveCount(0);
  await opener.getByRole('textbox', { name: 'Topic id' }).fill('not-a-uuid');
  await opener.getByRole('button', { name: 'Open partition' }).click();
  await expect(opener.getByRole('alert')).toContainText('topicId');
});
