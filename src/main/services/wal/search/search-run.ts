/**
 * One search of a prefix, as the CLI and a search job run it: the engine's scan of the planned
 * objects (engine/search), each entry tested by the filter's matcher as it is decoded, hits
 * handed on object by object in the scan's order with the holes met there, until the scan ends
 * or `limit` hits are found. Keeps the counts progress shows: objects and bytes read of the
 * plan's, entries and rows looked at, hits per region. Holds one object's hits at a time.
 */
import { regionOfHit, type SearchHit } from '../../../../shared/search/search-hits';
import type { SearchParts } from '../../../../shared/search/search-request';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { plannedTotals, type SearchScope } from '../../../engine/search/plan';
import {
  newScanCounts,
  scanObjects,
  type ScanCounts,
  type ScanOptions,
  type SearchedLog,
} from '../../../engine/search/scan';
import type { SkippedSegment } from '../../../engine/wal/reader';
import { matcherOf, type DamagedPayload, type SearchFilter } from './search-match';

export interface SearchRequest {
  readonly scope: SearchScope;
  readonly filter: SearchFilter;
  /** Hits at most; null: all. */
  readonly limit: number | null;
}

export interface SearchCounts extends ScanCounts {
  /** Objects and bytes of the objects the plan reads, known before the first read. */
  readonly plannedObjects: number;
  readonly plannedBytes: number;
  rows: number;
  hits: number;
  holes: number;
  bulk: number;
  /** Bulk entries left out undecoded: their declared time range is outside the filter's. */
  bulkSkipped: number;
  /** Payloads and bulk entries that gave no rows. */
  damagedPayloads: number;
  hitsByRegion: Map<bigint, number>;
}

/** What one object gave: its hits, the holes met reading it, payloads that gave no rows. */
export interface SearchStep {
  readonly hits: readonly SearchHit[];
  readonly holes: readonly SkippedSegment[];
  readonly damaged: readonly DamagedPayload[];
}

/** What `parts` (a search as typed, read) asks of a search. */
export function searchRequestOfParts(parts: SearchParts): SearchRequest {
  return {
    scope: {
      regions: parts.regions === null ? null : new Set(parts.regions),
      fromId: parts.ids.from,
      toId: parts.ids.to,
      order: parts.order,
    },
    filter: { rows: parts.rows, text: parts.text },
    limit: parts.limit,
  };
}

/** The counts of a search of `log` before it reads: what its plan will read. */
export function newSearchCounts(log: SearchedLog, scope: SearchScope): SearchCounts {
  const planned = plannedTotals(log.catalog, scope);
  return {
    ...newScanCounts(),
    plannedObjects: planned.counts.objects,
    plannedBytes: planned.bytes,
    rows: 0,
    hits: 0,
    holes: 0,
    bulk: 0,
    bulkSkipped: 0,
    damagedPayloads: 0,
    hitsByRegion: new Map(),
  };
}

export async function* runSearch(
  io: ObjectIo,
  log: SearchedLog,
  request: SearchRequest,
  options: ScanOptions = {},
  counts: SearchCounts = newSearchCounts(log, request.scope),
): AsyncIterable<SearchStep> {
  const match = matcherOf(log.format, request.filter);
  let holes: SkippedSegment[] = [];
  const scanOptions: ScanOptions = {
    ...options,
    onSkipped: (skipped) => {
      counts.holes += 1;
      holes.push(skipped);
      options.onSkipped?.(skipped);
    },
  };
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  for await (const object of scanObjects(io, log, request.scope, scanOptions, counts)) {
    const hits: SearchHit[] = [];
    const damaged: DamagedPayload[] = [];
    for (const segment of object.segments) {
      const region = segment.location.regionId;
      for (const entry of segment.entries) {
        const verdict = match(region, entry);
        counts.rows += verdict.rows;
        counts.bulk += verdict.bulk;
        counts.bulkSkipped += verdict.bulkSkipped;
        if (verdict.damaged.length > 0) {
          counts.damagedPayloads += verdict.damaged.length;
          damaged.push(...verdict.damaged);
        }
        for (const hit of verdict.hits) {
          if (counts.hits >= limit) break;
          hits.push(hit);
          counts.hits += 1;
          const at = regionOfHit(hit);
          counts.hitsByRegion.set(at, (counts.hitsByRegion.get(at) ?? 0) + 1);
        }
      }
    }
    const step = { hits, holes, damaged };
    holes = [];
    yield step;
    if (counts.hits >= limit) return;
  }
}
