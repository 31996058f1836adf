/**
 * Model-based test of garbage collection against a reference model (control.md point 5): random
 * interleavings of appends, obsoletes, GC passes, crashes (between the boundary CAS and the
 * deletes, and mid-deletes), clean reopens, a fenced writer's pass, a read-only inspect running
 * alongside a pass, and late-landing objects of failed creates. After every step each region
 * reads back exactly its acknowledged entries above its watermark - so GC never deleted what a
 * reopen or a replay needs - and a late object's entries never appear (it is never the tip).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeObject } from '../../../src/main/engine/wal/format';
import type { ObjectLink } from '../../../src/main/engine/wal/format';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import {
  REGION_A,
  REGION_B,
  codeOf,
  entriesOf,
  keyAt,
  openStore,
  providerOf,
  settle,
  walConfig,
} from '../support/writer-harness';
import { GcProbeIo, gcLanes, readPairs, storedSeqs } from './gc-support';

const { lanes, dispose } = gcLanes('wal-gc-model');
afterAll(dispose);

const RUNS: Record<string, number> = { memory: 25, local: 6, s3: 2 };
const regionArb = fc.constantFrom(REGION_A, REGION_B);

type Step =
  | { kind: 'append'; region: bigint; count: number }
  | { kind: 'obsolete'; region: bigint; at: number }
  | { kind: 'obsoleteAll'; region: bigint }
  | { kind: 'gc' }
  | { kind: 'crashAfterDeletes'; deletes: number }
  | { kind: 'crash' }
  | { kind: 'reopen' }
  | { kind: 'fencedGc' }
  | { kind: 'inspectDuringGc' }
  | { kind: 'failedCreate' }
  | { kind: 'lateLanding' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      region: regionArb,
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('obsolete' as const),
      region: regionArb,
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('obsoleteAll' as const), region: regionArb }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'gc' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('crashAfterDeletes' as const),
      deletes: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'crash' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fencedGc' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'inspectDuringGc' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'failedCreate' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'lateLanding' as const }) },
);

/** The reference: what was acknowledged per region, and each region's watermark. */
class Model {
  readonly acked = new Map<bigint, Array<[bigint, string]>>([
    [REGION_A, []],
    [REGION_B, []],
  ]);
  readonly watermark = new Map<bigint, bigint>([
    [REGION_A, 0n],
    [REGION_B, 0n],
  ]);
  /** A failed create's object, to land once something was acknowledged after it. */
  pendingLate: { seq: bigint; epoch: bigint; link: ObjectLink | null; acksSince: number } | null =
    null;

  expected(region: bigint): Array<[bigint, string]> {
    const watermark = this.watermark.get(region) ?? 0n;
    return (this.acked.get(region) ?? []).filter(([id]) => id > watermark);
  }
}

class Run {
  private counter = 0;
  constructor(
    readonly io: GcProbeIo,
    public store: ObjectStoreLogStore,
    readonly model: Model,
  ) {}

  payload(): string {
    return `p${this.counter++}`;
  }

  async check(): Promise<void> {
    for (const region of [REGION_A, REGION_B])
      expect(await readPairs(this.store, region)).toEqual(this.model.expected(region));
  }

  /** A process crash: a new writer opens without the old one stopping (the old is fenced). */
  async crash(): Promise<void> {
    const old = this.store;
    this.store = await openStore(this.io);
    await old.stop();
  }

