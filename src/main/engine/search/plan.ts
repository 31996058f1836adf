/**
 * What a search reads, decided from the catalog alone (the objects' footers): per object the
 * segments of the regions asked whose id range meets the one asked and rises above the
 * region's watermark, in newest-first or id order. An object with no such segment is never
 * read, and a segment left out is never fetched; the counts say how much was skipped so. Reads
 * nothing, holds one object's segments at a time (plus the sequences, for newest first).
 */
import type { ObjectCatalog, SegmentLocation, CatalogObject } from '../wal/catalog';
import type { EntryId, Seq } from '../wal/ids';
import type { RegionId } from '../wal/region-id';

export type SearchOrder = 'newest' | 'ids';

export interface SearchScope {
  /** The regions to read; null: every region. */
  readonly regions: ReadonlySet<RegionId> | null;
  /** Ids from, inclusive (0: the first). */
  readonly fromId: EntryId;
  /** Ids to, inclusive (null: the last). */
  readonly toId: EntryId | null;
  readonly order: SearchOrder;
}

export const WHOLE_PREFIX: SearchScope = { regions: null, fromId: 0n, toId: null, order: 'ids' };

/** The segments of one object a search fetches. */
export interface ObjectRead {
  readonly key: string;
  readonly seq: Seq;
  /** In the footer's order. */
  readonly segments: readonly SegmentLocation[];
  /** Bytes of those segments. */
  readonly bytes: number;
}

/** What the plan left out, and what it kept, as it goes. */
export interface PlanCounts {
  objects: number;
  objectsSkipped: number;
  segments: number;
  segmentsSkipped: number;
  /** Bytes of the objects in the catalog (read or skipped). */
  catalogBytes: number;
}

export function newPlanCounts(): PlanCounts {
  return { objects: 0, objectsSkipped: 0, segments: 0, segmentsSkipped: 0, catalogBytes: 0 };
}

function wanted(catalog: ObjectCatalog, scope: SearchScope, segment: SegmentLocation): boolean {
  if (scope.regions !== null && !scope.regions.has(segment.regionId)) return false;
  if (segment.lastId < scope.fromId) return false;
  if (scope.toId !== null && segment.firstId > scope.toId) return false;
  return segment.lastId > catalog.watermark(segment.regionId);
}

function readOf(
  catalog: ObjectCatalog,
  scope: SearchScope,
  object: CatalogObject,
  counts: PlanCounts,
): ObjectRead | null {
  counts.catalogBytes += object.size;
  const segments: SegmentLocation[] = [];
  let bytes = 0;
  for (const segment of object.segments) {
    const location = { ...segment, key: object.key, seq: object.seq };
    if (!wanted(catalog, scope, location)) continue;
    segments.push(location);
    bytes += segment.length;
  }
  counts.segments += segments.length;
  counts.segmentsSkipped += object.segments.length - segments.length;
  if (segments.length === 0) {
    counts.objectsSkipped += 1;
    return null;
  }
  counts.objects += 1;
  return { key: object.key, seq: object.seq, segments, bytes };
}

/** The catalog's objects in the scope's order, without holding them all. */
function* objectsInOrder(catalog: ObjectCatalog, order: SearchOrder): Iterable<CatalogObject> {
  if (order === 'ids') {
    yield* catalog.objects();
    return;
  }
  const seqs: Seq[] = [];
  for (const object of catalog.objects()) seqs.push(object.seq);
  for (let at = seqs.length - 1; at >= 0; at--) {
    const object = catalog.object(seqs[at]!);
    if (object !== undefined) yield object;
  }
}

/** The objects a search reads, each with the segments it needs, in the scope's order. */
export function* objectReads(
  catalog: ObjectCatalog,
  scope: SearchScope,
  counts: PlanCounts = newPlanCounts(),
): Iterable<ObjectRead> {
  for (const object of objectsInOrder(catalog, scope.order)) {
    const read = readOf(catalog, scope, object, counts);
    if (read !== null) yield read;
  }
}
