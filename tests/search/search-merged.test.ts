/**
 * A search of a prefix in GreptimeDB's merged layout (GTWALOBJ, one object per flush holding
 * every region's segment) finds exactly what a brute-force replay of every region finds, for
 * conditions, time ranges, regions and id ranges, across a writer restart and a gap in the
 * sequences; a damaged segment is a hole of its region only, and the CLI exits 3 naming it.
 * The prefix is built by the merged layout's own test encoder (tests/greptimedb/merged). On the
 * local store, and on radosgw when CAIRN_S3_ENDPOINT is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverGtPrefix } from '../../src/main/engine/greptimedb/recover';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { WHOLE_PREFIX, type SearchScope } from '../../src/main/engine/search/plan';
import { openTargetReadOnly, type AnyReadOnlyLog } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import type { RowFilter } from '../../src/shared/greptime/row-filter';
import { MergedPrefixBuilder } from '../greptimedb/merged/merged-encoder';
import { runCairn } from '../support/cairn-cli';
import { s3Lane } from '../support/s3';
import {
  bruteForceRows,
  byRegionThenId,
  entryOf,
  linesOf,
  REGIONS,
  rowFilter,
  searchAll,
} from './search-prefix';

const MERGED_PREFIX = 'wal/datanodes/3/epochs/0';
/** The object whose region-2 segment is damaged. */
const DAMAGED_SEQ = 4n;

/** Six objects over four regions (one left out of some), a restart and a gap after the third. */
async function writeMergedSearchPrefix(io: ObjectIo): Promise<void> {
  const builder = new MergedPrefixBuilder(MERGED_PREFIX);
  for (let object = 0; object < 6; object++) {
    if (object === 3) builder.restart().skip(1n);
    builder.append(
      REGIONS.filter((_, at) => (object + at) % 4 !== 3).map(
        (region, at) =>
          [region, Array.from({ length: 2 + (at % 2) }, (_, e) => entryOf(object, at, e))] as const,
      ),
    );
  }
  builder.damageSegment(DAMAGED_SEQ, REGIONS[1]!);
  await builder.writeTo(io);
}

function search(io: ObjectIo, log: AnyReadOnlyLog, scope: SearchScope, rows: RowFilter) {
  return searchAll(io, log, { scope, filter: { rows, text: null }, limit: null });
}

const FILTERS: ReadonlyArray<readonly [string, RowFilter]> = [
  ['everything', rowFilter([])],
  ['a host', rowFilter(['host=web-3'])],
  ['a regex and op', rowFilter(['host~^web-[12]$', 'op=PUT'])],
  ['numeric', rowFilter(['cpu>80'])],
  ['time range', rowFilter([], '2026-01-01T01:00:00Z', '2026-01-01T02:30:00Z')],
];

const SCOPES: ReadonlyArray<readonly [string, SearchScope]> = [
  ['the whole prefix', WHOLE_PREFIX],
  ['two regions', { ...WHOLE_PREFIX, regions: new Set([REGIONS[0]!, REGIONS[1]!]) }],
  ['an id range', { ...WHOLE_PREFIX, fromId: (2n << 20n) | 2n, toId: (5n << 20n) | 1n }],
  ['newest first', { ...WHOLE_PREFIX, order: 'newest' }],
];

function mergedSuite(name: string, makeIo: () => Promise<ObjectIo>): void {
  describe(`search of a merged-layout prefix on ${name}`, () => {
    let io: ObjectIo;
    let log: AnyReadOnlyLog;

    beforeAll(async () => {
      io = await makeIo();
      await writeMergedSearchPrefix(io);
      log = await openTargetReadOnly(io, await resolveReadTarget(io, MERGED_PREFIX));
    });

    it('is read as the merged layout', async () => {
      expect((await recoverGtPrefix(io, MERGED_PREFIX)).layout).toBe('merged');
      expect(log.catalog.regions().map((r) => r.regionId)).toEqual(REGIONS);
    });

    it.each(FILTERS)('finds what a replay of every region finds: %s', async (_, filter) => {
      for (const [, scope] of SCOPES) {
        const expected = await bruteForceRows(log, scope, filter);
        const found = await search(io, log, scope, filter);
        expect(byRegionThenId(linesOf(found.hits))).toEqual(byRegionThenId(expected));
      }
    });

    it('names the damaged segment as a hole of its region only', async () => {
      const found = await search(io, log, WHOLE_PREFIX, rowFilter([]));
      expect(found.holes.map((hole) => [hole.regionId, hole.check])).toEqual([
        [REGIONS[1], 'segment-crc'],
      ]);
      const regions = new Set(found.hits.map((hit) => (hit.kind === 'row' ? hit.row.region : 0n)));
      expect([...regions].sort()).toEqual([...REGIONS].sort());
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-merged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = join(dir, 'store');
mergedSuite('the local store', async () => new LocalObjectIo(store));

describe('cairn wal search on a merged-layout prefix', () => {
  it('prints the hits and exits 3 with a hole line for the damaged segment', () => {
    const found = runCairn([
      ...['wal', 'search', '--dir', store, '--prefix', MERGED_PREFIX],
      ...['--where', 'host~web'],
    ]);
    expect(found.code).toBe(3);
    expect(found.stdout.trim().split('\n').length).toBeGreaterThan(10);
    expect(found.stderr).toMatch(/^cairn: hole: region 42:2 .*segment-crc check failed/m);
  });
});

const lane = s3Lane();
describe.skipIf(!lane)('radosgw', () => {
  afterAll(() => lane?.dispose());
  mergedSuite('radosgw', () => lane!.makeIo('search-merged'));
});
