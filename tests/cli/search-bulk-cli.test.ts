/**
 * `cairn wal search` on a GreptimeDB prefix whose entries hold bulk entries: it prints the row
 * lines `replay --rows` of every region gives, bulk rows included, names each bulk entry whose
 * body gives no rows as replay names it (`Damaged: bulk entry at ...`) and exits 1, as replay
 * does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { WHOLE_PREFIX } from '../../src/main/engine/search/plan';
import { openTargetReadOnly } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import { parseCondition, type RowFilter } from '../../src/shared/greptime/row-filter';
import { BULK_PREFIX, writeBulkSearchPrefix } from '../search/bulk-prefix';
import { bruteForceRows, byRegionThenId } from '../search/search-prefix';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-bulk-cli-'));
const store = join(dir, 'store');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  await writeBulkSearchPrefix(new LocalObjectIo(store));
});

describe('cairn wal search on bulk entries', () => {
  it('prints bulk rows as replay --rows does, names a bulk entry without rows, exits 1', async () => {
    const condition = parseCondition('host=web-1');
    if (condition instanceof Error) throw condition;
    const filter: RowFilter = { conditions: [condition], since: null, until: null };
    const io = new LocalObjectIo(store);
    const log = await openTargetReadOnly(io, await resolveReadTarget(io, BULK_PREFIX));
    const expected = await bruteForceRows(log, WHOLE_PREFIX, filter);
    const found = runCairn([
      'wal',
      'search',
      '--dir',
      store,
      '--prefix',
      BULK_PREFIX,
      '--where',
      'host=web-1',
    ]);
    const lines = found.stdout.split('\n').filter((line) => line !== '');
    expect(byRegionThenId(lines)).toEqual(byRegionThenId(expected));
    // Bulk rows are numbered from 500 past their object's thousand; mutation rows below it.
    const sequences = lines.map((line) =>
      BigInt((JSON.parse(line) as { sequence: string }).sequence),
    );
    expect(sequences.filter((sequence) => sequence % 1000n >= 500n).length).toBeGreaterThan(3);
    expect(found.stderr).toMatch(
      /^Damaged: bulk entry at region 77:1 entry \S+: bulk entry 1 gives no rows: too-large/m,
    );
    expect(found.stderr).toMatch(
      /^Damaged: bulk entry at region 77:2 entry \S+: bulk entry 1 gives no rows: no-body/m,
    );
    expect(found.code).toBe(1);
  });
});
