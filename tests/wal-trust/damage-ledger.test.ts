/**
 * The damage ledger keeps a finding until the object changes: a sound verdict, an object
 * gone, or one with another size or ETag (checked with a HEAD at most every RECHECK_AFTER_MS)
 * forgets it; a replay's skipped segments join the object's finding.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { DamageLedger, RECHECK_AFTER_MS } from '../../src/main/services/wal/scrub/damage-ledger';

const SLOT = 'conn\nwal/nodes/0/generations/0';
const KEY = 'wal/nodes/0/generations/0/objects/00000000000000000007.wal';

async function setUp() {
  const io = new MemoryObjectIo();
  const { etag } = await io.putIfAbsent(KEY, new Uint8Array([1, 2, 3]));
  let now = 1_000_000;
  const ledger = new DamageLedger(() => now);
  const damaged = {
    key: KEY,
    seq: 7n,
    size: 3,
    ok: false,
    check: 'segment-crc' as const,
    region: 5n,
  };
  return { io, etag, ledger, damaged, advance: (ms: number) => (now += ms) };
}

describe('DamageLedger', () => {
  it('keeps a damaged object while it is the same object, and forgets it once it changed', async () => {
    const { io, etag, ledger, damaged, advance } = await setUp();
    ledger.recordVerdict(SLOT, damaged, etag);
    expect(await ledger.current(SLOT, io)).toMatchObject([
      { key: KEY, check: 'segment-crc', regions: [5n], source: 'scrub', etag },
    ]);
    advance(RECHECK_AFTER_MS);
    expect(await ledger.current(SLOT, io)).toHaveLength(1); // the same object: kept
    await io.delete(KEY);
    await io.putIfAbsent(KEY, new Uint8Array([1, 2, 4])); // same size, other bytes: another ETag
    expect(await ledger.current(SLOT, io)).toHaveLength(1); // not checked again yet
    advance(RECHECK_AFTER_MS);
    expect(await ledger.current(SLOT, io)).toEqual([]);
  });

  it('asks for a save only when what a save keeps has changed', async () => {
    const io = new MemoryObjectIo();
    const { etag } = await io.putIfAbsent(KEY, new Uint8Array([1, 2, 3]));
    let now = 1_000_000;
    let saves = 0;
    const ledger = new DamageLedger(
      () => now,
      () => (saves += 1),
    );
    const verdict = { key: KEY, seq: 7n, size: 3, ok: false, check: 'segment-crc' as const };
    ledger.recordVerdict(SLOT, verdict, etag);
    expect(saves).toBe(1);
    now += RECHECK_AFTER_MS;
    expect(await ledger.current(SLOT, io)).toHaveLength(1); // confirmed, nothing new learnt
    ledger.forgetConnection('another connection');
    ledger.restore([]);
    expect(saves).toBe(1);
    await io.delete(KEY);
    now += RECHECK_AFTER_MS;
    expect(await ledger.current(SLOT, io)).toEqual([]);
    expect(saves).toBe(2);
  });

  it('forgets an object gone, or read sound by a later scrub', async () => {
    const { io, etag, ledger, damaged, advance } = await setUp();
    ledger.recordVerdict(SLOT, damaged, etag);
    ledger.recordVerdict(SLOT, { ...damaged, ok: true }, etag);
    expect(ledger.findings(SLOT)).toEqual([]);
    ledger.recordVerdict(SLOT, damaged, etag);
    await io.delete(KEY);
    advance(RECHECK_AFTER_MS);
    expect(await ledger.current(SLOT, io)).toEqual([]);
  });

  it("adds a replay's skipped segments to the object's finding, and learns its ETag", async () => {
    const { io, etag, ledger } = await setUp();
    const skipped = {
      key: KEY,
      seq: 7n,
      firstId: 1n,
      lastId: 4n,
      check: 'segment-crc' as const,
      detail: '',
    };
    ledger.recordSkipped(SLOT, { ...skipped, regionId: 5n });
    ledger.recordSkipped(SLOT, { ...skipped, regionId: 6n });
    ledger.recordSkipped(SLOT, { ...skipped, regionId: 6n }); // a second replay: no new range
    const [finding] = await ledger.current(SLOT, io);
    expect(finding).toMatchObject({ source: 'replay', regions: [5n, 6n], etag, size: 3 });
    expect(finding?.ranges).toHaveLength(2);
    ledger.forgetConnection('conn');
    expect(ledger.findings(SLOT)).toEqual([]);
  });
});
