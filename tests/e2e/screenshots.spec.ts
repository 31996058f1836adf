/**
 * Demo data populates every view of the embedded store. Each view is captured; with
 * CAIRN_UPDATE_SCREENSHOTS=1 the captures become the README's images in docs/.
 */
import { resolve } from 'node:path';
import { test } from './fixtures';
import { walkEveryView } from './walk';

const docs = resolve(__dirname, '..', '..', 'docs');
const update = process.env.CAIRN_UPDATE_SCREENSHOTS === '1';

test('demo data populates every view', async ({ page, served }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1360, height: 820 });
  await page.goto(served.url);
  await walkEveryView(page, 'Embedded store', async (name) => {
    await page.screenshot({
      path: update ? resolve(docs, `${name}.png`) : test.info().outputPath(`${name}.png`),
    });
  });
});
