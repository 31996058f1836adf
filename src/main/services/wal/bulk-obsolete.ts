/**
 * Bulk obsolete: several regions of one prefix (or every region) obsoleted up to a point each,
 * from one preview. Everything is resolved and checked before anything changes - an unknown
 * region (`RegionNotFound`), an id above a region's latest (`ObsoleteAboveLatest`) - so bad
 * input changes nothing; then the writer this app holds raises the watermarks one region at a
 * time, and a failure midway stops the rest with `BulkObsoleteStopped`, which says which
 * regions were applied, which failed and which never ran (the audit log records each). The
 * preview reads the writer's catalog, or the prefix's read model when no writer is open here.
 * Never checks access or confirmations (the router does).
 */
import type { CallCredit } from '../audit/call-credit';
import type { RegionRow } from '../../../shared/contract/wal';
import type {
  BulkObsoleteRegion,
  BulkObsoleteView,
  ObsoletePoint,
} from '../../../shared/contract/wal-bulk-obsolete';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { isCairnError } from '../../engine/errors';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import { listObjectsFrom } from '../../engine/wal/recovery';
import type { ControlState } from '../../engine/wal/session';
import type { AppWriter } from './app-writer';
import {
  BulkObsoleteStoppedError,
  ObsoleteAboveLatestError,
  RegionNotFoundError,
  type BulkObsoleteOutcome,
} from './errors';
import { deletesAfterObsolete } from './obsolete-deletes';
import { chainObjectAt, resolvePoint, type TimedObject } from './obsolete-points';
import { previewObsolete } from './obsolete-preview';
import type { PrefixSnapshot } from './read-model/prefix-model';
import { readOnlyLogOfSnapshot, regionRowsOfSnapshot } from './read-model/snapshot-views';
import type { CairnLocated } from './wal-locate';

export interface BulkObsoleteRequest {
  readonly regions:
    'all' | ReadonlyArray<{ readonly region: bigint; readonly upTo?: ObsoletePoint }>;
  readonly upTo: ObsoletePoint;
}

/** What a bulk is judged on: the chain, the control state, and the regions with their latest ids. */
export interface BulkSource {
  readonly catalog: ObjectCatalog;
  /** Null when the prefix's control state is unknown (no collection can be foreseen). */
  readonly control: Pick<ControlState, 'watermarks' | 'boundary'> | null;
  readonly regions: readonly RegionRow[];
}

/** The writer's live catalog and durable ids, or the read model's recovery. */
export async function bulkSourceOf(
  at: CairnLocated,
  writer: AppWriter | undefined,
  snapshotOf: () => Promise<PrefixSnapshot>,
): Promise<BulkSource> {
  if (writer !== undefined)
    return { catalog: writer.catalog, control: writer.control(), regions: writer.regions() };
  const snapshot = await snapshotOf();
  // A prefix that does not recover fails here with its recovery's typed error.
  const log = await readOnlyLogOfSnapshot(at.io, snapshot);
  return {
    catalog: log.catalog,
    control: snapshot.format === 'cairn-v1' ? (snapshot.inspected.recovery?.control ?? null) : null,
    regions: regionRowsOfSnapshot(snapshot).rows,
  };
}

function targetsOf(
  prefix: string,
  request: BulkObsoleteRequest,
  regions: readonly RegionRow[],
): Array<{ row: RegionRow; upTo: ObsoletePoint }> {
  if (request.regions === 'all') return regions.map((row) => ({ row, upTo: request.upTo }));
  const byId = new Map(regions.map((row) => [row.regionId, row]));
  return request.regions.map((target) => {
    const row = byId.get(target.region);
    if (row === undefined) throw new RegionNotFoundError(prefix, formatRegionId(target.region));
    return { row, upTo: target.upTo ?? request.upTo };
  });
}

/** Each chain object's modification time, listed once, only when a point is a time. */
async function timesOf(
  at: CairnLocated,
  source: BulkSource,
  needed: boolean,
): Promise<(atMs: number) => TimedObject | null> {
  if (!needed) return () => null;
  const listed = await listObjectsFrom(at.io, at.prefix, source.control?.boundary ?? 0n);
  const times = new Map<bigint, number>();
  for (const object of listed)
    if (object.lastModifiedMs !== undefined) times.set(object.seq, object.lastModifiedMs);
  const chain = [...source.catalog.objects()];
  return (atMs) => chainObjectAt(chain, times, atMs);
}

/** What the bulk hides, region by region, and what the collection after it deletes. */
export async function previewBulkObsolete(
  at: CairnLocated,
  source: BulkSource,
  request: BulkObsoleteRequest,
): Promise<BulkObsoleteView> {
  const targets = targetsOf(at.prefix, request, source.regions);
  const objectAt = await timesOf(
    at,
    source,
    targets.some((target) => target.upTo.kind === 'time'),
  );
  const regions: BulkObsoleteRegion[] = targets.map(({ row, upTo }) => {
    const latest = row.durableId;
    const { id, mappedTo } = resolvePoint(upTo, row.regionId, latest, source.catalog, objectAt);
    if (id > latest)
      throw new ObsoleteAboveLatestError(at.prefix, formatRegionId(row.regionId), id, latest);
    const { deletes: _none, ...preview } = previewObsolete(
      source.catalog,
      row.regionId,
      id,
      latest,
    );
    return { ...preview, upTo, mappedTo };
  });
  const raises = new Map(
    regions.filter((region) => !region.noChange).map((region) => [region.region, region.id]),
  );
  const deletes =
    source.control === null || raises.size === 0
      ? null
      : await deletesAfterObsolete(
          at.io,
          at.prefix,
          source.catalog.objects(),
          source.control,
          raises,
        );
  return {
    prefix: at.prefix,
    regions,
    hiddenEntries: regions.reduce((sum, region) => sum + region.hiddenEntries, 0),
    deletes,
  };
}

/**
 * Previews, then raises each region's watermark on the writer, one region at a time (a region
 * whose watermark is already there is not touched); stops at the first failure.
 */
export async function applyBulkObsolete(
  at: CairnLocated,
  writer: AppWriter,
  request: BulkObsoleteRequest,
  credit?: CallCredit,
): Promise<BulkObsoleteView> {
  const view = await previewBulkObsolete(
    at,
    { catalog: writer.catalog, control: writer.control(), regions: writer.regions() },
    request,
  );
  const outcomes: BulkObsoleteOutcome[] = view.regions.map((region) => ({
    region: formatRegionId(region.region),
    id: formatEntryId(region.id),
    result: 'not-run',
  }));
  try {
    for (const [index, region] of view.regions.entries()) {
      const outcome = outcomes[index];
      if (outcome === undefined) continue;
      try {
        if (!region.noChange) await writer.raiseWatermark(region.region, region.id);
        outcome.result = 'ok';
      } catch (error) {
        outcome.result = 'error';
        const cause = isCairnError(error)
          ? { code: error.code, message: error.message }
          : { code: 'Internal', message: String(error) };
        throw new BulkObsoleteStoppedError(at.prefix, outcome.region, cause, outcomes);
      }
    }
  } finally {
    // One collection after the regions raised (all, or those before a failure), for the call.
    if (outcomes.some((outcome) => outcome.result === 'ok'))
      await writer.collectAfter(credit, 'wal.obsolete.bulk', {
        prefix: at.prefix,
        regions: outcomes.filter((o) => o.result === 'ok').map((o) => o.region),
      });
  }
  return view;
}
