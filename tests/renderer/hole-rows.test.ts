/**
 * Where hole rows sit in Replay's and Search's tables, and how a jump finds them: in a replay,
 * after the rows below the hole's ids and before those above (reversed newest first), kept
 * whatever the filters leave; in a search, after the hits found before the search met it, each
 * row index naming one hit or one hole, all hits and holes once.
 */
import { describe, expect, it } from 'vitest';
import type { ReplayHoleView } from '../../src/shared/contract/wal-damage';
import type { SearchHit } from '../../src/shared/search/search-hits';
import {
  holeId,
  holeIndex,
  holeText,
  withHoleRows,
  type GridRow,
} from '../../src/renderer/src/views/wal/replay-hole-rows';
import {
  searchHoleIndex,
  searchRowAt,
  type MetHole,
} from '../../src/renderer/src/views/wal/search/search-hole-rows';

const id = (seq: number, position: number): bigint => (BigInt(seq) << 20n) | BigInt(position);

function hole(seq: number, first: number, last: number, regionId = 7n): ReplayHoleView {
  return {
    key: `p/objects/${String(seq).padStart(20, '0')}.wal`,
    seq: BigInt(seq),
    regionId,
    firstId: id(seq, first),
    lastId: id(seq, last),
    check: 'segment-crc',
    detail: '',
  };
}

const shape = (rows: readonly GridRow<bigint>[]): string[] =>
  rows.map((row) => (row.kind === 'hole' ? `hole ${row.hole.seq}` : String(row.row)));

describe('replay hole rows', () => {
  const rows = [id(1, 1), id(2, 1), id(4, 1)];
  const holes = [hole(3, 1, 3), hole(5, 1, 1)];

  it('sit between the ids around them, oldest first or reversed', () => {
    const oldest = withHoleRows(rows, holes, false, (row) => row);
    expect(shape(oldest)).toEqual([
      String(id(1, 1)),
      String(id(2, 1)),
      'hole 3',
      String(id(4, 1)),
      'hole 5',
    ]);
    const newest = withHoleRows(rows, holes, true, (row) => row);
    expect(shape(newest)).toEqual([...shape(oldest)].reverse());
  });

  it('stay when a filter leaves no rows, and a jump finds each by its id', () => {
    const only = withHoleRows([], holes, false, (row: bigint) => row);
    expect(shape(only)).toEqual(['hole 3', 'hole 5']);
    expect(holeIndex(only, holeId(holes[1]!))).toBe(1);
    expect(holeIndex(only, holeId(hole(9, 1, 1)))).toBe(-1);
  });

  it('tell two regions skipped in one object apart', () => {
    expect(holeId(hole(3, 1, 3, 7n))).not.toBe(holeId(hole(3, 1, 3, 8n)));
  });

  it('say the region, ids, object and check, and the reason when there is one', () => {
    const text = holeText({ ...hole(9, 1, 3, (1025n << 32n) | 1n), detail: 'crc 1 != 2' });
    expect(text).toBe(
      'Hole: region 1025:1 ids 9:1–9:3 skipped · p/objects/00000000000000000009.wal · segment-crc check failed (crc 1 != 2)',
    );
  });
});

describe('search hole rows', () => {
  const hits = ['a', 'b', 'c', 'd'].map((text) => ({ text }) as unknown as SearchHit);
  const holes: MetHole[] = [
    { hole: hole(1, 1, 1), afterHits: 0 },
    { hole: hole(2, 1, 1), afterHits: 2 },
    { hole: hole(3, 1, 1), afterHits: 2 },
    { hole: hole(4, 1, 1), afterHits: 4 },
  ];
  const table = Array.from({ length: hits.length + holes.length + 1 }, (_, index) =>
    searchRowAt(index, hits, holes),
  );

  it('puts each hole after the hits found before it, every hit and hole once', () => {
    expect(
      table.map((row) =>
        row === undefined
          ? 'end'
          : row.kind === 'hole'
            ? `hole ${row.hole.seq}`
            : (row.row as unknown as { text: string }).text,
      ),
    ).toEqual(['hole 1', 'a', 'b', 'hole 2', 'hole 3', 'c', 'd', 'hole 4', 'end']);
  });

  it("finds a hole's row index for a jump", () => {
    for (const met of holes) {
      const at = searchHoleIndex(holes, holeId(met.hole));
      const row = table[at];
      expect(row?.kind === 'hole' && row.hole).toBe(met.hole);
    }
    expect(searchHoleIndex(holes, holeId(hole(9, 1, 1)))).toBe(-1);
  });
});
