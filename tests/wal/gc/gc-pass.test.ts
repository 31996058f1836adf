/**
 * Garbage-collection passes on every storage lane (memory, local, S3 when configured): the
 * steady write-obsolete-collect loop stays bounded and reopens with exactly the unobsoleted
 * entries; crashes between the boundary CAS and the deletes, and mid-deletes, are resumed; a
 * fenced writer's pass deletes nothing; a read-only inspect never deletes and re-judges after a
 * GC slipped between its listing and its reads; a late-landing object of a failed create is
 * never taken as the tip; the dry run lists exactly what the pass deletes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import { openMaintenance } from '../../../src/main/engine/wal/open';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import { collectAsMaintenance } from '../../../src/main/engine/wal/gc';
import { encodeObject } from '../../../src/main/engine/wal/format';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import {
  PREFIX,
  REGION_A,
  REGION_B,
  codeOf,
  keyAt,
  openStore,
  providerOf,
  settle,
  walConfig,
} from '../support/writer-harness';
import { GcProbeIo, appendOne, gcLanes, readPairs, storedSeqs } from './gc-support';

const { lanes, dispose } = gcLanes('wal-gc');
afterAll(dispose);

const quiet = { gcAfterObsolete: false } as const;

async function registerBoundary(io: GcProbeIo): Promise<bigint> {
  return (await readControl(registerStoreOf(io, PREFIX)))?.control.boundary ?? 0n;
}

/** Writes `count` objects, one entry of A and one of B each; returns the ids per region. */
async function writeRounds(
  store: ObjectStoreLogStore,
  count: number,
  tag: string,
): Promise<{ a: Array<[bigint, string]>; b: Array<[bigint, string]> }> {
  const a: Array<[bigint, string]> = [];
  const b: Array<[bigint, string]> = [];
  for (let i = 0; i < count; i++) {
    const result = await store.appendBatch([
      store.entry(
        new TextEncoder().encode(`${tag}a${i}`),
        0n,
        REGION_A,
        providerOf(store, REGION_A),
      ),
      store.entry(
        new TextEncoder().encode(`${tag}b${i}`),
        0n,
        REGION_B,
        providerOf(store, REGION_B),
      ),
    ]);
    a.push([result.lastEntryIds.get(REGION_A) ?? 0n, `${tag}a${i}`]);
    b.push([result.lastEntryIds.get(REGION_B) ?? 0n, `${tag}b${i}`]);
  }
  return { a, b };
}

