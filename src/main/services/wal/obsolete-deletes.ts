/**
 * What the garbage collection that follows an obsolete would delete (a writer of this app
 * collects after every obsolete, as the engine's `gcAfterObsolete` does): the boundary the
 * collection rule gives once the region's watermark is raised, and every listed object below
 * it - the objects, their bytes and the first and last key - so the obsolete's preview and
 * its confirmation can say so before anything is deleted. Also the whole obsolete preview of
 * a prefix, from the writer this app holds or from the prefix's read model. Lists the
 * prefix's objects below that boundary; never writes.
 */
import type { ObsoletePreview } from '../../../shared/contract/wal';
import type { ObjectIo } from '../../engine/objectio/object-io';
import {
  collectionBoundary,
  listObjectsBelow,
  planDeletes,
  type CollectableObject,
} from '../../engine/wal/gc';
import type { ControlState } from '../../engine/wal/session';
import type { AppWriter } from './app-writer';
import { previewObsolete } from './obsolete-preview';
import type { PrefixSnapshot } from './read-model/prefix-model';
import { readOnlyLogOfSnapshot } from './read-model/snapshot-views';
import type { CairnLocated } from './wal-locate';

/**
 * What the collection after raising the watermarks in `raises` (region -> id; a raise below
 * a watermark changes nothing) deletes: one obsolete, or a bulk of them.
 */
export async function deletesAfterObsolete(
  io: ObjectIo,
  prefix: string,
  chain: Iterable<CollectableObject>,
  control: Pick<ControlState, 'watermarks' | 'boundary'>,
  raises: ReadonlyMap<bigint, bigint>,
): Promise<ObsoletePreview['deletes']> {
  const watermarks = new Map(control.watermarks);
  for (const [region, id] of raises)
    if (id > (watermarks.get(region) ?? 0n)) watermarks.set(region, id);
  const boundary = collectionBoundary(chain, watermarks, control.boundary);
  const plan = planDeletes(await listObjectsBelow(io, prefix, boundary), boundary);
  const first = plan.deletes[0];
  const last = plan.deletes[plan.deletes.length - 1];
  if (first === undefined || last === undefined) return null;
  return {
    objects: plan.deletes.length,
    bytes: plan.bytes,
    firstKey: first.key,
    lastKey: last.key,
    boundary,
  };
}

/** What obsoleting `region` up to `id` hides, and what the collection after it deletes. */
export async function obsoletePreviewAt(
  at: CairnLocated,
  writer: AppWriter | undefined,
  snapshotOf: () => Promise<PrefixSnapshot>,
  region: bigint,
  id: bigint,
): Promise<ObsoletePreview> {
  if (writer !== undefined) {
    const chain = writer.catalog.objects();
    const deletes = await deletesAfterObsolete(
      at.io,
      at.prefix,
      chain,
      writer.control(),
      new Map([[region, id]]),
    );
    return { ...writer.previewObsolete(region, id), deletes };
  }
  const snapshot = await snapshotOf();
  // A prefix that does not recover fails here with its recovery's typed error.
  const log = await readOnlyLogOfSnapshot(at.io, snapshot);
  const preview = previewObsolete(log.catalog, region, id);
  const control = snapshot.format === 'cairn-v1' ? snapshot.inspected.recovery?.control : undefined;
  if (control === undefined) return preview;
  const deletes = await deletesAfterObsolete(
    at.io,
    at.prefix,
    log.catalog.objects(),
    control,
    new Map([[region, id]]),
  );
  return { ...preview, deletes };
}
