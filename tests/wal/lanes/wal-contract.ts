/**
 * The WAL contract (wal.md, control.md; quality.md "Contract suites, run against every
 * backend"): one suite every backend must pass unchanged - appends in both ack modes read back
 * exactly, stop and reopen, obsolete watermarks persisted and hidden, the region table, a
 * damaged segment, and two live writers on one prefix. It defines tests for one lane and owns
 * no backend: the lane hands it fresh storage and a way to damage an object.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { NO_ENTRY, seqOf, type EntryId } from '../../../src/main/engine/wal/ids';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import { verifyPrefix } from '../../../src/main/engine/wal/verify';
import {
  REGION_A,
  REGION_B,
  REGION_C,
  appendParts,
  codeOf,
  collect,
  laneConfig,
  ofRegion,
  openLaneStore,
  payload,
  prefixOf,
  providerOf,
  settle,
  shapeOf,
  storedObjects,
  tagOf,
  until,
  type Part,
  type WalLane,
  type Written,
} from './lane-kit';

const TEST_TIMEOUT_MS = 20_000;

async function readRegion(store: ObjectStoreLogStore, region: bigint, from: EntryId = 0n) {
  return collect(store.read(providerOf(store, region), from));
}

/** Three regions, sizes from a byte to a few KiB, so segments of many shapes land together. */
function mixedParts(round: number): Part[] {
  return [
    [REGION_A, payload(`a${round}-0`, 1)],
    [REGION_B, payload(`b${round}-0`, 700 + round)],
    [REGION_A, payload(`a${round}-1`, 33)],
    [REGION_C, payload(`c${round}-0`, 4096 + round * 13)],
    [REGION_A, payload(`a${round}-2`, 0)],
  ];
}

async function expectRegions(
  store: ObjectStoreLogStore,
  written: readonly Written[],
): Promise<void> {
  for (const region of [REGION_A, REGION_B, REGION_C]) {
    expect(shapeOf(await readRegion(store, region)), `region ${region}`).toEqual(
      shapeOf(ofRegion(written, region)),
    );
  }
}

