/**
 * "Go to sequence" through the API (`wal.objects.locate`): an object's index in the list a
 * status filter keeps, whatever page holds it; null when that list does not hold it; a
 * sequence no object can have is refused typed. And a page says the newest sequence of its
 * whole list, which tells a written object from one a collection moved onto the page.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OutputOf } from '../../src/shared/contract';
import { failureOf, PREFIX, seed, walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

type Page = OutputOf<'wal.objects'>;
type Located = OutputOf<'wal.objects.locate'>;

describe('wal.objects.locate', () => {
  it('finds an object on a later page, and says when a filter leaves it out', async () => {
    app = await walApp();
    await seed(app.io, 40, 1);
    const all = (await app.call('wal.objects', { prefix: PREFIX, limit: 500 })) as Page;
    expect(all.total).toBeGreaterThan(3);
    expect(all.newestSeq).toBe(all.rows.at(-1)?.seq);
    const target = all.rows[all.rows.length - 2];
    if (target === undefined) throw new Error('objects expected');
    const found = (await app.call('wal.objects.locate', {
      prefix: PREFIX,
      seq: target.seq,
    })) as Located;
    expect(found).toMatchObject({ index: all.rows.length - 2, total: all.total });
    expect(found?.row.key).toBe(target.key);
    // The page of size 2 that the index names holds it.
    const index = found?.index ?? -1;
    const page = (await app.call('wal.objects', {
      prefix: PREFIX,
      offset: Math.floor(index / 2) * 2,
      limit: 2,
    })) as Page;
    expect(page.rows.map((row) => row.key)).toContain(target.key);
    expect(page.newestSeq).toBe(all.newestSeq);

    expect(
      await app.call('wal.objects.locate', { prefix: PREFIX, status: 'orphan', seq: target.seq }),
    ).toBeNull();
    expect(
      await app.call('wal.objects.locate', { prefix: PREFIX, seq: (all.newestSeq ?? 0n) + 1n }),
    ).toBeNull();
  });

  it('refuses a sequence at or above 2^44, typed', async () => {
    app = await walApp();
    const failure = await failureOf(
      app.call('wal.objects.locate', { prefix: PREFIX, seq: 1n << 44n }),
    );
    expect(failure).toMatchObject({ code: 'InvalidInput', details: { field: 'seq' } });
  });
});
