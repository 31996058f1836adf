import { describe, expect, it } from 'vitest';
import type { RegionRow } from '../../src/shared/contract/wal';
import { checkFromId } from '../../src/renderer/src/views/wal/replay/from-id-check';

const REGION: RegionRow = {
  regionId: (1n << 32n) | 2n,
  entries: 75,
  firstId: (1n << 20n) | 1n,
  latestId: (3n << 20n) | 24n,
  durableId: (3n << 20n) | 24n,
  handedOutId: null,
  watermark: 0n,
  objects: 3,
  bytes: 76_800,
  holes: 0,
  listedInTable: true,
};

describe("Replay's start, checked against its region", () => {
  it('takes an id between the first and the latest entry, in either notation', () => {
    expect(checkFromId('1:1', REGION)).toEqual({ ok: true, id: (1n << 20n) | 1n });
    expect(checkFromId(String((3n << 20n) | 24n), REGION)).toEqual({
      ok: true,
      id: (3n << 20n) | 24n,
    });
    expect(checkFromId('', REGION)).toEqual({ ok: true, id: null });
  });

  it('starts an id below the first entry at the first, saying so; names the latest bound', () => {
    expect(checkFromId('0:5', REGION)).toEqual({
      ok: true,
      id: (1n << 20n) | 1n,
      notice:
        "From id 0:5 is before region 1:2's first entry: the replay starts at its first entry 1:1",
    });
    expect(checkFromId('3:25', REGION)).toEqual({
      ok: false,
      problem: "From id 3:25 is after region 1:2's latest entry 3:24",
    });
    expect(checkFromId('1:1', { ...REGION, entries: 0, firstId: 0n, latestId: 0n })).toMatchObject({
      ok: false,
      problem: 'Region 1:2 holds no entries: clear From id to replay it',
    });
  });

  it('refuses what is no id, and leaves the range to the server when the region is not listed', () => {
    expect(checkFromId('one', REGION)).toMatchObject({ ok: false, problem: /seq:position/ });
    expect(checkFromId('9:9', null)).toEqual({ ok: true, id: (9n << 20n) | 9n });
  });
});
