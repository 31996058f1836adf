/**
 * The console on a real S3 (the radosgw lane): an S3 connection gets demo data, every view
 * shows it, and an operator takes the prefix over as writer and obsoletes part of a region.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createBucketIfMissing } from '../../src/main/engine/objectio/s3-object-io';
import { expect, s3CredentialsEnv, test } from './fixtures';
import { walkEveryView } from './walk';
import { operatorOn, takeOverInRegions } from './operate';

const endpoint = process.env.CAIRN_S3_ENDPOINT;
const cli = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');
const PREFIX = 'wal/nodes/0/generations/0';

test('every view and the writer operations work on an S3 connection', async ({ page, served }) => {
  test.skip(!endpoint, 'S3 lane skipped: CAIRN_S3_ENDPOINT is not set');
  test.setTimeout(180_000);
  const bucket = `cairn-e2e-views-${randomBytes(4).toString('hex')}`;
  const credentials = {
    accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
    secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
  };
  await createBucketIfMissing({ bucket, endpoint, forcePathStyle: true, credentials });
  // Saved through the CLI into the app's data directory, as a user scripting it would.
  execFileSync(
    process.execPath,
    [
      cli,
      'connections',
      'add-s3',
      '--data-dir',
      served.dataDir,
      '--name',
      'Lab S3',
      '--bucket',
      bucket,
      '--s3-endpoint',
      endpoint!,
      '--path-style',
    ],
    {
      env: { ...process.env, ...s3CredentialsEnv() },
      stdio: 'ignore',
    },
  );

  await page.goto(served.url);
  await page.getByRole('combobox', { name: 'Connection' }).selectOption({ label: 'Lab S3' });
  await walkEveryView(page, 'Lab S3');

  await operatorOn(page, 'Lab S3');
  await takeOverInRegions(page, PREFIX);
  await expect(page.getByRole('status', { name: 'Writer status' })).toContainText(
    'Writer open here · epoch 4',
  );

  const regions = page.getByRole('table', { name: `Regions of ${PREFIX}` });
  const region12 = regions
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: '1:2', exact: true }) });
  const firstId = (await region12.getByRole('cell').nth(1).textContent())?.trim() ?? '';
  await region12.getByRole('button', { name: 'Obsolete region 1:2' }).click();
  const obsolete = page.getByRole('dialog', { name: 'Obsolete region 1:2' });
  await obsolete.getByLabel('Up to entry id').fill(firstId);
  await obsolete.getByRole('button', { name: 'Preview' }).click();
  await expect(obsolete.getByRole('status', { name: 'Obsolete preview' })).toContainText(
    'Hides 1 entry;',
  );
  await obsolete.getByLabel('Type 1:2 to confirm').fill('1:2');
  await obsolete.getByRole('button', { name: 'Obsolete', exact: true }).click();
  await expect(obsolete).toBeHidden();
  // The refresh marks the watermark that moved, and says from where.
  await expect(page.getByLabel('Watermark of 1:2')).toHaveText(`${firstId} moved from none`);
});
