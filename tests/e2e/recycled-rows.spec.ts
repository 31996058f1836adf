/**
 * A long Regions table recycles its rows (PagedTable keys them by place in the window): a
 * scroll shows other regions in the same elements. What a user holds in a row stays with its
 * region: a text selection goes rather than cover another region's text; a focused button
 * follows the region to the row that now shows it, and leaves for the table's scroll box when
 * the region scrolls away, never landing on another region's button; a row's dialog, opened
 * on a region, still names it after the rows scrolled under it and obsoletes that region; a
 * watermark is marked moved only when its own region's moved. Each fails without its guard.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { runCairn } from '../support/cairn-cli';
import { operatorOn, takeOverInRegions } from './operate';

const PREFIX = 'wal/nodes/0/generations/0';
/** Past the table's page of 200 rows: a long, virtualized table. */
const REGIONS = 230;

test('recycled rows keep focus, dialogs and change marks on their region', async ({
  page,
  store,
}) => {
  test.setTimeout(120_000);
  const seeded = runCairn(
    [
      'wal',
      'append',
      ...store.cliFlags,
      '--regions',
      String(REGIONS),
      '--count',
      String(REGIONS),
      '--writers',
      '1',
    ],
    store.env,
  );
  expect(seeded.code, seeded.stderr).toBe(0);
  await store.open(page);
  await operatorOn(page, store.name);
  await takeOverInRegions(page, PREFIX);
  const regions = page.getByRole('table', { name: `Regions of ${PREFIX}` });
  await expect(page.getByRole('status', { name: 'Region count' })).toContainText(
    `${REGIONS} regions`,
  );
  // CSS, not roles: a modal dialog hides the table from the accessibility tree.
  const table = `table[aria-label="Regions of ${PREFIX}"]`;
  const scroller = page.locator(`div.paged-table-scroller:has(${table})`);
  const rowAt = (place: number) => page.locator(`${table} tbody tr:not(.paged-spacer)`).nth(place);
  const headerAt = (place: number) => rowAt(place).locator('th');
  const nameAt = async (place: number) => ((await headerAt(place).textContent()) ?? '').trim();
  const scrollBy = (px: number) =>
    scroller.evaluate((element, by) => {
      element.scrollTop += by;
    }, px);

  // A selected region id is not left selected over another region's once the rows scroll.
  const third = await nameAt(2);
  await headerAt(2).evaluate((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    document.getSelection()?.removeAllRanges();
    document.getSelection()?.addRange(range);
  });
  expect(await page.evaluate(() => document.getSelection()?.toString())).toBe(third);
  await scrollBy(150);
  await expect(headerAt(2)).not.toHaveText(third);
  expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('');
  await scroller.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(headerAt(2)).toHaveText(third);

  // A focused button follows its region while the rows scroll under it.
  const replayThird = page.getByRole('button', { name: `Replay region ${third}`, exact: true });
  await replayThird.focus();
  await scrollBy(150);
  await expect(headerAt(2)).not.toHaveText(third);
  await expect(replayThird).toBeFocused();
  // Its region scrolled out of the window: focus is the scroll box's, no other region's.
  await scrollBy(3000);
  await expect(replayThird).toHaveCount(0);
  await expect(scroller).toBeFocused();
  // ... which the keyboard goes on scrolling.
  const scrolled = await scroller.evaluate((element) => element.scrollTop);
  // A key's scroll is animated: wait for its end, or it goes on under the steps below.
  await scroller.evaluate((element) => {
    (window as unknown as { keyScrollEnded: Promise<void> }).keyScrollEnded = new Promise((ended) =>
      element.addEventListener('scrollend', () => ended(), { once: true }),
    );
  });
  await page.keyboard.press('PageDown');
  await page.evaluate(
    () => (window as unknown as { keyScrollEnded: Promise<void> }).keyScrollEnded,
  );
  expect(await scroller.evaluate((element) => element.scrollTop)).toBeGreaterThan(scrolled);

  // A dialog keeps the region it opened on, to the obsolete itself.
  await scroller.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(headerAt(0)).toHaveText(/^1:1$/);
  const second = await nameAt(1);
  await rowAt(1)
    .getByRole('button', { name: `Obsolete region ${second}`, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: `Obsolete region ${second} of ${PREFIX}` });
  await expect(dialog).toBeVisible();
  await scrollBy(300);
  await expect(headerAt(1)).not.toHaveText(second);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('status', { name: 'Obsolete preview' })).toContainText('Hides');
  await dialog.getByLabel(`Type ${second} to confirm`).fill(second);
  await dialog.getByRole('button', { name: 'Obsolete', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(new RegExp(`^Region ${second} obsolete up to `))).toBeVisible();

  // Its watermark moved; the rows that show it in turn mark no other region's as moved.
  await scroller.evaluate((element) => {
    element.scrollTop = 0;
  });
  const watermark = page.getByLabel(`Watermark of ${second}`, { exact: true });
  await expect(watermark).not.toHaveText(/^none/);
  // Rows drawn from the third region on: each shows another region than before.
  await scrollBy(150);
  await expect(watermark).toHaveCount(0);
  await expect(regions.locator('td.changed')).toHaveCount(0);

  // The focusable scroll box and its recycled rows: no serious axe finding.
  const found = await new AxeBuilder({ page }).include('div.paged-table-scroller').analyze();
  expect(
    found.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id),
  ).toEqual([]);
});
