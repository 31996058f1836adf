import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { FencedError, type CorruptObjectCheck } from '../../../src/main/engine/wal/errors';
import {
  FOOTER_ENTRY_AT,
  TAIL_WINDOW_BYTES,
  TRAILER_AT,
} from '../../../src/main/engine/wal/format';
import { openWriter } from '../../../src/main/engine/wal/open';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { edited, footerEntryAt, trailerAt } from '../wal-objects';
import {
  CONFIG,
  CountingIo,
  keyAt,
  objectBytes,
  putChain,
  putObject,
  REGION_A,
  REGION_B,
  writeRegister,
} from './prefix-builder';

const open = (io: ObjectIo) => openWriter(io, CONFIG, { probe: false });
const seqs = (objects: ReadonlyArray<{ seq: bigint }>): bigint[] => objects.map((o) => o.seq);

async function failureOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the open to fail');
}

describe('recovery: chain selection on hand-built prefixes', () => {
  it('takes the complete chain of the largest epoch; late objects of an older epoch are orphans', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 2n });
    await putChain(io, 1n, [0n, 1n, 2n, 3n]);
    await putChain(io, 1n, [4n, 5n], [3n, 1n]); // epoch 1 went on after epoch 2 took over
    await putChain(io, 2n, [67n, 68n], [3n, 1n]);
    const session = await open(io);
    expect(session.epoch).toBe(3n);
    expect(seqs(session.recovery.chain)).toEqual([0n, 1n, 2n, 3n, 67n, 68n]);
    expect(seqs(session.recovery.orphans)).toEqual([4n, 5n]);
    expect(session.recovery.tip).toMatchObject({ seq: 68n, epoch: 2n });
    expect(session.startObject).toEqual({ seq: 132n, epoch: 3n, key: keyAt(132n) });
    expect(session.catalog.tip()).toEqual({ seq: 132n, epoch: 3n });
    expect(session.catalog.object(132n)?.link).toEqual({ seq: 68n, epoch: 2n });
    expect(session.catalog.latestEntryId(REGION_A)).toBe((68n << 20n) | 1n);
  });

  it('a larger epoch with a broken link loses to a complete chain; its object still counts for the next sequence', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 3n });
    await putChain(io, 2n, [0n, 1n]);
    await putObject(io, { seq: 100n, epoch: 3n, link: [99n, 3n] });
    await putObject(io, { seq: 101n, epoch: 3n, link: [100n, 3n] });
    await putObject(io, { seq: 50n, epoch: 3n, link: [1n, 9n] }); // wrong linked epoch
    const session = await open(io);
    expect(seqs(session.recovery.chain)).toEqual([0n, 1n]);
    expect(seqs(session.recovery.orphans)).toEqual([50n, 100n, 101n]);
    expect(session.startObject.seq).toBe(165n);
  });

  it('accepts a missing predecessor below the boundary and lists nothing below it', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n, boundary: 10n });
    await putObject(io, { seq: 5n, epoch: 1n, link: null }); // below the boundary: not needed
    await putChain(io, 1n, [10n, 11n], [9n, 1n]);
    const session = await open(io);
    expect(seqs(session.recovery.chain)).toEqual([10n, 11n]);
    expect(session.recovery.listed).toBe(2);
    expect(session.catalog.object(5n)).toBeUndefined();
  });

  it('excludes objects of a sealed epoch above its lastSeq, for good', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, {
      writerEpoch: 2n,
      segments: [{ firstEpoch: 1n, lastEpoch: 1n, lastSeq: 3n, reason: 'taken-over' }],
    });
    await putChain(io, 1n, [0n, 1n, 2n, 3n, 4n, 5n]);
    const session = await open(io);
    expect(seqs(session.recovery.chain)).toEqual([0n, 1n, 2n, 3n]);
    expect(seqs(session.recovery.excluded)).toEqual([4n, 5n]);
    expect(session.recovery.tip).toMatchObject({ seq: 3n, epoch: 1n });
    // Excluded objects still count for the start gap.
    expect(session.startObject.seq).toBe(69n);
  });

  it('seals the taken-over epoch so objects a live old writer lands later are excluded', async () => {
    const io = new MemoryObjectIo();
    await putChain(io, 1n, [0n, 1n]);
    await writeRegister(io, { writerEpoch: 1n });
    const second = await open(io);
    expect(second.register.current().control.segments).toEqual([
      { firstEpoch: 1n, lastEpoch: 1n, lastSeq: 1n, reason: 'taken-over' },
    ]);
    // The old writer (epoch 1) was still running: its next object lands after the takeover.
    await putObject(io, { seq: 2n, epoch: 1n, link: [1n, 1n] });
    const third = await open(io);
    expect(seqs(third.recovery.excluded)).toEqual([2n]);
    expect(seqs(third.recovery.chain)).toEqual([0n, 1n, second.startObject.seq]);
    expect(third.register.current().control.segments.map((r) => [r.lastEpoch, r.lastSeq])).toEqual([
      [1n, 1n],
      [2n, second.startObject.seq],
    ]);
  });

  it('fails with TailMissing when the recorded tail is not on the chain', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n, tail: { seq: 5n, epoch: 1n } });
    await putChain(io, 1n, [0n, 1n, 2n]);
    const error = await failureOf(open(io));
    expect(error).toMatchObject({ code: 'TailMissing', key: keyAt(5n) });
  });

  it('ignores a recorded tail below the boundary', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n, tail: { seq: 1n, epoch: 1n }, boundary: 2n });
    await putChain(io, 1n, [2n, 3n], [1n, 1n]);
    expect(seqs((await open(io)).recovery.chain)).toEqual([2n, 3n]);
  });

  it('fails with NoCompleteChain when objects are present but none is complete', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n });
    await putChain(io, 1n, [5n, 6n], [4n, 1n]);
    const error = await failureOf(open(io));
    expect(error).toMatchObject({ code: 'NoCompleteChain' });
  });

  it('opens a prefix whose only object a seal record excludes, above it', async () => {
    // Three openers at once: the first (epoch 1) created its start object at 64 after the
    // second (epoch 2) had listed nothing and sealed epoch 1 with no object; the second was
    // then fenced by the third. The epoch-1 object was never acknowledged (its writer was
    // fenced): it must not wedge every later open with NoCompleteChain.
    const io = new MemoryObjectIo();
    await writeRegister(io, {
      writerEpoch: 3n,
      segments: [{ firstEpoch: 1n, lastEpoch: 1n, lastSeq: null, reason: 'taken-over' }],
    });
    await putChain(io, 1n, [64n]);
    const session = await open(io);
    expect(session.epoch).toBe(4n);
    expect(seqs(session.recovery.excluded)).toEqual([64n]);
    expect(session.startObject.seq).toBe(128n);
    expect(session.recovery.chain).toEqual([]);
    expect(session.catalog.tip()?.seq).toBe(128n);
  });

  it('indexes the persisted watermarks and starts above them', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, {
      writerEpoch: 1n,
      watermarks: new Map([[REGION_B, (900n << 20n) | 4n]]),
    });
    await putChain(io, 1n, [0n, 1n]);
    const session = await open(io);
    expect(session.catalog.watermark(REGION_B)).toBe((900n << 20n) | 4n);
    expect(session.startObject.seq).toBe(964n);
  });

  it('fails with SequenceExhausted when the start object would pass 2^44', async () => {
    const io = new MemoryObjectIo();
    const seq = 2n ** 44n - 64n;
    await writeRegister(io, {
      writerEpoch: 1n,
      watermarks: new Map([[REGION_A, (seq << 20n) | 1n]]),
    });
    expect(await failureOf(open(io))).toMatchObject({ code: 'SequenceExhausted' });
  });

  it('raises the epoch above a listed object that carries ours or a later one', async () => {
    const io = new MemoryObjectIo();
    await putChain(io, 5n, [0n, 1n]); // e.g. the register was lost and recreated
    const session = await open(io);
    expect(session.epoch).toBe(6n);
    expect(session.startObject).toMatchObject({ seq: 65n, epoch: 6n });
    expect(session.register.current().control.writerEpoch).toBe(6n);
    // Every epoch below ours without a record is sealed: 1-4 left nothing, 5 ends at 1.
    expect(session.register.current().control.segments).toEqual([
      { firstEpoch: 1n, lastEpoch: 4n, lastSeq: null, reason: 'taken-over' },
      { firstEpoch: 5n, lastEpoch: 5n, lastSeq: 1n, reason: 'taken-over' },
    ]);
  });

  it('lists more than 1,000 objects across pages and indexes them in order', async () => {
    const io = new MemoryObjectIo();
    const all = Array.from({ length: 1100 }, (_, i) => BigInt(i));
    await putChain(io, 1n, all);
    const session = await open(io);
    expect(session.recovery.chain).toHaveLength(1100);
    expect(session.catalog.objectCount).toBe(1101);
    expect(session.startObject.seq).toBe(1099n + 64n);
  });

  it('reads one suffix range per object, and one more only when the footer starts before it', async () => {
    const io = new CountingIo();
    await putChain(io, 1n, [0n, 1n]);
    // ~1,400 regions: the footer alone is larger than the 64 KiB window.
    const regions = Array.from({ length: 1400 }, (_, i) => [BigInt(i + 1), 1] as const);
    const wide = await putObject(io, { seq: 2n, epoch: 1n, link: [1n, 1n], regions });
    expect(wide.length).toBeGreaterThan(TAIL_WINDOW_BYTES);
    await writeRegister(io, { writerEpoch: 1n });
    const session = await open(io);
    expect(seqs(session.recovery.chain)).toEqual([0n, 1n, 2n]);
    expect(io.getsOf(keyAt(0n)).map((g) => g.range)).toEqual([{ suffix: TAIL_WINDOW_BYTES }]);
    const wideReads = io.getsOf(keyAt(2n));
    expect(wideReads).toHaveLength(2);
    expect(wideReads[0]?.range).toEqual({ suffix: TAIL_WINDOW_BYTES });
    expect(wideReads[1]?.range).toMatchObject({ start: expect.any(Number) });
    expect(session.catalog.regions()).toHaveLength(1401); // 1,400 + REGION_A of the others
  });

  it('never assumes listing order', async () => {
    const io = new MemoryObjectIo();
    await putChain(io, 1n, [0n, 1n, 2n]);
    const reversed: ObjectIo = Object.assign(Object.create(io) as ObjectIo, {
      list: async function* (prefix: string, options?: Parameters<ObjectIo['list']>[1]) {
        for await (const page of io.list(prefix, options))
          yield { ...page, objects: [...page.objects].reverse() };
      },
    });
    expect(seqs((await open(reversed)).recovery.chain)).toEqual([0n, 1n, 2n]);
  });
});

