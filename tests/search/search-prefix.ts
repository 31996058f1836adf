/**
 * Prefixes to search, and the brute-force answer a search must equal: every region replayed
 * whole through the read side's own region reads, each entry decoded to its table and each row
 * tested with `rowMatches` (GreptimeDB), or each payload searched for the text (Cairn).
 */
import * as arrow from 'apache-arrow';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import type { AnyReadOnlyLog } from '../../src/main/engine/wal-read/read-side';
import type { SearchScope } from '../../src/main/engine/search/plan';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { bulkRowsDecoder } from '../../src/shared/greptime/bulk/decode-bulk';
import { decodeEntryTable } from '../../src/shared/greptime/decode/decode-table';
import type { GtMutation, GtValue } from '../../src/shared/greptime/decode/wal-entry';
import { rowsOfEntry } from '../../src/shared/greptime/replay-rows';
import {
  parseCondition,
  parseUtcTime,
  rowMatches,
  type RowFilter,
} from '../../src/shared/greptime/row-filter';
import type { SkippedSegment } from '../../src/main/engine/wal/reader';
import type { DamagedPayload } from '../../src/main/services/wal/search/search-match';
import {
  newSearchCounts,
  runSearch,
  type SearchRequest,
} from '../../src/main/services/wal/search/search-run';
import { hitLine, type SearchHit } from '../../src/shared/search/search-hits';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { flipSegmentByte } from '../support/damaged-segment';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';

export const GT_PREFIX = 'datanodes/9/epochs/1';
export const REGIONS = [1, 2, 3, 4].map((n) => makeRegionId(42, n));
/** 2026-01-01T00:00:00Z in milliseconds. */
export const T0 = 1767225600000n;

const host = column('host', 12, 0);
const ts = column('ts', 16, 2);
const cpu = column('cpu', 10, 1);
const s = (value: string): GtValue => ({ kind: 'string', value });
const t = (value: bigint): GtValue => ({ kind: 'timestamp', unit: 'ms', value });
const f = (value: number): GtValue => ({ kind: 'f64', value });

/** A `WalEntry` of a deterministic mix: hosts web-0..web-9, cpu 0..99, a minute apart per row. */
export function entryOf(object: number, region: number, entry: number): Uint8Array {
  const rows: GtValue[][] = [];
  for (let row = 0; row < 3; row++) {
    const n = object * 31 + region * 7 + entry * 3 + row;
    rows.push([s(`web-${n % 10}`), t(T0 + BigInt(n) * 60_000n), n % 13 === 0 ? null : f(n % 100)]);
  }
  const mutation: GtMutation = {
    opType: (object + entry) % 5 === 0 ? 0 : 1,
    sequence: BigInt(object * 100 + entry * 3),
    rows: { schema: [host, ts, cpu], rows },
    primaryKeyEncoding: null,
  };
  return encodeWalEntry({ mutations: [mutation], bulkEntries: [] });
}

/**
 * A GreptimeDB prefix of `objects` objects over four regions (a region left out of some), with
 * one segment damaged when `damage` (its CRC fails: a hole of that region only).
 */
export async function writeGtSearchPrefix(io: ObjectIo, objects = 8, damage = true): Promise<void> {
  const builder = new GtPrefixBuilder(GT_PREFIX);
  builder.openInstance();
  for (let object = 0; object < objects; object++) {
    const regions = REGIONS.filter((_, at) => (object + at) % 4 !== 3).map(
      (region, at) =>
        [region, Array.from({ length: 2 + (at % 2) }, (_, e) => entryOf(object, at, e))] as const,
    );
    builder.append(regions);
  }
  await builder.writeTo(io);
  if (!damage) return;
  const log = await openGtReadOnly(io, GT_PREFIX);
  const segment = log.catalog.objectsForRegion(REGIONS[1]!, 1n)[2];
  if (segment === undefined) throw new Error('no segment to damage');
  await flipSegmentByte(io, segment);
}

