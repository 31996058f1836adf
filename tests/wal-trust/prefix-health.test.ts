/**
 * The State of a prefix, derived in one place: every problem is a reason with its words, and
 * `healthy` only when there is none and every object was read whole within the verify age -
 * `unverified` otherwise, with what was covered - the rows of the walk-through.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STALE_AFTER_MS,
  prefixHealth,
  type PrefixHealthFacts,
} from '../../src/main/services/wal/fleet/prefix-health';
import { coverageView } from '../../src/main/services/wal/scrub/coverage-view';
import type { PrefixCoverage } from '../../src/main/services/wal/scrub/coverage-book';

const NOW = Date.UTC(2026, 11, 5, 12);
const REGION = (1028n << 32n) | 0n;
const id = (seq: bigint, position: bigint) => (seq << 20n) | position;

const HOUR = 3_600_000;
const verifiedAt = (atMs: number): PrefixCoverage => ({
  complete: {
    startedAtMs: atMs,
    endedAtMs: atMs,
    objects: 3,
    bytes: 300,
    damaged: 0,
    throughSeq: 3n,
  },
  partial: null,
});
const CHAIN = [1n, 2n, 3n];

const sound: PrefixHealthFacts = {
  coverage: coverageView(verifiedAt(NOW - HOUR), CHAIN, NOW),
  readState: 'read',
  error: null,
  openFailure: null,
  damaged: [],
  orphans: 0,
  newestObjectAtMs: NOW - 1000,
  floorLag: 12n,
};

const health = (facts: Partial<PrefixHealthFacts>) =>
  prefixHealth({ ...sound, ...facts }, { nowMs: NOW });

describe('prefixHealth', () => {
  it('is unverified, never healthy, when the objects were not all read whole within the age', () => {
    const never = health({ coverage: coverageView({ complete: null, partial: null }, CHAIN, NOW) });
    expect(never).toEqual({
      state: 'unverified',
      reasons: [],
      text: 'unverified: never verified: 3 objects known only by footer',
    });
    const stale = health({ coverage: coverageView(verifiedAt(NOW - 25 * HOUR), CHAIN, NOW) });
    expect(stale.state).toBe('unverified');
    expect(stale.text).toBe(
      'unverified: last verified 25 h ago, over 24 h: 3 objects read whole and CRC-checked',
    );
    // A shorter verify age makes the same pass stale.
    const short = coverageView(verifiedAt(NOW - HOUR), CHAIN, NOW, 30 * 60_000);
    expect(health({ coverage: short }).state).toBe('unverified');
    expect(health({ coverage: null }).text).toBe('unverified: what was read whole is not known');
    // A problem is still named whatever was covered.
    expect(health({ coverage: null, orphans: 1 }).state).toBe('unhealthy');
  });

  it('says which objects are known only by their footers since the last verify', () => {
    const view = coverageView(verifiedAt(NOW - HOUR), [...CHAIN, 4n, 5n], NOW);
    expect(view).toMatchObject({ state: 'verified', objects: 3, footerOnly: 2 });
    expect(view.text).toBe(
      'verified 60 min ago: 3 objects read whole and CRC-checked, 2 objects only by footer',
    );
  });

  it('is healthy only with no problem, and reading while not read', () => {
    expect(health({})).toEqual({ state: 'healthy', reasons: [], text: 'healthy' });
    expect(health({ readState: 'pending', orphans: null, newestObjectAtMs: null })).toMatchObject({
      state: 'reading',
      text: 'reading',
    });
  });

  it.each<[string, Partial<PrefixHealthFacts>, string]>([
    [
      'damage, with its region and id range',
      {
        damaged: [
          {
            key: 'p/objects/00000000000000001500.wal',
            check: 'segment-crc',
            ranges: [{ regionId: REGION, firstId: id(1500n, 17n), lastId: id(1500n, 20n) }],
          },
        ],
      },
      'damaged: 1 object, region 1028:0 ids 1500:17-1500:20',
    ],
    [
      'damage off the chain, with its check',
      { damaged: [{ key: 'p/objects/1.wal', check: 'trailer-crc', ranges: [] }] },
      'damaged: 1 object, off the chain (trailer-crc)',
    ],
    ['an orphan', { orphans: 1 }, 'orphans: 1 object off the chain'],
    [
      'an open failure',
      { openFailure: { code: 'TailMissing', message: 'm' } },
      'open fails: TailMissing',
    ],
    [
      'a failed read',
      { readState: 'error', error: { code: 'Unavailable', message: 'm' } },
      'error: Unavailable',
    ],
    [
      'age: nothing written for two days, objects still held',
      { newestObjectAtMs: NOW - 2 * 86_400_000 },
      'stale: newest object 2 d ago, tip 12 sequences above the floor',
    ],
  ])('names %s', (_name, facts, text) => {
    const result = health(facts);
    expect(result.state).toBe('unhealthy');
    expect(result.text).toBe(text);
    expect(result.reasons).toHaveLength(1);
  });

  it('lists every problem, and an old prefix collected to its tip is not stale', () => {
    const both = health({ orphans: 2, openFailure: { code: 'CorruptObject', message: 'm' } });
    expect(both.text).toBe('open fails: CorruptObject; orphans: 2 objects off the chain');
    const old = NOW - DEFAULT_STALE_AFTER_MS - 1;
    expect(health({ newestObjectAtMs: old, floorLag: 0n }).state).toBe('healthy');
  });

  it('names three ranges and counts the rest', () => {
    const ranges = [1n, 2n, 3n, 4n, 5n].map((seq) => ({
      regionId: 1n << 32n,
      firstId: id(seq, 1n),
      lastId: id(seq, 1n),
    }));
    expect(health({ damaged: [{ key: 'k', check: 'segment-crc', ranges }] }).text).toBe(
      'damaged: 1 object, region 1:0 id 1:1, region 1:0 id 2:1, region 1:0 id 3:1, 2 more ranges',
    );
  });
});
