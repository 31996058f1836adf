/**
 * Where an "obsolete up to" point lands in one region: its latest durable id, an entry id (at
 * most the latest), or a time. A time maps to the newest id written at or before it: the
 * longest run of the chain, from its first object, whose objects were all last modified at or
 * before the time, and in it the region's last id. Objects carry no write time of their own,
 * so the store's modification time stands for it; the run stops at the first later (or
 * untimed) object, so an entry written after the time is never hidden, even when uploads
 * finished out of order. Pure: the catalog and the times come from the caller.
 */
import type { ObsoletePoint } from '../../../shared/contract/wal-bulk-obsolete';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import type { EntryId, Seq } from '../../engine/wal/ids';
import type { RegionId } from '../../engine/wal/region-id';

/** The chain object a time maps to: the last of the run written by then. */
export interface TimedObject {
  readonly seq: Seq;
  readonly modifiedAtMs: number;
}

/**
 * The last object of the longest run of `chain` (ascending) whose objects were all modified at
 * or before `atMs`; null when the first one was not (or no time is known for it).
 */
export function chainObjectAt(
  chain: Iterable<{ readonly seq: Seq }>,
  modifiedAtMs: ReadonlyMap<Seq, number>,
  atMs: number,
): TimedObject | null {
  let last: TimedObject | null = null;
  for (const object of chain) {
    const at = modifiedAtMs.get(object.seq);
    if (at === undefined || at > atMs) break;
    last = { seq: object.seq, modifiedAtMs: at };
  }
  return last;
}

/** The region's last id in the objects up to sequence `seq` (0: none of them holds it). */
export function regionIdThrough(catalog: ObjectCatalog, region: RegionId, seq: Seq): EntryId {
  let id: EntryId = 0n;
  for (const segment of catalog.objectsForRegion(region, 1n)) {
    if (segment.seq > seq) break;
    id = segment.lastId;
  }
  return id;
}

/** What a point resolves to in one region: the id, and for a time the object it maps to. */
export function resolvePoint(
  point: ObsoletePoint,
  region: RegionId,
  latest: EntryId,
  catalog: ObjectCatalog,
  objectAt: (atMs: number) => TimedObject | null,
): { id: EntryId; mappedTo: TimedObject | null } {
  if (point.kind === 'latest') return { id: latest, mappedTo: null };
  if (point.kind === 'id') return { id: point.id, mappedTo: null };
  const mapped = objectAt(point.atMs);
  return {
    id: mapped === null ? 0n : regionIdThrough(catalog, region, mapped.seq),
    mappedTo: mapped,
  };
}