describe('recovery: every structural corruption fails the open with its check and key', () => {
  const SAMPLE = objectBytes({
    seq: 1n,
    epoch: 1n,
    link: [0n, 1n],
    regions: [
      [REGION_A, 2],
      [REGION_B, 1],
    ],
  });
  const trailerField = (b: Uint8Array, f: keyof typeof TRAILER_AT): number =>
    trailerAt(b) + TRAILER_AT[f];
  const footerField = (b: Uint8Array, i: number, f: keyof typeof FOOTER_ENTRY_AT): number =>
    footerEntryAt(b, i) + FOOTER_ENTRY_AT[f];
  const flip =
    (at: (b: Uint8Array) => number) =>
    (bytes: Uint8Array): Uint8Array => {
      const copy = Uint8Array.from(bytes);
      const i = at(copy);
      copy[i] = (copy[i] ?? 0) ^ 0x10;
      return copy;
    };
  const resealed =
    (edit: (v: DataView, b: Uint8Array) => void) =>
    (bytes: Uint8Array): Uint8Array =>
      edited(bytes, edit);

  const cases: Array<[CorruptObjectCheck, (bytes: Uint8Array) => Uint8Array]> = [
    ['trailer-magic', flip((b) => trailerAt(b) + 2)],
    ['trailer-crc', flip((b) => trailerField(b, 'epoch'))],
    ['footer-crc', flip((b) => footerField(b, 0, 'lastId'))],
    ['seq-mismatch', resealed((v, b) => v.setBigUint64(trailerField(b, 'seq'), 9n, true))],
    ['trailer-link', resealed((v, b) => v.setUint32(trailerField(b, 'hasLink'), 2, true))],
    [
      'footer-bounds',
      resealed((v, b) => v.setBigUint64(trailerField(b, 'footerOffset'), 60n, true)),
    ],
    ['footer-count', resealed((v, b) => v.setUint32(footerEntryAt(b, 0) - 4, 5, true))],
    [
      'segments-order',
      resealed((v, b) => v.setBigUint64(footerField(b, 1, 'regionId'), REGION_A, true)),
    ],
    ['segments-tile', resealed((v, b) => v.setBigUint64(footerField(b, 0, 'offset'), 0n, true))],
    ['segment-ids', resealed((v, b) => v.setUint32(footerField(b, 0, 'entries'), 0, true))],
    ['object-size', (b) => b.subarray(0, 100)],
  ];

  it.each(cases)('%s', async (check, damage) => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n });
    await putObject(io, { seq: 0n, epoch: 1n, link: null });
    await io.putIfAbsent(keyAt(1n), damage(SAMPLE));
    await putObject(io, { seq: 2n, epoch: 1n, link: [1n, 1n] });
    const error = await failureOf(open(io));
    expect(error).toMatchObject({ code: 'CorruptObject', key: keyAt(1n), check });
    // Nothing was written: no start object.
    expect((await io.listPage(`${keyAt(0n).slice(0, -24)}`)).objects).toHaveLength(3);
  });

  it('reports the lowest corrupt object when several are', async () => {
    const io = new MemoryObjectIo();
    await writeRegister(io, { writerEpoch: 1n });
    await putObject(io, { seq: 0n, epoch: 1n, link: null });
    for (let seq = 1n; seq <= 12n; seq++)
      await io.putIfAbsent(keyAt(seq), Uint8Array.from([1, 2, 3]));
    expect(await failureOf(open(io))).toMatchObject({
      code: 'CorruptObject',
      key: keyAt(1n),
      check: 'object-size',
    });
  });
});

