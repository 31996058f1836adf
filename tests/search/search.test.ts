/**
 * A search of a whole prefix finds exactly what a brute-force replay of every region finds
 * (search.md): the same row lines for every filter (conditions of each operator, time range,
 * regions, id range), in newest-first order the same set, a damaged segment a hole of its
 * region only; counts say what the plan skipped from the footers without reading it. On the
 * local store, and on radosgw when CAIRN_S3_ENDPOINT is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { WHOLE_PREFIX, type SearchScope } from '../../src/main/engine/search/plan';
import { openTargetReadOnly, type AnyReadOnlyLog } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import type { RowFilter } from '../../src/shared/greptime/row-filter';
import { s3Lane } from '../support/s3';
import { DAMAGE_PREFIX, writeDamagedPrefix } from '../support/damaged-segment';
import {
  bruteForceEntries,
  bruteForceRows,
  byRegionThenId,
  GT_PREFIX,
  linesOf,
  REGIONS,
  rowFilter,
  searchAll,
  writeGtSearchPrefix,
} from './search-prefix';

const search = searchAll;

const FILTERS: ReadonlyArray<readonly [string, RowFilter]> = [
  ['everything', rowFilter([])],
  ['equal', rowFilter(['host=web-3'])],
  ['not equal and op', rowFilter(['host!=web-3', 'op=DELETE'])],
  ['regex', rowFilter(['host~^web-[12]$'])],
  ['numeric', rowFilter(['cpu>90'])],
  ['numeric below, a null cell never matches', rowFilter(['cpu<5'])],
  ['time range', rowFilter([], '2026-01-01T01:00:00Z', '2026-01-01T02:30:00Z')],
  ['region key', rowFilter(['region=42:3', 'cpu>50'])],
  ['a column no row has', rowFilter(['disk='])],
];

const SCOPES: ReadonlyArray<readonly [string, SearchScope]> = [
  ['the whole prefix', WHOLE_PREFIX],
  ['two regions', { ...WHOLE_PREFIX, regions: new Set([REGIONS[0]!, REGIONS[1]!]) }],
  ['an id range', { ...WHOLE_PREFIX, fromId: (3n << 20n) | 2n, toId: (5n << 20n) | 1n }],
];

function searchSuite(name: string, makeIo: () => Promise<ObjectIo>): void {
  describe(`search on ${name}`, () => {
    let io: ObjectIo;
    let log: AnyReadOnlyLog;

    beforeAll(async () => {
      io = await makeIo();
      await writeGtSearchPrefix(io);
      log = await openTargetReadOnly(io, await resolveReadTarget(io, GT_PREFIX));
    });

    it.each(FILTERS)('finds what a replay of every region finds: %s', async (_, filter) => {
      for (const [, scope] of SCOPES) {
        const expected = await bruteForceRows(log, scope, filter);
        const found = await search(io, log, {
          scope,
          filter: { rows: filter, text: null },
          limit: null,
        });
        expect(byRegionThenId(linesOf(found.hits))).toEqual(byRegionThenId(expected));
      }
    });

    it('newest first finds the same hits, the newest object first', async () => {
      const filter = { rows: rowFilter(['host~web-[0-4]']), text: null };
      const ids = await search(io, log, { scope: WHOLE_PREFIX, filter, limit: null });
      const newest = await search(io, log, {
        scope: { ...WHOLE_PREFIX, order: 'newest' },
        filter,
        limit: null,
      });
      expect(byRegionThenId(linesOf(newest.hits))).toEqual(byRegionThenId(linesOf(ids.hits)));
      const seqs = newest.hits.map((hit) => (hit.kind === 'row' ? hit.row.id >> 20n : -1n));
      expect(seqs).toEqual([...seqs].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    });

    it('names the damaged segment as a hole of its region, and reads the others', async () => {
      const found = await search(io, log, {
        scope: WHOLE_PREFIX,
        filter: { rows: rowFilter([]), text: null },
        limit: null,
      });
      expect(found.holes.map((hole) => [hole.regionId, hole.check])).toEqual([
        [REGIONS[1], 'segment-crc'],
      ]);
      expect(found.counts.holes).toBe(1);
      const regionsHit = new Set(
        found.hits.map((hit) => (hit.kind === 'row' ? hit.row.region : 0n)),
      );
      expect([...regionsHit].sort()).toEqual([...REGIONS].sort());
    });

    it('skips regions and ids from the footers, reading no byte of them', async () => {
      const one = await search(io, log, {
        scope: { ...WHOLE_PREFIX, regions: new Set([REGIONS[3]!]) },
        filter: { rows: rowFilter([]), text: null },
        limit: null,
      });
      const whole = await search(io, log, {
        scope: WHOLE_PREFIX,
        filter: { rows: rowFilter([]), text: null },
        limit: null,
      });
      // Objects 0 and 4 lack the region; the start object holds no segment at all.
      expect(one.counts.objectsSkipped).toBe(3);
      expect(one.counts.segmentsSkipped).toBeGreaterThan(one.counts.segments * 2);
      expect(one.counts.bytesRead).toBe(one.counts.plannedBytes);
      expect(one.counts.bytesRead).toBeLessThan(whole.counts.bytesRead / 3);
      const late = await search(io, log, {
        scope: { ...WHOLE_PREFIX, fromId: 6n << 20n },
        filter: { rows: rowFilter([]), text: null },
        limit: null,
      });
      expect(late.counts.objectsRead).toBe(3); // sequences 6, 7 and 8
    });

    it('stops at the limit', async () => {
      const found = await search(io, log, {
        scope: WHOLE_PREFIX,
        filter: { rows: rowFilter([]), text: null },
        limit: 5,
      });
      expect(found.hits).toHaveLength(5);
      expect(found.counts.objectsRead).toBeLessThan(found.counts.plannedObjects);
    });

    it("finds a Cairn prefix's entries by their payload's text, as a replay does", async () => {
      await writeDamagedPrefix(io);
      const cairn = await openTargetReadOnly(io, await resolveReadTarget(io, DAMAGE_PREFIX));
      for (const text of ['-o3-', 'e1', null]) {
        const expected = await bruteForceEntries(cairn, WHOLE_PREFIX, text);
        const found = await search(io, cairn, {
          scope: WHOLE_PREFIX,
          filter: { rows: rowFilter([]), text },
          limit: null,
        });
        expect(byRegionThenId(linesOf(found.hits))).toEqual(byRegionThenId(expected));
        expect(found.holes).toHaveLength(1);
      }
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
searchSuite('the local store', async () => new LocalObjectIo(join(dir, 'store')));

const lane = s3Lane();
describe.skipIf(!lane)('radosgw', () => {
  afterAll(() => lane?.dispose());
  searchSuite('radosgw', () => lane!.makeIo('search'));
});
