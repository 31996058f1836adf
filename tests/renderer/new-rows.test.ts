/**
 * Which Batches rows carry the "new" badge: only objects written since the previous read -
 * never those a garbage collection moved onto the page shown (issue #42).
 */
import { describe, expect, it } from 'vitest';
import { rowsWrittenSince } from '../../src/renderer/src/components/use-changes';

const rows = (...seqs: number[]) =>
  seqs.map((seq) => ({ key: `objects/${String(seq).padStart(20, '0')}.wal`, seq: BigInt(seq) }));
const readOf = (seqs: number[], newest: number | null) => ({
  joined: rows(...seqs)
    .map((row) => row.key)
    .join('\n'),
  newest: newest === null ? null : BigInt(newest),
});

describe('rows written since the previous read', () => {
  it('marks nothing in a first read', () => {
    expect(rowsWrittenSince(null, rows(1, 2, 3)).size).toBe(0);
  });

  it('marks objects written above the newest the previous read knew', () => {
    const fresh = rowsWrittenSince(readOf([1, 2, 3], 3), rows(1, 2, 3, 4, 5));
    expect([...fresh]).toEqual(rows(4, 5).map((row) => row.key));
  });

  it('does not mark objects a collection moved onto the page', () => {
    // Page 1 held 1..3 of a list up to 9; GC deleted 1..3, so page 1 now holds 4..6.
    expect(rowsWrittenSince(readOf([1, 2, 3], 9), rows(4, 5, 6)).size).toBe(0);
    // ...and with one object written meanwhile, only that one is new.
    expect([...rowsWrittenSince(readOf([7, 8, 9], 9), rows(8, 9, 10))]).toEqual(
      rows(10).map((row) => row.key),
    );
  });

  it('marks every object of a list that was empty', () => {
    expect(rowsWrittenSince(readOf([], null), rows(64, 65)).size).toBe(2);
  });
});