describe.each(lanes)('garbage collection on %s', (_lane, makeIo) => {
  it('done when: a steady write-obsolete-collect loop stays bounded and reopens with exactly the unobsoleted entries', async () => {
    const io = new GcProbeIo(await makeIo());
    let store = await openStore(io);
    const keptB: Array<[bigint, string]> = [];
    const maxStored: number[] = [];
    for (let round = 0; round < 24; round++) {
      const a = await appendOne(store, REGION_A, `a${round}`);
      const b = await appendOne(store, REGION_B, `b${round}`);
      keptB.push([b, `b${round}`]);
      await store.obsolete(providerOf(store, REGION_A), REGION_A, a);
      // Keep the newest three entries of B.
      if (keptB.length > 3) {
        const [dropped] = keptB.splice(0, 1);
        await store.obsolete(providerOf(store, REGION_B), REGION_B, dropped![0]);
      }
      const report = await store.gc();
      expect(report.failure).toBeNull();
      maxStored.push((await storedSeqs(io)).length);
      if (round % 8 === 7) {
        await store.stop();
        store = await openStore(io);
        expect(await readPairs(store, REGION_A)).toEqual([]);
        expect(await readPairs(store, REGION_B)).toEqual(keptB);
      }
    }
    // Three objects of B kept, plus at most the objects of A and the start objects above them.
    expect(Math.max(...maxStored)).toBeLessThanOrEqual(8);
    expect(io.deletes.length).toBeGreaterThan(24);
    await store.stop();

    const inspected = await inspectPrefix(io, walConfig());
    expect(inspected.failure).toBeNull();
    expect(inspected.listed).toBeLessThanOrEqual(8);
    expect(inspected.register.boundary).toBeGreaterThan(0n);
    expect(inspected.regions.find((r) => r.regionId === REGION_B)?.entries).toBe(3);
    const reopened = await openStore(io);
    expect(await readPairs(reopened, REGION_B)).toEqual(keptB);
    await reopened.stop();
  });

  it('a crash between the boundary CAS and the deletes, and one mid-deletes, are resumed by the next pass', async () => {
    const io = new GcProbeIo(await makeIo());
    const store = await openStore(io, {}, quiet);
    const { a, b } = await writeRounds(store, 6, 'x');
    await store.obsolete(providerOf(store, REGION_A), REGION_A, a[5]![0]);
    await store.obsolete(providerOf(store, REGION_B), REGION_B, b[3]![0]);
    const before = await storedSeqs(io);

    io.deleteBudget = 0; // CAS passes, then the process stops deleting.
    const crashed = await store.gc();
    expect(crashed.failure).not.toBeNull();
    expect(crashed.objects).toEqual([]);
    expect(crashed.boundary).toBe(b[4]![0] >> 20n);
    expect(await registerBoundary(io)).toBe(crashed.boundary);
    expect(await storedSeqs(io)).toEqual(before);
    await store.stop();

    io.deleteBudget = Infinity;
    let reopened = await openStore(io, {}, quiet);
    expect(await readPairs(reopened, REGION_B)).toEqual(b.slice(4));
    expect(await readPairs(reopened, REGION_A)).toEqual([]);
    await reopened.stop();

    io.deleteBudget = io.deletes.length + 1; // one delete, then a crash
    reopened = await openStore(io, {}, quiet);
    const partial = await reopened.gc();
    expect(partial.objects.length).toBe(1);
    expect(partial.remaining).toBeGreaterThan(0);
    expect(partial.objects[0]!.seq).toBe(before[0]);
    await reopened.stop();

    io.deleteBudget = Infinity;
    reopened = await openStore(io, {}, quiet);
    const resumed = await reopened.gc();
    expect(resumed.failure).toBeNull();
    expect((await storedSeqs(io)).every((seq) => seq >= resumed.boundary)).toBe(true);
    expect(await readPairs(reopened, REGION_B)).toEqual(b.slice(4));
    await reopened.stop();
  });

  it("a fenced writer's pass fails with Fenced and deletes nothing", async () => {
    const io = new GcProbeIo(await makeIo());
    const old = await openStore(io, {}, quiet);
    const { a } = await writeRounds(old, 3, 'f');
    await old.obsolete(providerOf(old, REGION_A), REGION_A, a[2]![0]);
    const newer = await openStore(io, {}, quiet);
    const boundary = await registerBoundary(io);
    const outcome = await settle(old.gc());
    expect(outcome.ok).toBe(false);
    expect(codeOf(outcome.ok ? null : outcome.error)).toBe('Fenced');
    expect(io.deletes).toEqual([]);
    expect(await registerBoundary(io)).toBe(boundary);
    await old.stop();
    expect((await newer.gc()).failure).toBeNull();
    await newer.stop();
  });

  it('a read-only inspect never deletes, and re-judges after a GC slipped between its listing and its reads', async () => {
    const io = new GcProbeIo(await makeIo());
    const store = await openStore(io, {}, quiet);
    const { a, b } = await writeRounds(store, 5, 'r');
    await store.obsolete(providerOf(store, REGION_A), REGION_A, a[4]![0]);
    await store.obsolete(providerOf(store, REGION_B), REGION_B, b[2]![0]);
    let pass: Awaited<ReturnType<ObjectStoreLogStore['gc']>> | null = null;
    io.beforeObjectsListing = async () => {
      pass = await store.gc();
    };
    const report = await inspectPrefix(io, walConfig());
    expect(pass).not.toBeNull();
    expect(report.failure).toBeNull();
    expect(report.missing.length).toBeGreaterThan(0);
    expect(report.register.boundary).toBe(0n); // read before the pass
    expect(report.chain[0]!.seq).toBe(b[3]![0] >> 20n);
    const deletesByGc = io.deletes.length;

    // Inspect and replay alongside a pass: they read, never delete.
    const [inspected] = await Promise.all([inspectPrefix(io, walConfig()), store.gc()]);
    expect(inspected.failure).toBeNull();
    const log = await openReadOnly(io, walConfig());
    const replayed: bigint[] = [];
    for await (const entry of log.read({ prefix: log.prefix, regionId: REGION_B }, 0n))
      replayed.push(entry.id);
    expect(replayed).toEqual(b.slice(3).map(([id]) => id));
    expect(io.deletes.length).toBe(deletesByGc);
    await store.stop();
  });

  it("the writer's reader skips an object collected while it waited; the dry run lists exactly what the pass deletes", async () => {
    const io = new GcProbeIo(await makeIo());
    const store = await openStore(io, {}, quiet);
    const { a, b } = await writeRounds(store, 6, 'd');
    io.inject({ op: 'get', key: /\/objects\//, kind: 'delay', delayMs: 40 });
    const reading = readPairs(store, REGION_B);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.obsolete(providerOf(store, REGION_B), REGION_B, b[2]![0]);
    await store.obsolete(providerOf(store, REGION_A), REGION_A, a[5]![0]);
    const dry = await store.gcDryRun();
    const pass = await store.gc();
    expect(pass.objects).toEqual(dry.objects);
    expect(pass.bytes).toBe(dry.bytes);
    expect(pass.boundary).toBe(dry.boundary);
    expect(dry.objects.length).toBeGreaterThan(0);
    expect(await reading).toEqual(b.slice(3));
    io.clear();
    await store.stop();
  });

  it('a late-landing object of a failed create is never taken as the tip, before and after its seal record is collected', async () => {
    const io = new GcProbeIo(await makeIo());
    const first = await openStore(io, {}, quiet);
    const { a } = await writeRounds(first, 2, 'l');
    const epoch = first.epoch;
    const report = await first.stop();
    const lastSeq = report.lastSeq!;
    const late = (seq: bigint) =>
      encodeObject({
        seq,
        epoch,
        link: { seq: lastSeq, epoch },
        segments: new Map([
          [REGION_A, [{ id: (seq << 20n) | 1n, bytes: new TextEncoder().encode('late') }]],
        ]),
      }).bytes;
    await io.putIfAbsent(keyAt(lastSeq + 1n), late(lastSeq + 1n));
    const second = await openStore(io, {}, quiet);
    expect((await readPairs(second, REGION_A)).map(([id]) => id)).toEqual(a.map(([id]) => id));
    await second.obsoleteAll(providerOf(second, REGION_A), REGION_A);
    await second.obsoleteAll(providerOf(second, REGION_B), REGION_B);
    const pass = await second.gc();
    expect(pass.boundary).toBe(second.state().indexedTip!.seq);
    await second.stop();
    // The first epoch's record lies wholly below the boundary and is no longer the newest: dropped.
    const control = (await readControl(registerStoreOf(io, PREFIX)))!.control;
    expect(control.segments.some((r) => r.firstEpoch <= epoch && epoch <= r.lastEpoch)).toBe(false);
    // Another late object of the first epoch, now that its record is gone.
    await io.putIfAbsent(keyAt(lastSeq + 2n), late(lastSeq + 2n));
    const third = await openStore(io, {}, quiet);
    const inspected = await inspectPrefix(io, walConfig());
    expect(inspected.tip?.epoch).toBe(third.epoch);
    expect(await readPairs(third, REGION_A)).toEqual([]);
    const next = await appendOne(third, REGION_A, 'after');
    expect(await readPairs(third, REGION_A)).toEqual([[next, 'after']]);
    await third.stop();
  });

  it('a maintenance pass moves the boundary of a prefix that opens, and only finishes leftovers on one that does not', async () => {
    const io = new GcProbeIo(await makeIo());
    const store = await openStore(io, {}, quiet);
    const { b } = await writeRounds(store, 4, 'm');
    await store.obsoleteAll(providerOf(store, REGION_A), REGION_A);
    await store.obsolete(providerOf(store, REGION_B), REGION_B, b[1]![0]);
    await store.stop();
    const session = await openMaintenance(io, walConfig(), { probe: false });
    const pass = await collectAsMaintenance(session);
    expect(pass.unjudged).toBeNull();
    expect(pass.boundary).toBe(b[2]![0] >> 20n);
    expect((await storedSeqs(io))[0]).toBe(pass.boundary);

    // A prefix that does not open: its tail is gone. A leftover below the boundary is still collected.
    const leftover = keyAt(pass.boundary - 1n);
    await io.putIfAbsent(leftover, new Uint8Array([1, 2, 3]));
    const reopened = await openStore(io, {}, quiet);
    const tip = reopened.state().indexedTip!;
    await reopened.stop();
    await io.delete(keyAt(tip.seq));
    expect((await inspectPrefix(io, walConfig())).failure?.code).toBe('TailMissing');
    const maintenance = await openMaintenance(io, walConfig(), { probe: false });
    const finish = await collectAsMaintenance(maintenance);
    expect(finish.unjudged?.code).toBe('TailMissing');
    expect(finish.boundary).toBe(pass.boundary);
    expect(finish.objects.map((o) => o.key)).toEqual([leftover]);
    const left = await storedSeqs(io);
    expect(left.every((seq) => seq >= pass.boundary)).toBe(true);
  });
});

describe('the read-only reader after a GC', () => {
  // control.md point 5: a reader meeting a missing object re-reads the watermarks and judges
  // again, so an object collected after the log opened is skipped when its ids are obsolete now.
  it('a replay opened before a pass skips what the pass collected (re-reads the watermarks)', async () => {
    const io = new MemoryObjectIo();
    const store = await openStore(io, {}, quiet);
    const { b } = await writeRounds(store, 4, 'o');
    const log = await openReadOnly(io, walConfig());
    await store.obsoleteAll(providerOf(store, REGION_A), REGION_A);
    await store.obsolete(providerOf(store, REGION_B), REGION_B, b[1]![0]);
    await store.gc();
    const replayed: bigint[] = [];
    for await (const entry of log.read({ prefix: log.prefix, regionId: REGION_B }, 0n))
      replayed.push(entry.id);
    expect(replayed).toEqual(b.slice(2).map(([id]) => id));
    await store.stop();
  });
});
