/**
 * The WAL views end to end in browser mode over a prefix seeded by `cairn wal append`:
 * Overview lists it, Regions shows its 4 regions; in operator mode the app takes it over as
 * writer (typed confirmation naming the prefix) and obsoletes part of region 1:1 with a
 * preview and a typed confirmation; Replay streams region 1:2 at a readable pace, pauses,
 * cancels mid-stream and exports NDJSON; Batches shows the live strip while the in-app load
 * generator runs; Manifest shows the sealed epochs and the directory's budget.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from './fixtures';

const PREFIX = 'wal/nodes/0/generations/0';
const cli = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

test('inspects, takes over, obsoletes, replays and loads a WAL prefix', async ({
  page,
  served,
  store,
}) => {
  test.setTimeout(120_000);
  // One appender spreads the generator's entries evenly over the 4 regions (75 each).
  execFileSync(
    process.execPath,
    [
      cli,
      'wal',
      'append',
      ...store.cliFlags,
      '--count',
      '300',
      '--writers',
      '1',
      '--acks-out',
      join(served.dataDir, 'acks.ndjson'),
    ],
    { stdio: 'ignore', env: store.env },
  );
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });

  await nav.getByRole('button', { name: 'Overview' }).click();
  const prefixes = page.getByRole('table', { name: 'WAL prefixes' });
  // Nothing wrong seen, nothing read whole yet: unverified, never healthy.
  await expect(prefixes.getByRole('row').filter({ hasText: PREFIX })).toContainText(
    'unverified: never verified',
  );
  await expect(prefixes.getByRole('row').filter({ hasText: PREFIX })).toContainText(
    'not in this app',
  );

  await nav.getByRole('button', { name: 'Regions' }).click();
  const regions = page.getByRole('table', { name: `Regions of ${PREFIX}` });
  await expect(regions.locator('tbody tr')).toHaveCount(4);
  await expect(page.getByRole('button', { name: 'Take over as writer' })).toHaveCount(0);

  await nav.getByRole('button', { name: 'Connections' }).click();
  await page.getByRole('switch', { name: `Operator mode for ${store.name}` }).click();
  await expect(page.getByRole('status', { name: 'Access mode' })).toHaveText('Operator');

  await nav.getByRole('button', { name: 'Regions' }).click();
  await page.getByRole('button', { name: 'Take over as writer' }).click();
  const takeOver = page.getByRole('dialog', { name: `Take over as writer of ${PREFIX}` });
  await expect(takeOver.getByRole('alert')).toContainText('a writer may be live');
  const confirmTakeOver = takeOver.getByRole('button', { name: 'Take over' });
  await expect(confirmTakeOver).toBeDisabled();
  await takeOver.getByLabel(`Type ${PREFIX} to confirm`).fill(PREFIX);
  await confirmTakeOver.click();
  await expect(takeOver).toBeHidden();
  await expect(page.getByRole('status', { name: 'Writer status' })).toContainText(
    'Writer open here · epoch 2',
  );

  const region11 = regions
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: '1:1', exact: true }) });
  const firstId = (await region11.getByRole('cell').nth(1).textContent())?.trim() ?? '';
  expect(firstId).toMatch(/^\d+:\d+$/);
  await region11.getByRole('button', { name: 'Obsolete region 1:1' }).click();
  const obsolete = page.getByRole('dialog', { name: 'Obsolete region 1:1' });
  await obsolete.getByLabel('Up to entry id').fill(firstId);
  await obsolete.getByRole('button', { name: 'Preview' }).click();
  await expect(obsolete.getByRole('status', { name: 'Obsolete preview' })).toContainText(
    'Hides 1 entry;',
  );
  await obsolete.getByLabel('Type 1:1 to confirm').fill('1:1');
  await obsolete.getByRole('button', { name: 'Obsolete', exact: true }).click();
  await expect(obsolete).toBeHidden();
  // The refresh marks the watermark that moved, and says from where.
  await expect(page.getByLabel('Watermark of 1:1')).toHaveText(`${firstId} moved from none`);

  await nav.getByRole('button', { name: 'Replay' }).click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1:2');
  await form.getByRole('textbox', { name: 'Pace (entries/s)' }).fill('10');
  await form.getByRole('button', { name: 'Start replay' }).click();
  const status = page.getByRole('status', { name: 'Replay status' });
  await expect(status).toContainText(/running · [1-9]/);
  await form.getByRole('button', { name: 'Pause' }).click();
  await expect(status).toContainText('paused');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toContainText('cancelled');
  const delivered = Number(/· (\d+) entr(?:y|ies)\b/.exec((await status.textContent()) ?? '')?.[1]);
  expect(delivered).toBeGreaterThan(0);
  expect(delivered).toBeLessThan(75);
  await expect(page.getByRole('status', { name: 'Rows shown' })).toHaveText(
    `${delivered} shown of ${delivered} kept (newest 1000)`,
  );
  const grid = page.getByRole('grid', { name: 'Replayed entries list' });
  await grid.getByRole('row').first().click();
  await expect(page.getByRole('complementary', { name: 'Entry payload' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export NDJSON' }).click();
  const saved = await (await download).path();
  const lines = (await readFile(saved, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { region: string; id: string; size: number });
  expect(lines).toHaveLength(delivered);
  expect(lines.every((line) => line.region === '1:2' && line.size === 1024)).toBe(true);

  await nav.getByRole('button', { name: 'Batches' }).click();
  await expect(page.getByRole('region', { name: 'Sequence strip' })).toBeVisible();
  const load = page.getByRole('form', { name: 'Load generator' });
  await load.getByRole('textbox', { name: 'Entries' }).fill('1000000');
  await load.getByRole('button', { name: 'Start load' }).click();
  if (store.kind === 's3') {
    // Made-up entries on a prefix this app did not start, on a store not embedded: named first.
    const named = page.getByRole('dialog', { name: `Start load on ${store.name}` });
    await named.getByLabel(`Type ${store.name} to confirm`).fill(store.name);
    await named.getByRole('button', { name: 'Start load' }).click();
    await expect(named).toBeHidden();
  }
  await expect(load.getByRole('status', { name: 'Load progress' })).toContainText(
    /Running · [1-9]/,
  );
  const tip = page.getByRole('listitem', { name: 'Indexed tip' });
  const before = await tip.textContent();
  await expect(tip).not.toHaveText(before ?? '');
  // The charts draw under the strict CSP: uPlot's CSS comes from its file, no inline style.
  // (Radix dialogs' scroll lock injects a <style> the CSP blocks; that is not the charts'.)
  const cspBefore = problems.filter((text) => text.includes('Content Security Policy')).length;
  await nav.getByRole('button', { name: 'Overview' }).click();
  await expect(page.getByRole('status', { name: 'Load status' })).toContainText('Load running');
  await expect(page.getByRole('figure', { name: 'Append rate' }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Ack latency' }).locator('canvas')).toBeVisible();
  expect(problems.filter((text) => text.includes('Content Security Policy'))).toHaveLength(
    cspBefore,
  );
  await nav.getByRole('button', { name: 'Batches' }).click();
  await load.getByRole('button', { name: 'Stop load' }).click();
  await expect(load.getByRole('status', { name: 'Load progress' })).toContainText('Stopped');

  await nav.getByRole('button', { name: 'Manifest' }).click();
  const sealed = page.getByRole('table', { name: 'Sealed epochs' });
  await expect(sealed.locator('tbody tr').filter({ hasText: 'stopped' })).toHaveCount(1);
  await expect(page.getByRole('meter', { name: 'Sealed directory budget' })).toBeVisible();
  await expect(page.getByLabel('Watermarks')).toContainText(`1:1 ≤ ${firstId}`);
  await expect(page.getByLabel('Writer epoch')).toHaveText('2');

  // Garbage collection: the dry run first, then the pass behind a typed confirmation.
  const gc = page.getByRole('region', { name: 'Garbage collection' });
  await gc.getByRole('button', { name: 'Preview garbage collection' }).click();
  await expect(gc.getByRole('status', { name: 'Garbage collection preview' })).toContainText(
    'A pass would move the boundary',
  );
  await gc.getByRole('button', { name: 'Collect…' }).click();
  const collect = page.getByRole('dialog', { name: /Collect garbage of/ });
  await collect.getByRole('textbox').fill(PREFIX);
  await collect.getByRole('button', { name: 'Collect' }).click();
  await expect(page.getByText(/^Collected \d+ objects?$/)).toBeVisible();
});
