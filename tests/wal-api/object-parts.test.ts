/**
 * The object inspector's layout of a damaged Cairn object (`wal.decodeObject`): every part is
 * judged on its own, so a bad segment CRC leaves the header, the footer and the other segment
 * readable, and the damaged segment is named by its place and region - the part the
 * inspector's headline names - beside the strict decode's first failing check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DecodedObjectView } from '../../src/shared/contract/wal';
import { objectKey } from '../../src/main/engine/wal/keys';
import {
  DAMAGE_PREFIX,
  DAMAGED_REGION,
  OTHER_REGION,
  writeDamagedPrefix,
} from '../support/damaged-segment';
import { walApp, type WalApp } from './support';

let app: WalApp;
afterEach(() => app.close());

const decode = async (key: string) =>
  (await app.call('wal.decodeObject', { key })) as DecodedObjectView;

describe('wal.decodeObject on a damaged Cairn object', () => {
  it('lays out every part and names the damaged segment', async () => {
    app = await walApp();
    const damaged = await writeDamagedPrefix(app.io);
    const parts = await decode(damaged.key);
    expect(parts.failure).toMatchObject({ check: 'segment-crc' });
    expect(parts.header).toMatchObject({ magicOk: true, crcOk: true, seq: damaged.seq });
    expect(parts.footer).toEqual({ crcOk: true, count: 2 });
    expect(parts.segments.map((segment) => [segment.regionId, segment.crcOk])).toEqual([
      [DAMAGED_REGION, false],
      [OTHER_REGION, true],
    ]);
    expect(parts.segments[0]).toMatchObject({ firstId: damaged.firstId, lastId: damaged.lastId });
    expect(parts.damagedSegment).toEqual({
      index: 0,
      regionId: DAMAGED_REGION,
      check: 'segment-crc',
    });
  });

  it('a sound object names no damaged part', async () => {
    app = await walApp();
    const damaged = await writeDamagedPrefix(app.io);
    const sound = await decode(objectKey(DAMAGE_PREFIX, damaged.seq + 1n));
    expect(sound).toMatchObject({ failure: null, damagedSegment: null });
    expect(sound.segments.every((segment) => segment.crcOk)).toBe(true);
  });

  it("a bad header CRC is the header's alone: the segments stay laid out and sound", async () => {
    app = await walApp();
    const damaged = await writeDamagedPrefix(app.io);
    const key = objectKey(DAMAGE_PREFIX, damaged.seq + 1n);
    const bytes = new Uint8Array((await app.io.get(key)).bytes);
    bytes[20] = (bytes[20] ?? 0) ^ 0x01; // inside the epoch field
    await app.io.delete(key);
    await app.io.putIfAbsent(key, bytes);
    const parts = await decode(key);
    expect(parts.failure).toMatchObject({ check: 'header-crc' });
    expect(parts.header).toMatchObject({ magicOk: true, crcOk: false });
    expect(parts.segments).toHaveLength(2);
    expect(parts.segments.every((segment) => segment.crcOk)).toBe(true);
    expect(parts.damagedSegment).toBeNull();
  });
});
