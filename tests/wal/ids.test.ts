import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_ENTRY_ID,
  MAX_POSITION,
  MAX_SEQ,
  OBSOLETE_SEQ_LIMIT,
  SEQ_LIMIT,
  checkEntryId,
  checkObsoleteId,
  isAssignableEntryId,
  makeEntryId,
  positionOf,
  seqOf,
  sequenceFloorOf,
} from '../../src/main/engine/wal/ids';
import { isWalError } from '../../src/main/engine/wal/errors';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return isWalError(error) ? error.code : 'untyped';
  }
  return 'none';
}

describe('entry id layout', () => {
  it('pins the constants of wal.md', () => {
    expect(MAX_POSITION).toBe(2n ** 20n - 1n);
    expect(SEQ_LIMIT).toBe(2n ** 44n);
    expect(MAX_SEQ).toBe(2n ** 44n - 1n);
    expect(MAX_ENTRY_ID).toBe(2n ** 64n - 1n);
    expect(OBSOLETE_SEQ_LIMIT).toBe(2n ** 44n - 2n ** 20n);
  });

  it('composes (seq << 20) | position and splits it back', () => {
    expect(makeEntryId(0n, 1n)).toBe(1n);
    expect(makeEntryId(1n, 1n)).toBe(2n ** 20n + 1n);
    expect(makeEntryId(MAX_SEQ, MAX_POSITION)).toBe(MAX_ENTRY_ID);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: MAX_SEQ }),
        fc.bigInt({ min: 1n, max: MAX_POSITION }),
        (seq, position) => {
          const id = makeEntryId(seq, position);
          expect(seqOf(id)).toBe(seq);
          expect(positionOf(id)).toBe(position);
          expect(isAssignableEntryId(id)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    ['position 0', 5n, 0n],
    ['position 2^20', 5n, 2n ** 20n],
    ['negative position', 5n, -1n],
    ['sequence 2^44', 2n ** 44n, 1n],
    ['negative sequence', -1n, 1n],
  ])('rejects %s with InvalidEntryId', (_name, seq, position) => {
    expect(codeOf(() => makeEntryId(seq, position))).toBe('InvalidEntryId');
  });

  it('never treats 0 or a position-0 id as assigned', () => {
    expect(isAssignableEntryId(0n)).toBe(false);
    expect(isAssignableEntryId(2n ** 20n)).toBe(false);
    expect(codeOf(() => checkEntryId(0n))).toBe('InvalidEntryId');
    expect(codeOf(() => checkEntryId(2n ** 64n))).toBe('InvalidEntryId');
    expect(checkEntryId(2n ** 20n + 3n)).toBe(2n ** 20n + 3n);
  });

  it('obsolete accepts 0 and any id below sequence 2^44 - 2^20, rejects the rest', () => {
    const lastAccepted = (OBSOLETE_SEQ_LIMIT << 20n) - 1n;
    expect(checkObsoleteId(0n)).toBe(0n);
    expect(checkObsoleteId(lastAccepted)).toBe(lastAccepted);
    expect(codeOf(() => checkObsoleteId(lastAccepted + 1n))).toBe('InvalidEntryId');
    expect(codeOf(() => checkObsoleteId(MAX_ENTRY_ID))).toBe('InvalidEntryId');
    expect(codeOf(() => checkObsoleteId(-1n))).toBe('InvalidEntryId');
  });

  it('the sequence floor of an id is the object above the one it names; 0 needs none', () => {
    expect(sequenceFloorOf(0n)).toBe(0n);
    expect(sequenceFloorOf(makeEntryId(9n, 4n))).toBe(10n);
    expect(sequenceFloorOf(9n << 20n)).toBe(10n);
  });
});
