/**
 * Demo data on a store that is not the embedded one (issue #42): on an empty store it is one
 * click; on a store that holds something it asks first for the connection's name, writes
 * nothing until it is typed, then goes beside what the store holds without touching it.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCairn } from '../support/cairn-cli';
import { expect, test } from './fixtures';

test('demo data asks for the name of a connection that holds something', async ({
  page,
  served,
  store,
}) => {
  test.skip(store.kind !== 'local', 'the connections are local directories of their own');
  const lab = join(served.dataDir, 'lab');
  const scratch = join(served.dataDir, 'scratch');
  await mkdir(join(lab, 'mine'), { recursive: true });
  await mkdir(scratch, { recursive: true });
  await writeFile(join(lab, 'mine', 'precious.txt'), 'keep');
  for (const [name, path] of [
    ['Lab disk', lab],
    ['Scratch disk', scratch],
  ] as const) {
    const added = runCairn([
      'connections',
      'add-local',
      '--data-dir',
      served.dataDir,
      '--name',
      name,
      '--path',
      path,
    ]);
    expect(added.code, added.stderr).toBe(0);
  }
  await store.open(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Connections' })
    .click();

  // An empty store: one click.
  await page.getByRole('button', { name: 'Generate demo data in Scratch disk' }).click();
  await expect(page.getByText('Demo data written to Scratch disk', { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  expect(await readdir(scratch)).toContain('wal');

  // A store holding something: the connection's name first.
  const button = page.getByRole('button', { name: 'Generate demo data in Lab disk' });
  await expect(button).toHaveText('Generate demo data…');
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Generate demo data in Lab disk' });
  await expect(dialog.getByRole('alert')).toContainText('Lab disk is not the embedded store');
  const confirm = dialog.getByRole('button', { name: 'Generate demo data' });
  await dialog.getByLabel('Type Lab disk to confirm').fill('Scratch disk');
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await readdir(lab)).toEqual(['mine']);

  await button.click();
  await dialog.getByLabel('Type Lab disk to confirm').fill('Lab disk');
  await confirm.click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByText('Demo data written to Lab disk', { exact: true })).toBeVisible();
  expect((await readdir(lab)).sort()).toEqual(expect.arrayContaining(['mine', 'wal']));
  expect(await readFile(join(lab, 'mine', 'precious.txt'), 'utf8')).toBe('keep');
});
