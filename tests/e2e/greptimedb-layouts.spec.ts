/**
 * GreptimeDB main's merged layout (34-byte writer-instance header) in the console: the
 * Overview's State puts a prefix GreptimeDB would refuse to open first and names two writers;
 * Batches shows the open verdict and the writer runs (a restart is a new run) and its Preflight
 * one line per region; a replay of the
 * region whose segment is damaged skips just that segment with a hole row, and the object
 * inspector names the layout and shows the writer instance.
 */
import { metricsPayloads } from '../../src/main/services/demo/metrics-entries';
import { instanceHex, instanceId, MergedPrefixBuilder } from '../greptimedb/merged/merged-encoder';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';

const SOUND = 'wal/datanodes/0/epochs/0';
const REFUSED = 'wal/datanodes/1/epochs/0';
const TWO = 'wal/datanodes/2/epochs/0';
const R1 = (1n << 32n) | 1n;
const R2 = (1n << 32n) | 2n;

function rows(count: number, sample: number): Uint8Array[] {
  return metricsPayloads(1, sample, count, BigInt(sample)).payloads;
}

test('a merged-layout prefix: verdict first, writer runs, a hole of one region', async ({
  page,
  store,
}) => {
  test.setTimeout(90_000);
  const io = store.io();
  const sound = new MergedPrefixBuilder(SOUND);
  sound.append([
    [R1, rows(2, 0)],
    [R2, rows(2, 10)],
  ]);
  sound.restart().skip(1n);
  sound.append([
    [R1, rows(1, 2)],
    [R2, rows(2, 12)],
  ]);
  sound.append([[R2, rows(1, 14)]]);
  sound.damageSegment(2n, R2);
  await sound.writeTo(io);
  const refused = new MergedPrefixBuilder(REFUSED);
  refused.append([[R1, rows(2, 0)]]);
  refused.put({
    seq: 1n,
    writerInstance: instanceId(1),
    segments: [{ regionId: R1, entries: [{ id: 2n, payload: rows(1, 5)[0]! }] }],
  });
  await refused.writeTo(io);
  const two = new MergedPrefixBuilder(TWO);
  two.writeAs(1).append([[R1, rows(1, 0)]]);
  two.writeAs(2).append([[R1, rows(1, 1)]]);
  two.writeAs(1).append([[R1, rows(1, 2)]]);
  await two.writeTo(io);

  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Overview' }).click();
  const table = page.getByRole('table', { name: 'WAL prefixes' });
  const rowOf = (prefix: string) => table.locator('tbody tr').filter({ hasText: prefix });
  await expect(rowOf(REFUSED)).toContainText(
    `GreptimeDB would refuse to open: ranges at ${REFUSED}/objects/00000000000000000001.wal`,
  );
  await expect(rowOf(TWO)).toContainText(`two writers: ${instanceHex(1).slice(0, 8)} at 0, 2`);
  await expect(rowOf(SOUND)).toContainText('unverified: never verified');

  await openPrefix(page, SOUND);
  await nav.getByRole('button', { name: 'Batches' }).click();
  await expect(page.getByLabel('Open verdict')).toContainText('GreptimeDB opens this prefix');
  const runs = page.getByRole('table', { name: 'Writer instance runs' });
  await expect(runs.locator('tbody tr')).toHaveCount(2);
  await expect(runs.locator('tbody tr').nth(0)).toContainText(instanceHex(1));
  await expect(runs.locator('tbody tr').nth(1)).toContainText(`${instanceHex(2)}2–3`);
  await page.getByRole('button', { name: 'Preflight', exact: true }).click();
  const verdicts = page.getByRole('list', { name: 'Region verdicts' }).getByRole('listitem');
  await expect(verdicts).toHaveCount(2);
  await expect(verdicts.nth(0)).toHaveText('region 1:1  opens (3 entries)');
  await expect(verdicts.nth(1)).toContainText('region 1:2  opens with holes: ids 2:1-2:2 of');

  await nav.getByRole('button', { name: 'Replay' }).click();
  const form = page.getByRole('form', { name: 'Replay a region' });
  await form.getByRole('combobox', { name: 'Region' }).selectOption('1:2');
  await form.getByRole('button', { name: 'Start replay' }).click();
  await expect(page.getByRole('status', { name: 'Replay status' })).toContainText(
    'finished · 3 entries · 1 damaged segment skipped',
  );
  const hole = page
    .getByRole('grid', { name: 'Replayed entries list' })
    .getByRole('row', { name: 'Hole' });
  await expect(hole).toContainText('region 1:2 ids 2:1–2:2 skipped');
  await expect(hole).toContainText(`${SOUND}/objects/00000000000000000002.wal`);

  await openPrefix(page, REFUSED);
  await nav.getByRole('button', { name: 'Batches' }).click();
  await expect(page.getByRole('alert', { name: 'GreptimeDB would refuse to open' })).toContainText(
    `${REFUSED}/objects/00000000000000000001.wal`,
  );

  await nav.getByRole('button', { name: 'Bucket browser' }).click();
  await page.getByLabel('Prefix', { exact: true }).fill(`${SOUND}/objects/`);
  await page.getByLabel('Prefix', { exact: true }).press('Enter');
  await page.getByText('00000000000000000003.wal').click();
  const parts = page.getByRole('region', { name: 'WAL object' });
  await expect(parts).toContainText('GTWALOBJ v1, writer-instance header');
  await expect(parts).toContainText('Every check passes.');
  await expect(parts.getByLabel('Header')).toContainText(instanceHex(2));
});
