/**
 * The batch delete contract (`deleteMany`), run against every backend beside the ObjectIo
 * contract: a full batch of 1,000 keys in one call, absent keys counted as deleted, the keys
 * answered ascending and nothing outside the batch touched; a batch over the limit refused
 * whole, deleting nothing; and, on the local directory, a key that cannot name a file
 * reported failed while the rest of its batch goes.
 */
import { describe, expect, it } from 'vitest';
import { deleteKeys } from '../../src/main/engine/objectio/batch-delete';
import { isStorageError } from '../../src/main/engine/objectio/errors';
import { MAX_DELETE_BATCH, objectsUnder } from '../../src/main/engine/objectio/object-io';
import { createAll, storageFailure, type MakeObjectIo } from './object-io-contract';

async function keysUnder(io: Awaited<ReturnType<MakeObjectIo>>, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of objectsUnder(io, prefix)) keys.push(object.key);
  return keys;
}

export function batchDeleteContract(name: string, makeIo: MakeObjectIo): void {
  describe(`ObjectIo batch delete contract: ${name}`, () => {
    it('deletes a full batch of 1,000 keys in one call, absent keys included, nothing else', async () => {
      const io = await makeIo();
      expect(io.deleteMany).toBeTypeOf('function');
      const batch = Array.from(
        { length: MAX_DELETE_BATCH },
        (_, i) => `gc/o/${String(i).padStart(4, '0')}`,
      ).reverse();
      // Every tenth key holds an object (fast on every backend); the others are absent.
      await createAll(io, [...batch.filter((_, i) => i % 10 === 0), 'gc/kept/a', 'gc/o-kept']);
      expect(batch).toHaveLength(MAX_DELETE_BATCH);
      const result = await io.deleteMany!(batch);
      expect(result.failed).toEqual([]);
      expect(result.deleted).toEqual([...batch].sort());
      expect(await keysUnder(io, 'gc/')).toEqual(['gc/kept/a', 'gc/o-kept']);
      // Again: every key is absent now, and absent keys count as deleted.
      expect((await deleteKeys(io, batch)).deleted).toHaveLength(MAX_DELETE_BATCH);
    });

    it('refuses a batch over 1,000 keys with Backend, deleting nothing', async () => {
      const io = await makeIo();
      await createAll(io, ['big/0000']);
      const batch = Array.from(
        { length: MAX_DELETE_BATCH + 1 },
        (_, i) => `big/${String(i).padStart(4, '0')}`,
      );
      await storageFailure(
        Promise.resolve().then(() => io.deleteMany!(batch)),
        'Backend',
        'big/0000',
      );
      expect(await keysUnder(io, 'big/')).toEqual(['big/0000']);
    });

    it('answers an empty batch with nothing deleted', async () => {
      const io = await makeIo();
      expect(await io.deleteMany!([])).toEqual({ deleted: [], failed: [] });
    });
  });
}

/** The local directory's per-key failure: a key no file can have, reported; the rest deleted. */
export function localBatchFailureContract(makeIo: MakeObjectIo): void {
  it('reports a key that cannot name a file and deletes the rest of its batch', async () => {
    const io = await makeIo();
    await createAll(io, ['bad/a', 'bad/b']);
    const result = await io.deleteMany!(['bad/b', 'bad/../escape', 'bad/a']);
    expect(result.deleted).toEqual(['bad/a', 'bad/b']);
    expect(result.failed.map(({ key }) => key)).toEqual(['bad/../escape']);
    expect(isStorageError(result.failed[0]!.error, 'Backend')).toBe(true);
    expect(await keysUnder(io, 'bad/')).toEqual([]);
  });
}
