/**
 * What a search reads, decided from the catalog alone (the objects' footers): per object the
 * segments of the regions asked whose id range meets the one asked and rises above the
 * region's watermark, in newest-first or id order. An object with no such segment is never
 * read, and a segment left out is never fetched; the counts say how much was skipped so. Reads
 * nothing, holds one object's segments at a time (plus the sequences, for newest first).
 */
import type { ObjectCatalog, SegmentLocation, CatalogObject } from '../wal/catalog';
import type { SegmentIndex } from '../wal/format/layout';
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

function wanted(catalog: ObjectCatalog, scope: SearchScope, segment: SegmentIndex): boolean {
  if (scope.regions !== null && !scope.regions.has(segment.regionId)) return false;
  if (segment.lastId < scope.fromId) return false;
  if (scope.toId !== null && segment.firstId > scope.toId) return false;
  return segment.lastId > catalog.watermark(segment.regionId);
}

/** The segment with its object's key and sequence (a literal: a spread costs a search's plan). */
function locationOf(segment: SegmentIndex, object: CatalogObject): SegmentLocation {
  return {
    regionId: segment.regionId,
    firstId: segment.firstId,
    lastId: segment.lastId,
    entries: segment.entries,
    offset: segment.offset,
    length: segment.length,
    segmentCrc: segment.segmentCrc,
    key: object.key,
    seq: object.seq,
  };
}

/**
 * Counts what the plan keeps and leaves of `object` into `counts`, hands each kept segment to
 * `keep` (when given) and returns the kept segments' bytes.
 */
function planObject(
  catalog: ObjectCatalog,
  scope: SearchScope,
  object: CatalogObject,
  counts: PlanCounts,
  keep: ((segment: SegmentIndex) => void) | null,
): number {
  counts.catalogBytes += object.size;
  let kept = 0;
  let bytes = 0;
  for (const segment of object.segments) {
    if (!wanted(catalog, scope, segment)) continue;
    kept += 1;
    bytes += segment.length;
    keep?.(segment);
  }
  counts.segments += kept;
  counts.segmentsSkipped += object.segments.length - kept;
  if (kept === 0) counts.objectsSkipped += 1;
  else counts.objects += 1;
  return bytes;
}

function readOf(
  catalog: ObjectCatalog,
  scope: SearchScope,
  object: CatalogObject,
  counts: PlanCounts,
): ObjectRead | null {
  const segments: SegmentLocation[] = [];
  const bytes = planObject(catalog, scope, object, counts, (segment) =>
    segments.push(locationOf(segment, object)),
  );
  if (segments.length === 0) return null;
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

/** What a search of `scope` will read, counted without making its reads: the plan's totals. */
export function plannedTotals(
  catalog: ObjectCatalog,
  scope: SearchScope,
): { readonly counts: PlanCounts; readonly bytes: number } {
  const counts = newPlanCounts();
  let bytes = 0;
  for (const object of catalog.objects()) bytes += planObject(catalog, scope, object, counts, null);
  return { counts, bytes };
}
