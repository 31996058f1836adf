/**
 * `deleteKeys` over a store without a batch delete of its own: the keys deleted one by one in
 * ascending order, each failure reported with its typed error and never thrown; a batch over
 * the limit refused before anything is deleted.
 */
import { describe, expect, it } from 'vitest';
import { deleteKeys } from '../../src/main/engine/objectio/batch-delete';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { bytesOf, storageFailure } from './object-io-contract';

/** `inner` without its `deleteMany`, deletes recorded in order. */
function oneByOne(inner: ObjectIo): ObjectIo & { deleted: string[] } {
  const deleted: string[] = [];
  return {
    endpoint: inner.endpoint,
    deleted,
    putIfAbsent: (key, bytes) => inner.putIfAbsent(key, bytes),
    get: (key, range) => inner.get(key, range),
    head: (key) => inner.head(key),
    listPage: (prefix, options) => inner.listPage(prefix, options),
    list: (prefix, options) => inner.list(prefix, options),
    delete: async (key) => {
      deleted.push(key);
      await inner.delete(key);
    },
  };
}

describe('deleteKeys without a batch delete', () => {
  it('deletes key by key in ascending order, reporting each failure', async () => {
    const faulty = new FaultyObjectIo(new MemoryObjectIo());
    for (const key of ['k/a', 'k/b', 'k/c']) await faulty.putIfAbsent(key, bytesOf(key));
    faulty.inject({ op: 'delete', key: /k\/b/, kind: 'backend' });
    const io = oneByOne(faulty);
    const result = await deleteKeys(io, ['k/c', 'k/b', 'k/a', 'k/a']);
    expect(io.deleted).toEqual(['k/a', 'k/b', 'k/c']);
    expect(result.deleted).toEqual(['k/a', 'k/c']);
    expect(result.failed.map(({ key, error }) => [key, error.code])).toEqual([['k/b', 'Backend']]);
  });

  it('refuses more than 1,000 keys before deleting any', async () => {
    const io = oneByOne(new MemoryObjectIo());
    const keys = Array.from({ length: 1_001 }, (_, i) => `k/${i}`);
    await storageFailure(
      Promise.resolve().then(() => deleteKeys(io, keys)),
      'Backend',
    );
    expect(io.deleted).toEqual([]);
  });
});