function inScope(scope: SearchScope, region: bigint, id: bigint): boolean {
  return (
    (scope.regions === null || scope.regions.has(region)) &&
    id >= scope.fromId &&
    (scope.toId === null || id <= scope.toId)
  );
}

const decodeBulk = bulkRowsDecoder(arrow);

/**
 * Every region replayed whole (holes skipped), as `wal replay --rows` does - its bulk entries'
 * rows decoded after its mutations' - each row tested one by one: the hit lines.
 */
export async function bruteForceRows(
  log: AnyReadOnlyLog,
  scope: SearchScope,
  filter: RowFilter,
): Promise<string[]> {
  const lines: string[] = [];
  for (const { regionId } of log.catalog.regions())
    for await (const entry of log.read({ prefix: log.prefix, regionId }, 1n, {
      onCorruptedSegment: 'skip',
    })) {
      if (!inScope(scope, regionId, entry.id)) continue;
      const decoded = decodeEntryTable(entry.data, decodeBulk);
      if (!decoded.ok) continue;
      for (const row of rowsOfEntry(regionId, entry.id, decoded.table))
        if (rowMatches(row, filter)) lines.push(hitLine({ kind: 'row', row }));
    }
  return lines;
}

/** Every region replayed whole: the entries whose payload holds `text`. */
export async function bruteForceEntries(
  log: AnyReadOnlyLog,
  scope: SearchScope,
  text: string | null,
): Promise<string[]> {
  const lines: string[] = [];
  for (const { regionId } of log.catalog.regions())
    for await (const entry of log.read({ prefix: log.prefix, regionId }, 1n, {
      onCorruptedSegment: 'skip',
    })) {
      if (!inScope(scope, regionId, entry.id)) continue;
      if (text !== null && !Buffer.from(entry.data).toString('utf8').includes(text)) continue;
      lines.push(
        hitLine({ kind: 'entry', entry: { region: regionId, id: entry.id, data: entry.data } }),
      );
    }
  return lines;
}

/** Hit lines in (region, id) order, for comparing a search with a region-by-region replay. */
export function byRegionThenId(lines: readonly string[]): string[] {
  const key = (line: string): [bigint, bigint] => {
    const parsed = JSON.parse(line) as { regionU64: string; idU64: string };
    return [BigInt(parsed.regionU64), BigInt(parsed.idU64)];
  };
  return lines
    .map((line, at) => ({ line, at, key: key(line) }))
    .sort((a, b) =>
      a.key[0] !== b.key[0]
        ? a.key[0] < b.key[0]
          ? -1
          : 1
        : a.key[1] !== b.key[1]
          ? a.key[1] < b.key[1]
            ? -1
            : 1
          : a.at - b.at,
    )
    .map((x) => x.line);
}

export function linesOf(hits: readonly SearchHit[]): string[] {
  return hits.map(hitLine);
}

/** A row filter of `--where` texts and an optional `--since` / `--until`. */
export function rowFilter(where: readonly string[], since?: string, until?: string): RowFilter {
  return {
    conditions: where.map((text) => {
      const condition = parseCondition(text);
      if (condition instanceof Error) throw condition;
      return condition;
    }),
    since: since === undefined ? null : parseUtcTime(since),
    until: until === undefined ? null : parseUtcTime(until),
  };
}

/** A whole search of `log`: its hits, holes and payloads without rows, and its counts. */
export async function searchAll(io: ObjectIo, log: AnyReadOnlyLog, request: SearchRequest) {
  const hits: SearchHit[] = [];
  const holes: SkippedSegment[] = [];
  const damaged: DamagedPayload[] = [];
  const counts = newSearchCounts(log, request.scope);
  for await (const step of runSearch(io, log, request, {}, counts)) {
    hits.push(...step.hits);
    holes.push(...step.holes);
    damaged.push(...step.damaged);
  }
  return { hits, holes, damaged, counts };
}
