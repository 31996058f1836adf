/**
 * The storage half of a garbage-collection pass: listing the WAL objects below a boundary and
 * deleting them in ascending order of sequence, at most `DELETE_CONCURRENCY` in flight. A
 * failed delete stops new ones from starting (the deletes in flight are awaited, none is left
 * floating); what is left is resumed by the next pass, which lists from the start again.
 * It must only ever be handed objects below a boundary whose CAS has passed; it decides
 * nothing itself.
 */
import type { ObjectIo } from '../../objectio/object-io';
import { mapBounded } from '../recovery';
import { objectsFolder, seqOfObjectKey } from '../keys';
import type { Seq } from '../ids';
import type { ListedWalObject } from './plan';

/** Deletes in flight at once (control.md point 5). */
export const DELETE_CONCURRENCY = 4;

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

/** Deletes `objects` (ascending) with bounded concurrency; stops starting new ones after a failure. */
export async function deleteAscending(
  io: ObjectIo,
  objects: readonly ListedWalObject[],
  hooks: DeleteHooks = {},
  concurrency = DELETE_CONCURRENCY,
): Promise<DeleteOutcome> {
  const done = new Set<ListedWalObject>();
  let error: Error | null = null;
  try {
    await mapBounded(objects, concurrency, async (object) => {
      try {
        await io.delete(object.key);
      } catch (failure) {
        hooks.onFailed?.(object, failure);
        throw failure;
      }
      done.add(object);
      hooks.onDeleted?.(object);
    });
  } catch (failure) {
    error = failure instanceof Error ? failure : new Error(String(failure));
  }
  const deleted = objects.filter((object) => done.has(object));
  return {
    deleted,
    bytes: deleted.reduce((sum, object) => sum + object.size, 0),
    remaining: objects.length - deleted.length,
    error,
  };
}