function appendsAcrossRegions(lane: WalLane): void {
  it(
    'durable appends across regions (serial and concurrent) read back with exact ids and bytes',
    async () => {
      const io = await lane.makeIo('durable');
      const config = laneConfig();
      const store = await openLaneStore(io, config);
      const written: Written[] = [];
      for (let round = 0; round < 3; round++)
        written.push(...(await appendParts(store, mixedParts(round))));
      const concurrent = await Promise.all(
        [3, 4, 5, 6].map((round) => appendParts(store, mixedParts(round))),
      );
      written.push(...concurrent.flat());
      // Ids are unique per region and every append's ids sit above those acknowledged before it.
      for (const region of [REGION_A, REGION_B, REGION_C]) {
        const ids = ofRegion(written, region).map((w) => w.id);
        expect(new Set(ids).size).toBe(ids.length);
      }
      expect(written.slice(5, 15).every((w) => w.id > (written[0]?.id ?? 0n))).toBe(true);
      await expectRegions(store, written);
      const a = ofRegion(written, REGION_A);
      const middle = a[Math.floor(a.length / 2)]?.id ?? 0n;
      expect(shapeOf(await readRegion(store, REGION_A, middle))).toEqual(
        shapeOf(a.filter((w) => w.id >= middle)),
      );
      expect(store.latestEntryId(providerOf(store, REGION_C))).toBe(
        ofRegion(written, REGION_C).at(-1)?.id,
      );
      expect(await readRegion(store, (9n << 32n) | 9n)).toEqual([]);
      await store.stop();

      // A read-only open and a new writer see the same entries.
      const readOnly = await openReadOnly(io, config);
      expect(shapeOf(await collect(readOnly.read(providerOf(readOnly, REGION_B), 0n)))).toEqual(
        shapeOf(ofRegion(written, REGION_B)),
      );
      const reopened = await openLaneStore(io, config, { probe: false });
      await expectRegions(reopened, written);
      await reopened.stop();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'enqueued appends are acknowledged at once and read back exactly once durable',
    async () => {
      const io = await lane.makeIo('enqueued');
      const config = laneConfig({ ackMode: 'enqueued' });
      const store = await openLaneStore(io, config);
      const written: Written[] = [];
      for (let round = 0; round < 4; round++)
        written.push(...(await appendParts(store, mixedParts(round))));
      for (const region of [REGION_A, REGION_B, REGION_C]) {
        const last = ofRegion(written, region).at(-1)?.id ?? NO_ENTRY;
        expect(store.handedOutEntryId(providerOf(store, region))).toBe(last);
        await store.waitDurable(providerOf(store, region), last);
        expect(store.latestEntryId(providerOf(store, region))).toBe(last);
      }
      await expectRegions(store, written);
      // The rest of the backlog is uploaded by stop before it returns.
      written.push(...(await appendParts(store, mixedParts(9))));
      const report = await store.stop();
      expect(report).toMatchObject({ sealed: true, lost: null, terminal: null });
      const reopened = await openLaneStore(io, config, { probe: false });
      await expectRegions(reopened, written);
      await reopened.stop();
    },
    TEST_TIMEOUT_MS,
  );
}

function stopAndReopen(lane: WalLane): void {
  it(
    'stop then reopen: sealed record "stopped", start object 64 above, ids continue above',
    async () => {
      const io = await lane.makeIo('reopen');
      const config = laneConfig();
      const first = await openLaneStore(io, config, { probe: false });
      const written: Written[] = [];
      for (let round = 0; round < 3; round++)
        written.push(...(await appendParts(first, mixedParts(round))));
      const lastSeq = seqOf(written.at(-1)?.id ?? 0n);
      const report = await first.stop();
      expect(report).toEqual({ sealed: true, lastSeq, lost: null, terminal: null });
      expect(await first.stop()).toBe(report);
      await expect(first.appendBatch([])).rejects.toMatchObject({ code: 'Stopped' });

      const inspected = await inspectPrefix(io, config);
      expect(inspected.failure).toBeNull();
      expect(inspected.register.sealed).toContainEqual({
        firstEpoch: first.epoch,
        lastEpoch: first.epoch,
        lastSeq,
        reason: 'stopped',
      });
      expect(inspected.register.tail).toEqual({ seq: lastSeq, epoch: first.epoch });
      expect(inspected.nextSeq).toBe(lastSeq + 64n);

      const second = await openLaneStore(io, config, { probe: false });
      expect(second.epoch).toBeGreaterThan(first.epoch);
      expect(second.state().indexedTip).toEqual({ seq: lastSeq + 64n, epoch: second.epoch });
      const more = await appendParts(second, mixedParts(7));
      for (const w of more) {
        expect(seqOf(w.id)).toBe(lastSeq + 65n);
        expect(w.id > (ofRegion(written, w.region).at(-1)?.id ?? 0n)).toBe(true);
      }
      await expectRegions(second, [...written, ...more]);
      await second.stop();
    },
    TEST_TIMEOUT_MS,
  );
}

function obsoleteWatermarks(lane: WalLane): void {
  it(
    'obsolete: reads hide the watermark; reopen and read-only inspect show it; it never goes down',
    async () => {
      const io = await lane.makeIo('obsolete');
      const config = laneConfig();
      const store = await openLaneStore(io, config, { probe: false });
      const written: Written[] = [];
      for (let round = 0; round < 4; round++)
        written.push(...(await appendParts(store, mixedParts(round))));
      const a = ofRegion(written, REGION_A);
      const b = ofRegion(written, REGION_B);
      const mark = a[5]?.id ?? 0n;
      await store.obsolete(providerOf(store, REGION_A), REGION_A, mark);
      await store.obsolete(providerOf(store, REGION_A), REGION_A, a[1]?.id ?? 0n); // lower: ignored
      await store.obsoleteAll(providerOf(store, REGION_B), REGION_B);
      const visibleA = a.filter((w) => w.id > mark);
      expect(shapeOf(await readRegion(store, REGION_A))).toEqual(shapeOf(visibleA));
      expect(shapeOf(await readRegion(store, REGION_A, a[2]?.id ?? 0n))).toEqual(shapeOf(visibleA));
      expect(await readRegion(store, REGION_B)).toEqual([]);
      expect(store.latestEntryId(providerOf(store, REGION_A))).toBe(a.at(-1)?.id); // not affected
      expect(store.latestEntryId(providerOf(store, REGION_B))).toBe(b.at(-1)?.id);
      await store.stop();

      const inspected = await inspectPrefix(io, config);
      expect(inspected.register.watermarks).toEqual([
        { regionId: REGION_A, watermark: mark },
        { regionId: REGION_B, watermark: b.at(-1)?.id },
      ]);
      expect(inspected.regions.find((r) => r.regionId === REGION_A)).toMatchObject({
        watermark: mark,
        latestId: a.at(-1)?.id,
      });
      const readOnly = await openReadOnly(io, config);
      expect(shapeOf(await collect(readOnly.read(providerOf(readOnly, REGION_A), 0n)))).toEqual(
        shapeOf(visibleA),
      );

      const reopened = await openLaneStore(io, config, { probe: false });
      expect(shapeOf(await readRegion(reopened, REGION_A))).toEqual(shapeOf(visibleA));
      expect(await readRegion(reopened, REGION_B)).toEqual([]);
      const [next] = await appendParts(reopened, [[REGION_B, payload('b-after', 10)]]);
      expect((next?.id ?? 0n) > (b.at(-1)?.id ?? 0n)).toBe(true);
      expect(shapeOf(await readRegion(reopened, REGION_B))).toEqual(
        shapeOf(next === undefined ? [] : [next]),
      );
      await reopened.stop();
    },
    TEST_TIMEOUT_MS,
  );
}

function namespaces(lane: WalLane): void {
  it(
    'createNamespace / deleteNamespace / listNamespaces survive a reopen',
    async () => {
      const io = await lane.makeIo('namespaces');
      const config = laneConfig();
      const store = await openLaneStore(io, config, { probe: false });
      const listed = async (s: ObjectStoreLogStore) =>
        (await s.listNamespaces()).map((p) => p.regionId);
      await store.createNamespace(providerOf(store, REGION_C)); // listed before any entry
      await store.createNamespace(providerOf(store, REGION_B));
      const written = await appendParts(store, [
        [REGION_A, payload('ns-a', 5)],
        [REGION_B, payload('ns-b', 5)],
      ]);
      expect(await listed(store)).toEqual([REGION_A, REGION_B, REGION_C]);
      await store.deleteNamespace(providerOf(store, REGION_C));
      await store.deleteNamespace(providerOf(store, REGION_B)); // obsoleteAll + removal
      expect(await readRegion(store, REGION_B)).toEqual([]);
      await store.stop();

      const inspected = await inspectPrefix(io, config);
      expect(inspected.register.regions.map((r) => r.regionId)).toEqual([]);
      // A deleted region keeps its last watermark.
      expect(inspected.register.watermarks).toContainEqual({
        regionId: REGION_B,
        watermark: ofRegion(written, REGION_B)[0]?.id,
      });

      const reopened = await openLaneStore(io, config, { probe: false });
      expect(await listed(reopened)).not.toContain(REGION_C);
      expect(await listed(reopened)).toContain(REGION_A);
      expect(await readRegion(reopened, REGION_B)).toEqual([]);
      await reopened.createNamespace(providerOf(reopened, REGION_C));
      await reopened.stop();
      const third = await openLaneStore(io, config, { probe: false });
      expect(await listed(third)).toContain(REGION_C);
      await third.stop();
    },
    TEST_TIMEOUT_MS,
  );
}

function damagedSegment(lane: WalLane): void {
  it(
    'a damaged segment: a hole under skip, CorruptSegment under fail; verifyPrefix flags the object',
    async () => {
      const io = await lane.makeIo('corrupt');
      const config = laneConfig();
      const store = await openLaneStore(io, config, { probe: false });
      const written: Written[] = [];
      for (let round = 0; round < 3; round++)
        written.push(...(await appendParts(store, mixedParts(round))));
      await store.stop();
      const before = await openReadOnly(io, config);
      const locations = before.catalog.objectsForRegion(REGION_A, 1n);
      expect(locations).toHaveLength(3);
      const hit = locations[1];
      if (hit === undefined) throw new Error('no middle segment');
      await lane.damage(io, hit.key, hit.offset + Math.floor(hit.length / 2));

      // Recovery reads trailers and footers only: the open still succeeds.
      const skipping = await openLaneStore(io, config, { probe: false });
      const survivors = ofRegion(written, REGION_A).filter(
        (w) => w.id < hit.firstId || w.id > hit.lastId,
      );
      expect(shapeOf(await readRegion(skipping, REGION_A))).toEqual(shapeOf(survivors));
      expect(skipping.metrics().skippedSegments).toBe(1);
      // The other regions of the damaged object are intact.
      expect(shapeOf(await readRegion(skipping, REGION_B))).toEqual(
        shapeOf(ofRegion(written, REGION_B)),
      );
      await skipping.stop();

      const strictConfig = laneConfig({ onCorruptedSegment: 'fail' });
      const strict = await openReadOnly(io, strictConfig);
      const failed = await settle(collect(strict.read(providerOf(strict, REGION_A), 0n)));
      expect(failed.ok).toBe(false);
      if (!failed.ok)
        expect(failed.error).toMatchObject({
          code: 'CorruptSegment',
          key: hit.key,
          region: REGION_A,
        });

      const report = await verifyPrefix(io, config);
      expect(report.damaged).toBe(1);
      const flagged = report.objects.filter((o) => !o.ok);
      expect(flagged.map((o) => o.key)).toEqual([hit.key]);
      expect(flagged[0]?.check).toBeDefined();
    },
    TEST_TIMEOUT_MS,
  );
}

interface Outcome {
  readonly tag: string;
  readonly written: readonly Written[] | null;
  readonly code: string | undefined;
}

/**
 * Keeps `depth` appends of the older writer in flight until one fails (or `limit` were
 * issued); each append is one entry of REGION_A tagged with its number.
 */
async function pumpUntilFenced(
  store: ObjectStoreLogStore,
  outcomes: Outcome[],
  limit: number,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < limit) {
      const tag = `old-${next++}`;
      const result = await settle(appendParts(store, [[REGION_A, payload(tag, 64)]]));
      outcomes.push({
        tag,
        written: result.ok ? result.value : null,
        code: result.ok ? undefined : codeOf(result.error),
      });
      if (!result.ok) failed = true;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

function twoWriters(lane: WalLane): void {
  it(
    'two live writers: the older is Fenced, nothing acknowledged is lost, no old object at or above the new start',
    async () => {
      const io: ObjectIo = await lane.makeIo('fencing');
      const faulty = new FaultyObjectIo(io);
      const config = laneConfig();
      const older = await openLaneStore(faulty, config, { probe: false });
      // Slow creates keep several of the older's objects in flight around the takeover.
      faulty.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 25, count: 12 });
      const outcomes: Outcome[] = [];
      const pumping = pumpUntilFenced(older, outcomes, 400);
      await until(
        () => outcomes.filter((o) => o.written !== null).length >= 6,
        'the older writer to acknowledge a few',
      );
      const newer = await openLaneStore(faulty, config, { probe: false });
      const newStart = newer.state().indexedTip?.seq ?? -1n;
      expect(newStart).toBeGreaterThan(0n);
      await pumping;

      const failures = outcomes.filter((o) => o.written === null);
      expect(failures.length).toBeGreaterThan(0);
      expect(new Set(failures.map((o) => o.code))).toEqual(new Set(['Fenced']));
      expect(older.state().poisoned?.code).toBe('Fenced');
      const olderAcked = outcomes.flatMap((o) => o.written ?? []);
      for (const w of olderAcked) expect(seqOf(w.id)).toBeLessThan(newStart);

      const newerAcked = [
        ...(await appendParts(newer, [[REGION_A, payload('new-0', 64)]])),
        ...(await appendParts(newer, [
          [REGION_A, payload('new-1', 64)],
          [REGION_B, payload('new-b', 3)],
        ])),
      ];
      expect((await older.stop()).terminal).toMatchObject({ code: 'Fenced' });
      await newer.stop();
      const olderObjects = (await storedObjects(io, prefixOf(config))).filter(
        (o) => o.epoch === older.epoch,
      );
      expect(olderObjects.length).toBeGreaterThan(0);
      for (const object of olderObjects) expect(object.seq).toBeLessThan(newStart);

      const final = await openLaneStore(io, config, { probe: false });
      const replayed = await readRegion(final, REGION_A);
      const tags = replayed.map((e) => tagOf(e.data));
      expect(new Set(tags).size).toBe(tags.length); // exactly once
      const byId = new Map(replayed.map((e) => [e.id, e]));
      for (const w of [...olderAcked, ...newerAcked].filter((x) => x.region === REGION_A)) {
        const found = byId.get(w.id);
        expect(found, `${tagOf(w.bytes)} acknowledged as ${w.id} but lost`).toBeDefined();
        expect(Buffer.from(found?.data ?? []).equals(Buffer.from(w.bytes))).toBe(true);
      }
      // Whatever else replays was one of the older's appends that failed while in flight.
      const failedTags = new Set(failures.map((o) => o.tag));
      const ackedTags = new Set([...olderAcked, ...newerAcked].map((w) => tagOf(w.bytes)));
      for (const tag of tags) expect(ackedTags.has(tag) || failedTags.has(tag), tag).toBe(true);
      expect(shapeOf(await readRegion(final, REGION_B))).toEqual(
        shapeOf(ofRegion(newerAcked, REGION_B)),
      );
      await final.stop();
    },
    TEST_TIMEOUT_MS,
  );
}

/** Defines the whole WAL contract for one backend. */
export function walContract(lane: WalLane | null, name: string): void {
  describe.skipIf(lane === null)(`the WAL contract on ${name}`, () => {
    if (lane === null) {
      it('is skipped: the backend is not configured', () => {});
      return;
    }
    afterAll(() => lane.dispose());
    appendsAcrossRegions(lane);
    stopAndReopen(lane);
    obsoleteWatermarks(lane);
    namespaces(lane);
    damagedSegment(lane);
    twoWriters(lane);
  });
}
