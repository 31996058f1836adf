/** Picks a WAL prefix the way a user does: from the Overview's table of prefixes. */
import type { Page } from '@playwright/test';

export async function openPrefix(page: Page, prefix: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Overview' })
    .click();
  await page
    .getByRole('table', { name: 'WAL prefixes' })
    .getByRole('row')
    .filter({ hasText: prefix })
    .getByRole('button', { name: prefix })
    .click();
}
