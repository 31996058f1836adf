/**
 * The storage half of a garbage-collection pass: listing the WAL objects below a boundary and
 * deleting them in ascending order of sequence, in batches of up to `MAX_DELETE_BATCH` keys
 * (one `DeleteObjects` request each on S3, side-by-side unlinks on a local directory), one
 * batch after the other: 2,000 objects are two requests, where one delete each took 2,000
 * round trips. A key that fails is reported with its error and no later batch starts; what is
 * left is resumed by the next pass, which lists from the start again.
 * It must only ever be handed objects below a boundary whose CAS has passed; it decides
 * nothing itself, and it writes no audit: it returns what it deleted (keys, count, bytes) for
 * whoever records it.
 */
import { deleteKeys } from '../../objectio/batch-delete';
import { MAX_DELETE_BATCH, type ObjectIo } from '../../objectio/object-io';
import { objectsFolder, seqOfObjectKey } from '../keys';
import type { Seq } from '../ids';
import type { ListedWalObject } from './plan';

/** Every WAL object of `prefix` below `boundary` (all of them when `boundary` is null), ascending. */
export async function listObjectsBelow(
  io: ObjectIo,
  prefix: string,
  boundary: Seq | null,
): Promise<ListedWalObject[]> {
  const listed: ListedWalObject[] = [];
  for await (const page of io.list(objectsFolder(prefix))) {
    for (const object of page.objects) {
      const seq = seqOfObjectKey(prefix, object.key);
      if (seq !== null && (boundary === null || seq < boundary))
        listed.push({ key: object.key, seq, size: object.size });
    }
  }
  return listed.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

export interface DeleteOutcome {
  /** Objects deleted (or already gone), ascending. */
  readonly deleted: readonly ListedWalObject[];
  readonly bytes: number;
  /** Objects not deleted because a delete failed: the next pass takes them. */
  readonly remaining: number;
  /** The first delete failure, null when every delete passed. */
  readonly error: Error | null;
}

export interface DeleteHooks {
  readonly onDeleted?: (object: ListedWalObject) => void;
  readonly onFailed?: (object: ListedWalObject, error: unknown) => void;
}

/**
 * Deletes `objects` (ascending) batch after batch; stops before the next batch once a key
 * failed. A batch whose request failed as a whole counts every key of it as not deleted.
 */
export async function deleteAscending(
  io: ObjectIo,
  objects: readonly ListedWalObject[],
  hooks: DeleteHooks = {},
): Promise<DeleteOutcome> {
  const done = new Set<string>();
  let error: Error | null = null;
  for (let at = 0; at < objects.length && error === null; at += MAX_DELETE_BATCH) {
    const batch = objects.slice(at, at + MAX_DELETE_BATCH);
    const byKey = new Map(batch.map((object) => [object.key, object]));
    try {
      const result = await deleteKeys(io, [...byKey.keys()]);
      for (const key of result.deleted) done.add(key);
      for (const { key, error: failure } of result.failed) {
        hooks.onFailed?.(byKey.get(key)!, failure);
        error ??= failure;
      }
    } catch (failure) {
      for (const object of batch) hooks.onFailed?.(object, failure);
      error = failure instanceof Error ? failure : new Error(String(failure));
    }
  }
  const deleted = objects.filter((object) => done.has(object.key));
  for (const object of deleted) hooks.onDeleted?.(object);
  return {
    deleted,
    bytes: deleted.reduce((sum, object) => sum + object.size, 0),
    remaining: objects.length - deleted.length,
    error,
  };
}
