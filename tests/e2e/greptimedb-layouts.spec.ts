/**
 * A GreptimeDB prefix in the other GTWALOBJ v1 layout (34-byte writer-instance header) in the
 * console: Batches says the prefix is `UnsupportedLayout` and lists its objects with their
 * layout, never `CorruptObject`; the object inspector names the layout, shows the writer
 * instance and finds every CRC sound.
 */
import { encodeGtWriterInstanceObject, gtObjectKey } from '../greptimedb/gt-encoder';
import { expect, test } from './fixtures';
import { openPrefix } from './open-prefix';

const PREFIX = 'datanodes/7/wal';
const INSTANCE = Uint8Array.from({ length: 16 }, (_, i) => 0xb0 + i);

test('objects in the writer-instance layout are named, never called corrupt', async ({
  page,
  store,
}) => {
  for (const seq of [1n, 2n])
    await store.io().putIfAbsent(
      gtObjectKey(PREFIX, seq),
      encodeGtWriterInstanceObject({
        seq,
        writerInstance: INSTANCE,
        segments: [
          {
            regionId: (1n << 32n) | 1n,
            entries: [{ id: (seq << 20n) | 1n, payload: Buffer.from('x') }],
          },
        ],
      }),
    );
  await store.open(page);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await openPrefix(page, PREFIX);
  await nav.getByRole('button', { name: 'Batches' }).click();
  const failure = page.getByRole('alert', { name: 'Open would fail' }).first();
  await expect(failure).toContainText('UnsupportedLayout');
  await expect(failure).toContainText('GTWALOBJ v1, writer-instance header');
  await expect(page.getByText('CorruptObject')).toHaveCount(0);
  const others = page.getByRole('table', { name: 'Objects in another layout' });
  await expect(others.locator('tbody tr')).toHaveCount(2);
  await expect(others).toContainText(Buffer.from(INSTANCE).toString('hex'));

  await nav.getByRole('button', { name: 'Bucket browser' }).click();
  await page.getByLabel('Prefix', { exact: true }).fill(`${PREFIX}/objects/`);
  await page.getByLabel('Prefix', { exact: true }).press('Enter');
  await page.getByText('00000000000000000002.wal').click();
  const parts = page.getByRole('region', { name: 'WAL object' });
  await expect(parts).toContainText('GTWALOBJ v1, writer-instance header');
  await expect(parts).toContainText('Every check passes.');
  await expect(parts.getByLabel('Header')).toContainText(Buffer.from(INSTANCE).toString('hex'));
  await expect(parts.getByText('CRC bad')).toHaveCount(0);
});
