/**
 * Bulk entries are searched, not only counted (search.md): on a prefix whose entries hold bulk
 * entries (Arrow IPC) beside mutations, a search finds exactly the row lines a brute-force
 * `replay --rows` of every region finds, for conditions and time ranges; a bulk entry whose
 * declared time range lies outside the search's is left out without decoding its body (counted
 * in `bulkSkipped`), and one whose body gives no rows is named as replay names it. On the local
 * store, and on radosgw when CAIRN_S3_ENDPOINT is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { WHOLE_PREFIX } from '../../src/main/engine/search/plan';
import { openTargetReadOnly, type AnyReadOnlyLog } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import type { DamagedPayload } from '../../src/main/services/wal/search/search-match';
import type { RowFilter } from '../../src/shared/greptime/row-filter';
import { s3Lane } from '../support/s3';
import {
  BROKEN_HOUR,
  BULK_ENTRIES,
  BULK_PREFIX,
  BULK_REGIONS,
  hours,
  writeBulkSearchPrefix,
} from './bulk-prefix';
import {
  bruteForceRows,
  byRegionThenId,
  linesOf,
  rowFilter as whereAndTime,
  searchAll,
} from './search-prefix';

function rowFilter(where: string[], range?: { since: string; until: string }): RowFilter {
  return whereAndTime(where, range?.since, range?.until);
}

function search(io: ObjectIo, log: AnyReadOnlyLog, rows: RowFilter) {
  return searchAll(io, log, { scope: WHOLE_PREFIX, filter: { rows, text: null }, limit: null });
}

/** Bulk entries per hour: two per region. */
const PER_HOUR = BULK_REGIONS.length * 2;
/** The bulk entry without a body has no schema to read its range in: it is always decoded. */
const BODILESS = 1;

const CASES: ReadonlyArray<readonly [string, RowFilter, number]> = [
  ['everything', rowFilter([]), 0],
  ['a host', rowFilter(['host=web-3']), 0],
  ['a numeric condition', rowFilter(['cpu>60']), 0],
  [
    'two hours: the other hours’ bulk entries skipped',
    rowFilter([], hours(2, 4)),
    4 * PER_HOUR - BODILESS,
  ],
  ['two hours and a host', rowFilter(['host~web-[12]'], hours(2, 4)), 4 * PER_HOUR - BODILESS],
  [
    'only since',
    rowFilter([], { since: hours(5, 6).since, until: '9999-01-01' }),
    5 * PER_HOUR - BODILESS,
  ],
  ['the broken hour', rowFilter([], hours(BROKEN_HOUR, BROKEN_HOUR + 1)), 5 * PER_HOUR],
];

function bulkSuite(name: string, makeIo: () => Promise<ObjectIo>): void {
  describe(`search of bulk entries on ${name}`, () => {
    let io: ObjectIo;
    let log: AnyReadOnlyLog;

    beforeAll(async () => {
      io = await makeIo();
      await writeBulkSearchPrefix(io);
      log = await openTargetReadOnly(io, await resolveReadTarget(io, BULK_PREFIX));
    });

    it.each(CASES)(
      'finds what replay --rows of every region finds: %s',
      async (_, filter, skipped) => {
        const expected = await bruteForceRows(log, WHOLE_PREFIX, filter);
        const found = await search(io, log, filter);
        expect(byRegionThenId(linesOf(found.hits))).toEqual(byRegionThenId(expected));
        expect(found.counts.bulk).toBe(BULK_ENTRIES);
        expect(found.counts.bulkSkipped).toBe(skipped);
      },
    );

    it('finds bulk rows: PUTs numbered from their bulk entry’s sequence', async () => {
      const found = await search(io, log, rowFilter([], hours(3, 4)));
      const sequences = found.hits.map((hit) => (hit.kind === 'row' ? hit.row.sequence : -1n));
      // Object 3's bulk entries start at 3,510 and 3,520; its mutations' below 3,500.
      expect(sequences.filter((s) => s >= 3500n).length).toBe(PER_HOUR * 3);
    });

    it('names a bulk entry that gives no rows, unless its time range left it out', async () => {
      const reasons = (damaged: readonly DamagedPayload[]) =>
        damaged.map((d) => `${d.what}: ${d.reason.replace(/ \(.*$/, '')}`);
      const all = await search(io, log, rowFilter([]));
      expect(all.counts.damagedPayloads).toBe(2);
      expect(reasons(all.damaged)).toEqual([
        'bulk entry: bulk entry 1 gives no rows: too-large',
        'bulk entry: bulk entry 1 gives no rows: no-body',
      ]);
      // The cut body's schema still gives its range: outside the search's, it is not decoded.
      const elsewhere = await search(io, log, rowFilter([], hours(0, 2)));
      expect(reasons(elsewhere.damaged)).toEqual([
        'bulk entry: bulk entry 1 gives no rows: no-body',
      ]);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
bulkSuite('the local store', async () => new LocalObjectIo(join(dir, 'store')));

const lane = s3Lane();
describe.skipIf(!lane)('radosgw', () => {
  afterAll(() => lane?.dispose());
  bulkSuite('radosgw', () => lane!.makeIo('search-bulk'));
});
