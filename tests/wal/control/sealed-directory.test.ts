import { describe, expect, it } from 'vitest';
import { SegmentDirectoryFullError } from '../../../src/main/engine/wal/errors';
import {
  addSealRecord,
  addSealRecords,
  highestSealedEpoch,
  isExcludedBySeal,
  normalizeSealedDirectory,
  SEALED_RECORDS_KEPT,
  sealedDirectoryBytes,
  takeoverRecords,
  WORST_CASE_RECORD_BYTES,
} from '../../../src/main/engine/wal/sealed-directory';
import type { SealRecord } from '../../../src/main/engine/wal/session';

const BUDGET = 64 * 1024;
const stopped = (epoch: bigint, lastSeq: bigint | null): SealRecord => ({
  firstEpoch: epoch,
  lastEpoch: epoch,
  lastSeq,
  reason: 'stopped',
});

describe('the sealed directory', () => {
  it('survives a thousand restarts within the default budget', () => {
    let directory: SealRecord[] = [];
    for (let epoch = 1n; epoch <= 1000n; epoch++) {
      directory = addSealRecord(directory, stopped(epoch, epoch * 100n), {
        boundary: 0n,
        budget: BUDGET,
      });
    }
    expect(directory).toHaveLength(SEALED_RECORDS_KEPT + 1);
    expect(sealedDirectoryBytes(directory)).toBeLessThanOrEqual(BUDGET);
    const [merged, ...kept] = directory;
    expect(merged).toEqual({ firstEpoch: 1n, lastEpoch: 744n, lastSeq: 74_400n, reason: 'merged' });
    expect(kept[0]).toEqual(stopped(745n, 74_500n));
    expect(highestSealedEpoch(directory)).toBe(1000n);
  });

  it('drops records wholly below the boundary but keeps the newest', () => {
    const directory = [stopped(1n, 10n), stopped(2n, 20n), stopped(3n, null), stopped(4n, 40n)];
    expect(normalizeSealedDirectory(directory, 30n)).toEqual([stopped(3n, null), stopped(4n, 40n)]);
    expect(normalizeSealedDirectory(directory, 100n)).toEqual([
      stopped(3n, null),
      stopped(4n, 40n),
    ]);
    expect(normalizeSealedDirectory([stopped(4n, 40n)], 100n)).toEqual([stopped(4n, 40n)]);
  });

  it('reserves worst-case room before adding and fails with the typed error', () => {
    const budget = sealedDirectoryBytes([stopped(1n, 1n)]) + WORST_CASE_RECORD_BYTES - 1;
    const one = addSealRecord([], stopped(1n, 1n), { boundary: 0n, budget });
    expect(one).toEqual([stopped(1n, 1n)]);
    let error: unknown;
    try {
      addSealRecord(one, stopped(2n, 2n), { boundary: 0n, budget });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SegmentDirectoryFullError);
    expect(error).toMatchObject({
      code: 'SegmentDirectoryFull',
      budget,
      bytes: sealedDirectoryBytes(one) + WORST_CASE_RECORD_BYTES,
    });
  });

  it('fails a tiny budget at the first record', () => {
    expect(() => addSealRecords([], [stopped(1n, 1n)], { boundary: 0n, budget: 40 })).toThrow(
      SegmentDirectoryFullError,
    );
  });

  it('excludes objects of a sealed epoch above its lastSeq only', () => {
    const directory = [
      stopped(2n, 10n),
      { firstEpoch: 3n, lastEpoch: 5n, lastSeq: null, reason: 'taken-over' as const },
    ];
    expect(isExcludedBySeal(directory, 10n, 2n)).toBe(false);
    expect(isExcludedBySeal(directory, 11n, 2n)).toBe(true);
    expect(isExcludedBySeal(directory, 0n, 4n)).toBe(true);
    expect(isExcludedBySeal(directory, 99n, 6n)).toBe(false);
  });

  it('builds takeover records: one per epoch on the chain, ranges for the rest', () => {
    const chain = [
      { seq: 3n, epoch: 2n },
      { seq: 4n, epoch: 2n },
      { seq: 70n, epoch: 5n },
    ];
    expect(takeoverRecords(1n, 7n, chain)).toEqual([
      { firstEpoch: 1n, lastEpoch: 1n, lastSeq: null, reason: 'taken-over' },
      { firstEpoch: 2n, lastEpoch: 2n, lastSeq: 4n, reason: 'taken-over' },
      { firstEpoch: 3n, lastEpoch: 4n, lastSeq: null, reason: 'taken-over' },
      { firstEpoch: 5n, lastEpoch: 5n, lastSeq: 70n, reason: 'taken-over' },
      { firstEpoch: 6n, lastEpoch: 7n, lastSeq: null, reason: 'taken-over' },
    ]);
    expect(takeoverRecords(3n, 2n, chain)).toEqual([]);
  });
});
