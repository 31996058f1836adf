/** The steps before a WAL operation, as a user takes them: operator mode, then the writer. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Switches `connection` to operator mode in Connections. */
export async function operatorOn(page: Page, connection: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Connections' })
    .click();
  await page.getByRole('switch', { name: `Operator mode for ${connection}` }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');
}

/** In Regions: "Take over as writer" of `prefix`, confirmed by typing the prefix. */
export async function takeOverInRegions(page: Page, prefix: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Regions' })
    .click();
  await page.getByRole('button', { name: 'Take over as writer' }).click();
  const dialog = page.getByRole('dialog', { name: `Take over as writer of ${prefix}` });
  await dialog.getByLabel(`Type ${prefix} to confirm`).fill(prefix);
  await dialog.getByRole('button', { name: 'Take over' }).click();
  await expect(dialog).toBeHidden();
}
