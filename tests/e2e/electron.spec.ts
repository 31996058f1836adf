/**
 * The desktop shell, driven by Playwright's Electron support. Runs where Electron's binary
 * is installed; elsewhere (these machines cannot download it) it reports itself skipped.
 */
import { _electron as electron } from '@playwright/test';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from './fixtures';
// @ts-expect-error plain ES module shared with scripts/start.mjs
import { electronBinary } from '../../scripts/electron-binary.mjs';

const projectRoot = resolve(__dirname, '..', '..');
const binary = (electronBinary as (root: string) => string | null)(projectRoot);

test('the desktop window shows the console with a secure preload bridge', async () => {
  test.skip(binary === null, 'Electron binary not installed on this machine');
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [projectRoot],
    env: { ...process.env, CAIRN_DATA_DIR: dataDir },
  });
  const window = await app.firstWindow();
  await expect(window.getByRole('contentinfo', { name: 'App information' })).toContainText(
    'Desktop (ipc)',
  );
  expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
    'undefined',
  );
  expect(
    await window.evaluate(() => Object.keys((window as unknown as { cairn: object }).cairn).sort()),
  ).toEqual(['onEvent', 'procedures']);
  await app.close();
});
