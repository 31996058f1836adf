/**
 * The first open of a big prefix is progressive (issue #40): while the oldest objects are
 * still being read, a view gets a provisional snapshot - the tip and the newest objects with
 * their chain, region counts over what was read, progress saying how far the open came - and
 * the whole once the open ends. Both formats, 1,500 objects on the memory store, reads of the
 * oldest 1,000 held back until the test lets them go (so the open is in progress for sure).
 * A small prefix never shows a provisional snapshot. Outcomes only: progress, tip, chain.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ByteRange, GetResult } from '../../src/main/engine/objectio/object-io';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { seqOfAnyObjectKey } from '../../src/main/engine/wal/keys';
import {
  PrefixModel,
  type PrefixSnapshot,
} from '../../src/main/services/wal/read-model/prefix-model';
import { locatePrefix } from '../../src/main/services/wal/wal-locate';
import { gtChainObject } from '../greptimedb/gt-encoder';
import { objectBytes } from '../wal/recovery/prefix-builder';

const OBJECTS = 1_500;
const HELD_BELOW = 1_000n;
const GT = 'datanodes/9/epochs/1';
const CAIRN = walPrefix('wal', 7n, 2);
const R1 = makeRegionId(1, 1);

/** A memory store whose reads of objects below `HELD_BELOW`, once held, wait until `release`. */
class HeldReads extends MemoryObjectIo {
  private holding = false;
  private let: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.let = resolve));

  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.let();
  }

  override async get(key: string, range?: ByteRange): Promise<GetResult> {
    const seq = seqOfAnyObjectKey(key);
    if (this.holding && seq !== null && seq < HELD_BELOW) await this.gate;
    return super.get(key, range);
  }
}

async function gtPrefix(objects: number): Promise<HeldReads> {
  const io = new HeldReads();
  for (let at = 0; at < objects; at++) {
    const seq = BigInt(at);
    await io.putIfAbsent(objectKey(GT, seq), gtChainObject(seq, R1, new Uint8Array([1])));
  }
  return io;
}

async function cairnPrefix(objects: number): Promise<HeldReads> {
  const io = new HeldReads();
  for (let at = 0; at < objects; at++) {
    const seq = BigInt(at);
    await io.putIfAbsent(
      objectKey(CAIRN, seq),
      objectBytes({ seq, epoch: 1n, link: seq === 0n ? null : [seq - 1n, 1n] }),
    );
  }
  return io;
}

function shape(snapshot: PrefixSnapshot) {
  const report = snapshot.format === 'greptimedb-v1' ? snapshot.report : snapshot.inspected.report;
  const chain = report.chain.map((o) => o.seq);
  return {
    done: snapshot.progress?.done,
    total: snapshot.progress?.total,
    tip: report.tip?.seq,
    chainFrom: chain[0],
    chainLength: chain.length,
    entries: report.regions.find((r) => r.regionId === R1 || r.regionId === (1n << 32n) + 1n)
      ?.entries,
  };
}

describe.each([
  { format: 'GreptimeDB', make: gtPrefix, prefix: GT },
  { format: 'Cairn', make: cairnPrefix, prefix: CAIRN },
])('the first open of a big $format prefix', ({ make, prefix }) => {
  it('shows the tip and the newest objects while the oldest are read, then the whole', async () => {
    const io = await make(OBJECTS);
    const model = new PrefixModel(await locatePrefix(io, '', 'test', prefix));
    io.hold();
    const first = shape(await model.read(0, Date.now(), true));
    expect(first.done).toBe(false);
    expect(first.total).toBe(OBJECTS);
    expect(first.tip).toBe(BigInt(OBJECTS - 1));
    // The provisional chain: the newest objects read, down to the first one not read yet.
    expect(first.chainFrom).toBe(HELD_BELOW);
    expect(first.chainLength).toBe(OBJECTS - Number(HELD_BELOW));
    expect(first.entries).toBe(OBJECTS - Number(HELD_BELOW));

    io.release();
    const whole = shape(await model.read(0, Date.now(), false));
    expect(whole).toEqual({
      done: true,
      total: OBJECTS,
      tip: BigInt(OBJECTS - 1),
      chainFrom: 0n,
      chainLength: OBJECTS,
      entries: OBJECTS,
    });
  });

  it('never shows a small prefix provisionally', async () => {
    const io = await make(200);
    const model = new PrefixModel(await locatePrefix(io, '', 'test', prefix));
    expect(shape(await model.read(0, Date.now(), true))).toMatchObject({
      done: true,
      chainLength: 200,
    });
  });
});
