/**
 * Lists a WAL prefix's objects from a sequence on (recovery, inspect, verify): paged, starting
 * after the key just below `from`, keeping only names that parse as WAL objects and sorting by
 * the parsed sequence - the listing's own order is never assumed. Reads no object.
 */
import type { ObjectIo, ObjectMeta } from '../../objectio/object-io';
import type { Seq } from '../ids';
import { objectsFolder, objectsStartAfter, seqOfObjectKey } from '../keys';

export interface ListedObject {
  readonly key: string;
  readonly seq: Seq;
  readonly size: number;
  /** As listed: what tells a replaced object from the one read before (`ScanMemo`). */
  readonly etag?: string;
  readonly lastModifiedMs?: number;
}

export function compareSeq(a: { seq: Seq }, b: { seq: Seq }): number {
  return a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0;
}

/**
 * The WAL objects of `prefix` at sequence `from` or above, one listing page at a time, in the
 * listing's order (recovery starts reading tails while the listing goes on); only keys after
 * `after` when given (a read model that knows the objects up to that key).
 */
export async function* listObjectPages(
  io: ObjectIo,
  prefix: string,
  from: Seq = 0n,
  after: string | undefined = objectsStartAfter(prefix, from),
): AsyncIterable<ListedObject[]> {
  for await (const page of io.list(objectsFolder(prefix), { startAfter: after }))
    yield listedObjectsOf(prefix, page.objects, from);
}

/** The objects of a listing page that are WAL objects of `prefix` at sequence `from` or above. */
export function listedObjectsOf(
  prefix: string,
  objects: readonly ObjectMeta[],
  from: Seq,
): ListedObject[] {
  const listed: ListedObject[] = [];
  for (const object of objects) {
    const seq = seqOfObjectKey(prefix, object.key);
    if (seq !== null && seq >= from)
      listed.push({
        key: object.key,
        seq,
        size: object.size,
        etag: object.etag,
        lastModifiedMs: object.lastModified?.getTime(),
      });
  }
  return listed;
}

/** Every WAL object of `prefix` at sequence `from` or above, ascending by sequence. */
export async function listObjectsFrom(
  io: ObjectIo,
  prefix: string,
  from: Seq = 0n,
): Promise<ListedObject[]> {
  const listed: ListedObject[] = [];
  for await (const page of listObjectPages(io, prefix, from)) listed.push(...page);
  return listed.sort(compareSeq);
}