  async step(step: Step): Promise<void> {
    const { store, model, io } = this;
    // The pass an obsolete starts in the background must not bleed into this step's counts.
    await store.collectionsSettled();
    switch (step.kind) {
      case 'append': {
        const payloads = Array.from({ length: step.count }, () => this.payload());
        const result = await store.appendBatch(entriesOf(store, step.region, ...payloads));
        const last = result.lastEntryIds.get(step.region)!;
        payloads.forEach((payload, i) =>
          model.acked.get(step.region)!.push([last - BigInt(payloads.length - 1 - i), payload]),
        );
        if (model.pendingLate !== null) model.pendingLate.acksSince += 1;
        return;
      }
      case 'obsolete':
      case 'obsoleteAll': {
        const acked = model.acked.get(step.region)!;
        if (acked.length === 0) return;
        const id =
          step.kind === 'obsoleteAll'
            ? acked[acked.length - 1]![0]
            : acked[Math.min(acked.length - 1, Math.floor(step.at * acked.length))]![0];
        if (step.kind === 'obsoleteAll')
          await store.obsoleteAll(providerOf(store, step.region), step.region);
        else await store.obsolete(providerOf(store, step.region), step.region, id);
        if (id > model.watermark.get(step.region)!) model.watermark.set(step.region, id);
        return;
      }
      case 'gc': {
        const report = await store.gc();
        expect(report.failure).toBeNull();
        expect((await storedSeqs(io)).every((seq) => seq >= report.boundary)).toBe(true);
        return;
      }
      case 'crashAfterDeletes': {
        io.deleteBudget = io.deletes.length + step.deletes;
        await settle(store.gc());
        io.deleteBudget = Infinity;
        await this.crash();
        return;
      }
      case 'crash':
        return this.crash();
      case 'reopen':
        await store.stop();
        this.store = await openStore(io);
        return;
      case 'fencedGc': {
        const newer = await openStore(io);
        const deletes = io.deletes.length;
        const outcome = await settle(store.gc());
        expect(outcome.ok ? 'passed' : codeOf(outcome.error)).toBe('Fenced');
        expect(io.deletes.length).toBe(deletes);
        await store.stop();
        this.store = newer;
        return;
      }
      case 'inspectDuringGc': {
        const deletes = io.deletes.length;
        const [inspected, pass] = await Promise.all([inspectPrefix(io, walConfig()), store.gc()]);
        expect(inspected.failure).toBeNull();
        expect(io.deletes.length).toBe(deletes + pass.objects.length);
        return;
      }
      case 'failedCreate': {
        if (model.pendingLate !== null) return;
        const state = store.state();
        if (state.openBatch !== null) return;
        io.inject({ op: 'putIfAbsent', key: /\/objects\//, kind: 'unavailable', count: 1 });
        const outcome = await settle(store.appendBatch(entriesOf(store, REGION_A, 'never-acked')));
        io.clear();
        expect(outcome.ok).toBe(false);
        model.pendingLate = {
          seq: state.nextSeq,
          epoch: store.epoch,
          link: state.indexedTip,
          acksSince: 0,
        };
        return;
      }
      case 'lateLanding': {
        const late = model.pendingLate;
        if (late === null || late.acksSince === 0) return;
        model.pendingLate = null;
        const segments = new Map([
          [
            REGION_A,
            [{ id: (late.seq << 20n) | 1n, bytes: new TextEncoder().encode('never-acked') }],
          ],
        ]);
        await io.putIfAbsent(
          keyAt(late.seq),
          encodeObject({ seq: late.seq, epoch: late.epoch, link: late.link, segments }).bytes,
        );
        return;
      }
    }
  }
}

describe.each(lanes)('GC against a reference model on %s', (lane, makeIo) => {
  it('every acknowledged unobsoleted entry reads back after every step and every reopen; late objects never become the tip', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 4, maxLength: lane === 'memory' ? 24 : 12 }),
        async (steps) => {
          const io = new GcProbeIo(await makeIo());
          const model = new Model();
          const run = new Run(io, await openStore(io), model);
          try {
            for (const step of steps) {
              await run.step(step);
              await run.check();
            }
            await run.store.stop();
            run.store = await openStore(io);
            await run.check();
            const inspected = await inspectPrefix(io, walConfig());
            expect(inspected.failure).toBeNull();
            expect(inspected.tip?.epoch).toBe(run.store.epoch);
          } finally {
            await run.store.stop();
          }
        },
      ),
      { numRuns: RUNS[lane] ?? 2 },
    );
  }, 120_000);
});
