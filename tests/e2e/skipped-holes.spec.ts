/**
 * The damaged segment of the demo's merged prefix (region 1025:1, object 9) as Replay and Search
 * show it: the skipped-damage notice names the hole (region, ids, object, check) as the CLI's
 * hole line does, its "Go to row" scrolls the table to the hole's row and focuses it, in
 * Replay's Entries and Rows modes and in Search's hits; a hole row shows its whole text.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';

const PREFIX = 'wal/datanodes/0/epochs/0';
const OBJECT = `${PREFIX}/objects/00000000000000000009.wal`;
const HOLE = `region 1025:1 ids 9:1–9:3 skipped · ${OBJECT} · segment-crc check failed`;
const JUMP = 'Go to the hole of region 1025:1 ids 9:1–9:3';

/** Scrolls a virtualized grid to its first rows: the hole (object 9 of 11) is far below. */
async function scrollToTop(grid: Locator): Promise<void> {
  await grid.evaluate((element) => {
    element.scrollTop = 0;
  });
}

/** The hole row is in view, focused, and its text is not clipped. */
async function expectJumpedTo(page: Page, grid: Locator): Promise<void> {
  const notice = page.getByRole('region', { name: 'Damaged segments skipped' });
  const hole = grid.getByRole('row', { name: 'Hole' });
  await expect(hole).not.toBeInViewport();
  await notice.getByRole('button', { name: JUMP }).click();
  await expect(hole).toBeFocused();
  await expect(hole).toBeInViewport();
  await expect(hole).toHaveText(`Hole: ${HOLE}`);
  const clipped = await hole.evaluate((row) => {
    const cell = row.firstElementChild as HTMLElement;
    return row.scrollHeight > row.clientHeight + 1 || cell.scrollWidth > cell.clientWidth + 1;
  });
  expect(clipped).toBe(false);
}

test("the skipped-damage notice names the hole and jumps to its row (Replay's modes, Search)", async ({
  page,
  store,
}) => {
  test.setTimeout(120_000);
  // Narrow and short: the hole's text must wrap, and the tables scroll.
  await page.setViewportSize({ width: 1100, height: 700 });
  await store.open(page);
  await page.getByRole('button', { name: `Generate demo data in ${store.name}` }).click();
  await expect(page.getByText(`Demo data written to ${store.name}`, { exact: true })).toBeVisible();
  await openPrefix(page, PREFIX);
  const nav = page.getByRole('navigation', { name: 'Views' });

  await nav.getByRole('button', { name: 'Replay' }).click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1025:1');
  await form.getByRole('button', { name: 'Start replay' }).click();
  await expect(page.getByRole('status', { name: 'Replay status' })).toContainText(
    'finished · 20 entries · 1 damaged segment skipped',
  );
  const notice = page.getByRole('region', { name: 'Damaged segments skipped' });
  await expect(notice).toContainText('1 damaged segment skipped:');
  await expect(notice.getByRole('listitem')).toHaveText([`${HOLE} Go to row`]);

  const entries = page.getByRole('grid', { name: 'Replayed entries list' });
  // Oldest first: the hole (before the last 5 of the region's 20 entries) is far down the list.
  await page.getByRole('checkbox', { name: 'Newest first' }).uncheck();
  await scrollToTop(entries);
  await expectJumpedTo(page, entries);

  await page.getByRole('tab', { name: 'Rows' }).click();
  const rows = page.getByRole('grid', { name: 'Replayed rows' });
  await scrollToTop(rows);
  await expectJumpedTo(page, rows);

  await nav.getByRole('button', { name: 'Search' }).click();
  const search = page.getByRole('form', { name: 'Search the prefix' });
  await search.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('Done');
  await expect(notice.getByRole('listitem')).toHaveText([`${HOLE} Go to row`]);
  const hits = page.getByRole('grid', { name: 'Search hits' });
  await scrollToTop(hits);
  await expectJumpedTo(page, hits);
});
