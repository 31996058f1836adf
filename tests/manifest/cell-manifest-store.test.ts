import { describe, expect, it } from 'vitest';
import { CellCorruptError } from '../../src/main/engine/cas/errors';
import {
  CellManifestStore,
  manifestCellOf,
} from '../../src/main/engine/manifest/cell-manifest-store';
import { MemoryManifestStore } from '../../src/main/engine/manifest/memory-manifest-store';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';

describe('CellManifestStore', () => {
  it('keeps the register as a cell at <prefix>/manifest', async () => {
    expect(manifestCellOf('stores/orders/wal')).toBe('stores/orders/wal/manifest');
    expect(manifestCellOf('stores/orders/wal/')).toBe('stores/orders/wal/manifest');
    expect(manifestCellOf('')).toBe('manifest');
    const io = new MemoryObjectIo();
    const store = new CellManifestStore(io, 'stores/orders/wal', { writerId: 'opener' });
    const created = await store.create({ 'cairn.writer_epoch': '1' });
    await store.update(created.version, { 'cairn.writer_epoch': '2' });
    const page = await io.listPage('stores/orders/wal/');
    expect(page.objects.map((o) => o.key)).toEqual([
      'stores/orders/wal/manifest/00000000000000000001.json',
      'stores/orders/wal/manifest/00000000000000000002.json',
    ]);
    expect(
      (await store.history()).map((h) => [h.version, h.writerId, h.fields['cairn.writer_epoch']]),
    ).toEqual([
      [2, 'opener', '2'],
      [1, 'opener', '1'],
    ]);
  });

  it('takes its directory budget from its options', () => {
    expect(
      new CellManifestStore(new MemoryObjectIo(), 'p', {
        maxDirectoryBytes: 6144,
      }).maxDirectoryBytes(),
    ).toBe(6144);
    expect(new MemoryManifestStore({ maxDirectoryBytes: 100 }).maxDirectoryBytes()).toBe(100);
  });

  it('reports a corrupted read as a Backend error and an unavailable store as Unavailable', async () => {
    const faulty = new FaultyObjectIo(new MemoryObjectIo());
    const store = new CellManifestStore(faulty, 'p');
    await store.create({ k: 'v' });
    faulty.inject({ op: 'get', kind: 'corrupt', count: 1 });
    const corrupt = await store.read().catch((e: unknown) => e);
    expect(corrupt).toBeInstanceOf(CellCorruptError);
    expect(corrupt).toMatchObject({ code: 'Backend' });
    faulty.inject({ op: 'listPage', kind: 'unavailable', count: 1 });
    await expect(store.read()).rejects.toMatchObject({ code: 'Unavailable' });
    expect((await store.read())?.fields).toEqual({ k: 'v' });
  });
});
