import { describe, expect, it } from 'vitest';
import { CellManifestStore } from '../../../src/main/engine/manifest/cell-manifest-store';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { CONTROL_FIELDS } from '../../../src/main/engine/wal/control-fields';
import { FencedError } from '../../../src/main/engine/wal/errors';
import {
  EpochRegister,
  PRUNE_EVERY_UPDATES,
  readControl,
} from '../../../src/main/engine/wal/register';

const PREFIX = 'rt/nodes/1/generations/0';
const storeOn = (io: MemoryObjectIo, writerId: string): CellManifestStore =>
  new CellManifestStore(io, PREFIX, { writerId });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('the WAL register', () => {
  it('creates the register at epoch 1, then each takeover adds one', async () => {
    const io = new MemoryObjectIo();
    const first = await EpochRegister.takeEpoch(storeOn(io, 'a'), PREFIX, 'a');
    expect([first.epoch, first.writerId]).toEqual([1n, 'a']);
    const second = await EpochRegister.takeEpoch(storeOn(io, 'b'), PREFIX, 'b');
    expect([second.epoch, second.writerId]).toEqual([2n, 'b']);
    expect((await readControl(storeOn(io, 'r')))?.control.writerEpoch).toBe(2n);
  });

  it('gives N concurrent openers distinct epochs; exactly one holds the newest', async () => {
    const io = new MemoryObjectIo();
    const ids = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const registers = await Promise.all(
      ids.map((id) => EpochRegister.takeEpoch(storeOn(io, id), PREFIX, id)),
    );
    const epochs = registers.map((r) => r.epoch).sort((a, b) => (a < b ? -1 : 1));
    expect(epochs).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
    const current = await Promise.all(registers.map((r) => r.isCurrent()));
    expect(current.filter(Boolean)).toHaveLength(1);
    const holder = registers[current.indexOf(true)];
    expect(holder?.epoch).toBe(8n);

    // Every older holder's update is fenced, naming the newest epoch and its writer.
    for (const older of registers.filter((r) => r !== holder)) {
      const error = await caught(older.update((c) => ({ ...c, boundary: 1n })));
      expect(error).toBeInstanceOf(FencedError);
      expect(error).toMatchObject({ code: 'Fenced', epoch: 8n, writerId: holder?.writerId });
      // ... and stays fenced without another round trip.
      expect(await caught(older.update((c) => c))).toBe(error);
      expect(await older.isCurrent()).toBe(false);
    }
    await holder?.update((c) => ({ ...c, boundary: 5n }));
    expect((await readControl(storeOn(io, 'r')))?.control.boundary).toBe(5n);
  });

  it('raises the epoch above a listed one and is fenced if another opener moved first', async () => {
    const io = new MemoryObjectIo();
    const a = await EpochRegister.takeEpoch(storeOn(io, 'a'), PREFIX, 'a');
    await a.raiseEpochAbove(9n);
    expect([a.epoch, a.writerId]).toEqual([10n, 'a']);
    const b = await EpochRegister.takeEpoch(storeOn(io, 'b'), PREFIX, 'b');
    expect(b.epoch).toBe(11n);
    expect(await caught(a.raiseEpochAbove(20n))).toMatchObject({
      code: 'Fenced',
      epoch: 11n,
      writerId: 'b',
    });
    expect(await caught(a.refresh())).toBeInstanceOf(FencedError);
  });

  it('a holder re-takes the epoch from its own version, never over another writer', async () => {
    const io = new MemoryObjectIo();
    const a = await EpochRegister.takeEpoch(storeOn(io, 'a'), PREFIX, 'a');
    await a.update((c) => ({ ...c, boundary: 3n }));
    const retaken = await a.retakeEpoch('a2');
    expect([a.epoch, a.writerId, retaken.boundary]).toEqual([2n, 'a2', 3n]);
    expect(await a.isCurrent()).toBe(true);
    const b = await EpochRegister.takeEpoch(storeOn(io, 'b'), PREFIX, 'b');
    expect(b.epoch).toBe(3n);
    // A reopen never takes a prefix over: the register moved, so it is fenced, writing nothing.
    expect(await caught(a.retakeEpoch('a3'))).toMatchObject({ code: 'Fenced', epoch: 3n });
    expect((await readControl(storeOn(io, 'r')))?.control).toMatchObject({
      writerEpoch: 3n,
      writerId: 'b',
    });
  });

  it('preserves unknown fields and prunes old versions now and then (never the newest 16)', async () => {
    const io = new MemoryObjectIo();
    const store = storeOn(io, 'seed');
    await store.create({ [CONTROL_FIELDS.writerEpoch]: '3', 'vendor.extra': 'x' });
    const holder = await EpochRegister.takeEpoch(storeOn(io, 'h'), PREFIX, 'h');
    expect(holder.epoch).toBe(4n);
    for (let i = 1; i <= PRUNE_EVERY_UPDATES; i++)
      await holder.update((c) => ({ ...c, boundary: BigInt(i) }));
    const latest = await store.read();
    expect(latest?.fields['vendor.extra']).toBe('x');
    expect(latest?.fields[CONTROL_FIELDS.boundary]).toBe(String(PRUNE_EVERY_UPDATES));
    const history = await store.history(1000);
    expect(history.length).toBeGreaterThanOrEqual(16);
    expect(history.length).toBeLessThan(PRUNE_EVERY_UPDATES);
    expect(await holder.isCurrent()).toBe(true);
  });

  it('normalizes the directory on update and refuses one above the budget', async () => {
    const io = new MemoryObjectIo();
    const holder = await EpochRegister.takeEpoch(
      new CellManifestStore(io, PREFIX, { maxDirectoryBytes: 200 }),
      PREFIX,
      'h',
    );
    await holder.seal([{ firstEpoch: 1n, lastEpoch: 1n, lastSeq: 3n, reason: 'stopped' }]);
    expect(holder.current().control.segments).toHaveLength(1);
    const error = await caught(
      holder.seal([
        { firstEpoch: 2n, lastEpoch: 2n, lastSeq: 4n, reason: 'stopped' },
        { firstEpoch: 3n, lastEpoch: 3n, lastSeq: 5n, reason: 'stopped' },
      ]),
    );
    expect(error).toMatchObject({ code: 'SegmentDirectoryFull', budget: 200 });
    // Nothing changed and the holder still holds the register.
    expect(holder.current().control.segments).toHaveLength(1);
    expect(await holder.isCurrent()).toBe(true);
  });
});
