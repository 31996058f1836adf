/** An S3 connection added, tested and browsed from the console, against the real S3 lane. */
import { randomBytes } from 'node:crypto';
import { createBucketIfMissing, S3ObjectIo } from '../../src/main/engine/objectio/s3-object-io';
import { expect, test } from './fixtures';

const endpoint = process.env.CAIRN_S3_ENDPOINT;
const credentials = {
  accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
  secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
};

test('an S3 connection is added, passes the probe and is browsed', async ({ page, served }) => {
  test.skip(!endpoint, 'S3 lane skipped: CAIRN_S3_ENDPOINT is not set');
  const bucket = `cairn-e2e-${randomBytes(4).toString('hex')}`;
  const config = { bucket, endpoint, forcePathStyle: true, credentials };
  await createBucketIfMissing(config);
  const io = new S3ObjectIo(config);
  await io.putIfAbsent('wal/nodes/0/marker.txt', new TextEncoder().encode('hello from s3'));

  await page.goto(served.url);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add connection' });
  await dialog.getByLabel('S3').check();
  await dialog.getByLabel('Name').fill('Lab S3');
  await dialog.getByLabel('Endpoint').fill(endpoint!);
  await dialog.getByLabel('Bucket').fill(bucket);
  await dialog.getByLabel('Path-style addressing').check();
  await dialog.getByRole('button', { name: 'Save connection' }).click();
  await expect(dialog).toBeHidden();

  const row = page
    .getByRole('table', { name: 'Saved connections' })
    .getByRole('row')
    .filter({ hasText: 'Lab S3' });
  await row.getByRole('button', { name: 'Test Lab S3' }).click();
  await expect(row.getByRole('status')).toContainText('Reachable, conditional writes enforced');

  await page.getByRole('combobox', { name: 'Connection' }).selectOption({ label: 'Lab S3' });
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Bucket browser' })
    .click();
  const grid = page.getByRole('grid', { name: 'Objects' });
  await grid.getByRole('button', { name: /wal\// }).click();
  await grid.getByRole('button', { name: /nodes\// }).click();
  await grid.getByRole('button', { name: /0\// }).click();
  await grid.getByRole('button', { name: 'marker.txt' }).click();
  await expect(
    page
      .getByRole('complementary', { name: 'Object inspector' })
      .getByLabel('Payload', { exact: true }),
  ).toContainText('hello from s3');
  io.destroy();
});