describe('recovery: the open meets another opener', () => {
  it('is fenced when a newer opener takes the start sequence', async () => {
    const io = new MemoryObjectIo();
    await putChain(io, 1n, [0n]);
    await writeRegister(io, { writerEpoch: 1n });
    let interfered = false;
    const racing: ObjectIo = Object.assign(Object.create(io) as ObjectIo, {
      putIfAbsent: async (key: string, bytes: Uint8Array) => {
        if (!interfered && key.endsWith('.wal')) {
          interfered = true;
          const rival = await open(io); // takes epoch 3 and creates the same start key
          expect(rival.startObject.key).toBe(key);
        }
        return io.putIfAbsent(key, bytes);
      },
    });
    const error = await failureOf(open(racing));
    expect(error).toBeInstanceOf(FencedError);
    expect(error).toMatchObject({ epoch: 3n });
  });

  it('places the start object higher when a late object of an older epoch took its sequence', async () => {
    const io = new MemoryObjectIo();
    await putChain(io, 1n, [0n, 1n]);
    await writeRegister(io, { writerEpoch: 1n });
    let interfered = false;
    const racing: ObjectIo = Object.assign(Object.create(io) as ObjectIo, {
      putIfAbsent: async (key: string, bytes: Uint8Array) => {
        if (!interfered && key === keyAt(65n)) {
          interfered = true; // the old writer (epoch 1) lands an object there first
          await putObject(io, { seq: 65n, epoch: 1n, link: [1n, 1n] });
        }
        return io.putIfAbsent(key, bytes);
      },
    });
    const session = await open(racing);
    expect(session.startObject.seq).toBe(129n);
    expect(seqs(session.recovery.excluded)).toEqual([65n]);
    expect(seqs(session.recovery.chain)).toEqual([0n, 1n]);
  });
});
