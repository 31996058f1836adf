/** DATA_DIR/ui-place.json: the console's last place, kept per data directory, never trusted blindly. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UiPlaceFile } from '../../src/main/services/ui-place/ui-place-file';
import { UiPlaceHash } from '../../src/shared/contract/ui-place';

const dir = mkdtempSync(join(tmpdir(), 'cairn-ui-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the remembered place', () => {
  it('is null before anything is saved, then the last place saved', async () => {
    const file = new UiPlaceFile(join(dir, 'a'));
    expect(await file.read()).toBeNull();
    await Promise.all([
      file.save('#/overview?c=embedded'),
      file.save('#/replay?c=embedded&p=wal%2Fnodes%2F0%2Fgenerations%2F0'),
    ]);
    expect((await file.read())?.hash).toBe(
      '#/replay?c=embedded&p=wal%2Fnodes%2F0%2Fgenerations%2F0',
    );
    // Another data directory keeps its own.
    expect(await new UiPlaceFile(join(dir, 'b')).read()).toBeNull();
  });

  it('ignores a file that is not its own (not JSON, another shape)', async () => {
    for (const [name, text] of [
      ['garbage', '{not json'],
      ['foreign', JSON.stringify({ version: 2, place: { hash: '#/x', savedAt: 'now' } })],
      [
        'hostile',
        JSON.stringify({ version: 1, place: { hash: 'javascript:alert(1)', savedAt: 'now' } }),
      ],
    ] as const) {
      const folder = join(dir, name);
      await new UiPlaceFile(folder).save('#/overview');
      writeFileSync(join(folder, 'ui-place.json'), text);
      expect(await new UiPlaceFile(folder).read(), name).toBeNull();
    }
  });

  it('takes only a hash route at the boundary', () => {
    expect(UiPlaceHash.safeParse('#/overview?c=embedded').success).toBe(true);
    for (const bad of ['', '/overview', '#/a b', `#/${'x'.repeat(5000)}`])
      expect(UiPlaceHash.safeParse(bad).success, bad).toBe(false);
  });
});
