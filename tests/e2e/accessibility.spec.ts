/**
 * axe-core over every view, in both themes, once demo data fills them: no serious or
 * critical violation (rules are never disabled; a finding is fixed in the app). Also: a
 * dialog (Radix, which locks the page's scroll with a run-time style element) opens under
 * the strict CSP without a violation report.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { walkEveryView } from './walk';

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

for (const scheme of ['dark', 'light'] as const) {
  test(`every view passes axe in the ${scheme} theme`, async ({ page, served }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(served.url);
    const found: string[] = [];
    await walkEveryView(page, 'Embedded store', async (name) => {
      found.push(...(await seriousViolations(page)).map((text) => `${name}: ${text}`));
    });
    for (const view of ['Replay', 'Activity']) {
      await page
        .getByRole('navigation', { name: 'Views' })
        .getByRole('button', { name: view })
        .click();
      await expect(page.getByRole('heading', { name: view, exact: true })).toBeVisible();
      found.push(...(await seriousViolations(page)).map((text) => `${view}: ${text}`));
    }
    expect(found).toEqual([]);
  });
}

test('a dialog opens under the strict CSP without a violation', async ({ page, served }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(served.url);
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  // The scroll lock's style element applied: the page behind the dialog does not scroll.
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).overflow))
    .toBe('hidden');
  expect(
    await page.evaluate(() => document.querySelectorAll('style[nonce]').length),
  ).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(violations).toEqual([]);
});
