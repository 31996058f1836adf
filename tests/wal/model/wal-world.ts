/**
 * The system under test of the WAL model test: one prefix on a MemoryObjectIo behind a
 * FaultyObjectIo, the current store and the stores it replaced, the appends still in flight,
 * and the reference log that judges them. Each operation here performs one caller action and
 * reports its outcome to the reference log; it asserts only what the outcome itself must be
 * (error codes, never timings). Owns every store it opens and stops them all at the end.
 */
import { expect } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { ObjectStoreWalConfigInput } from '../../../src/main/engine/wal/config';
import type { EntryId } from '../../../src/main/engine/wal/ids';
import { inspectPrefix } from '../../../src/main/engine/wal/inspect';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import { codeOf, idsOfAppend, laneConfig, payload, providerOf, settle } from '../lanes/lane-kit';
import { ReferenceLog, type AppendCall } from './reference-log';
import { REGION_A as MODEL_REGION_FOR_GAP } from '../lanes/lane-kit';
import type { WorldShape } from './wal-commands';

/** Codes an append of the current store may fail with, given a fault fired meanwhile
 * (`WriterReopened`: the failures spent the start gap and the writer re-opened itself). */
const FAULT_CODES = new Set(['Unavailable', 'OutcomeUnknown', 'WriterReopened']);
/** Appends tried to spend a start gap (64 sequences) before giving up. */
const GAP_SPENDING_APPENDS = 80;

interface StoreSlot {
  readonly no: number;
  readonly store: ObjectStoreLogStore;
  stopped: boolean;
  /** A newer store took the prefix over while this one ran. */
  replaced: boolean;
  unsettled: number;
  /** Faults fired when this store last had no append in flight. */
  firedAtQuiet: number;
}

const STORE_OPTIONS = {
  probe: false,
  fenceDeadlineMs: 2000,
  fenceRetryDelayMs: 5,
  createRetryDelayMs: 5,
} as const;
const OPEN_ATTEMPTS = 6;

export class WalWorld {
  readonly io = new FaultyObjectIo(new MemoryObjectIo());
  readonly config: ObjectStoreWalConfigInput;
  readonly log = new ReferenceLog();
  private readonly slots: StoreSlot[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private tags = 0;
  private lastFailureCode: string | undefined;
  /** durable mode: an acknowledgement is a durability report. */
  readonly durable: boolean;

  constructor(shape: WorldShape) {
    this.config = laneConfig({ flushIntervalMs: 10, ...shape });
    this.durable = shape.ackMode === 'durable';
  }

  get current(): StoreSlot {
    const slot = this.slots.at(-1);
    if (slot === undefined) throw new Error('no store opened');
    return slot;
  }

  async start(): Promise<void> {
    await this.openNext();
  }

  /** An append of `parts` (region, size); awaited, or left in flight for later commands. */
  async append(parts: ReadonlyArray<readonly [bigint, number]>, awaited: boolean): Promise<void> {
    const slot = this.current;
    const call = this.log.issue(
      slot.no,
      parts.map(([region, size]) => {
        const tag = `e${++this.tags}`;
        return { tag, region, bytes: payload(tag, size) };
      }),
    );
    if (slot.unsettled === 0) slot.firedAtQuiet = this.io.fired;
    slot.unsettled += 1;
    const done = this.runAppend(slot, call);
    if (awaited) return done;
    const tracked = done.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async runAppend(slot: StoreSlot, call: AppendCall): Promise<void> {
    const stoppedBefore = slot.stopped;
    const result = await settle(
      (async () => {
        const entries = call.parts.map((p) =>
          slot.store.entry(p.bytes, 0n, p.region, providerOf(slot.store, p.region)),
        );
        return slot.store.appendBatch(entries);
      })(),
    );
    slot.unsettled -= 1;
    if (result.ok) {
      expect(stoppedBefore, 'a stopped store acknowledged an append').toBe(false);
      const parts = call.parts.map((p) => [p.region, p.bytes] as const);
      this.log.acknowledge(
        call,
        idsOfAppend(parts, result.value.lastEntryIds).map((w) => w.id),
        this.durable,
      );
      return;
    }
    this.log.fail(call);
    this.lastFailureCode = codeOf(result.error);
    this.expectAllowedFailure(slot, this.lastFailureCode, stoppedBefore);
  }

  private expectAllowedFailure(
    slot: StoreSlot,
    code: string | undefined,
    stoppedBefore: boolean,
  ): void {
    if (stoppedBefore) return expect(code).toBe('Stopped');
    if (code === 'Stopped') return expect(slot.stopped, 'Stopped before stop').toBe(true);
    if (code === 'Fenced') return expect(slot.replaced, 'Fenced without a newer writer').toBe(true);
    // Failed before it reached storage: earlier failures spent the gap (no fault of its own).
    if (code === 'WriterReopened')
      return expect(this.durable, 'an enqueued writer re-opened itself').toBe(true);
    // enqueued: a transient failure is retried, never reported to the append.
    expect(this.durable && FAULT_CODES.has(code ?? ''), `unexpected append failure ${code}`).toBe(
      true,
    );
    expect(this.io.fired, `append failed with ${code} though no fault fired`).toBeGreaterThan(
      slot.firedAtQuiet,
    );
  }

  /**
   * durable: every create fails until the failures consumed the whole start gap and the
   * writer re-opened itself under a new epoch (wal.md, a spent start gap). The appends fail
   * (their entries may or may not reappear, as any failed append's); nothing acknowledged may
   * be lost, and what the reopen excluded must never be read. enqueued never spends its gap.
   */
  async spendStartGap(): Promise<void> {
    const slot = this.current;
    if (!this.durable || slot.stopped) return;
    const reopensBefore = slot.store.state().reopens;
    // The first create lands with its answer and read-back lost (the writer counts it failed),
    // every later one fails before landing.
    this.io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'apply-then-5xx', count: 1 });
    this.io.inject({ op: 'get', key: /objects\//, kind: 'unavailable', count: 1 });
    this.io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'unavailable' });
    try {
      for (let i = 0; i < GAP_SPENDING_APPENDS; i++) {
        const failures = this.log.failedCount();
        await this.append([[MODEL_REGION_FOR_GAP, 8]], true);
        if (this.log.failedCount() > failures && this.lastFailureCode === 'WriterReopened') break;
        if (slot.store.state().poisoned !== null) return;
      }
    } finally {
      this.io.clear();
    }
    expect(this.lastFailureCode, 'the spent gap never re-opened the writer').toBe('WriterReopened');
    await this.settleInFlight();
    // Failures before the reopen stay ruled out by later acknowledgements: the reopen seals
    // the earlier epoch at its last committed object, so none of them can reappear.
    // Appends queue behind the reopen; an empty one returns at once, so wait for the state.
    for (let i = 0; i < 2000 && slot.store.state().reopening; i++)
      await new Promise((resolve) => setTimeout(resolve, 2));
    expect(slot.store.state().reopens).toBeGreaterThan(reopensBefore);
  }

  async settleInFlight(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** `obsolete` with an id of the caller's choice; refusals the spec names change nothing. */
  async obsolete(region: bigint, id: EntryId): Promise<void> {
    const slot = this.current;
    const result = await settle(slot.store.obsolete(providerOf(slot.store, region), region, id));
    if (slot.stopped) return expect(codeOf(result.ok ? undefined : result.error)).toBe('Stopped');
    if (result.ok) {
      // durable: the watermark becomes the larger of the two; enqueued may clamp to the durable id.
      const before = this.log.watermark(region);
      const recorded = this.durable
        ? id > before
          ? id
          : before
        : await this.persistedWatermark(region, id);
      // enqueued: an id it handed out needs no floor, so only what was recorded bounds later ids.
      return this.log.obsoleted(region, recorded, this.durable ? id : recorded);
    }
    // Retryable (open batch holds entries) or an id whose object is not durable yet.
    expect(['WalObjectSequenceUnsettled', 'InvalidEntryId']).toContain(codeOf(result.error));
  }

  /** `obsoleteAll` once nothing is in flight, so the latest id is known exactly. */
  async obsoleteAll(region: bigint): Promise<void> {
    await this.settleInFlight();
    const slot = this.current;
    if (slot.stopped) {
      await expect(
        slot.store.obsoleteAll(providerOf(slot.store, region), region),
      ).rejects.toMatchObject({ code: 'Stopped' });
      return;
    }
    const latest = slot.store.latestEntryId(providerOf(slot.store, region));
    if (!this.durable) return this.obsoleteAllEnqueued(slot, region, latest);
    // Collection may have removed (and a reopen forgotten) objects wholly at or below the
    // watermarks; every acknowledged id above the region's watermark is still indexed.
    const visible = this.log.ackedIds(region).filter((id) => id > this.log.watermark(region));
    expect(latest >= (visible.at(-1) ?? 0n), 'latestEntryId below a visible acknowledged id').toBe(
      true,
    );
    await slot.store.obsoleteAll(providerOf(slot.store, region), region);
    const before = this.log.watermark(region);
    this.log.obsoleted(region, latest > before ? latest : before, latest);
  }

  /** enqueued: the durable id moves while uploads run; the register says what was recorded. */
  private async obsoleteAllEnqueued(
    slot: StoreSlot,
    region: bigint,
    latestBefore: EntryId,
  ): Promise<void> {
    await slot.store.obsoleteAll(providerOf(slot.store, region), region);
    const handed = slot.store.handedOutEntryId(providerOf(slot.store, region));
    const recorded = await this.persistedWatermark(region, handed);
    expect(recorded >= latestBefore || recorded === this.log.watermark(region)).toBe(true);
    this.log.obsoleted(region, recorded);
  }

  /** The watermark the register holds for `region`, which must lie in [model's, max(model's, asked)]. */
  private async persistedWatermark(region: bigint, asked: EntryId): Promise<EntryId> {
    const { register } = await inspectPrefix(this.io, this.config);
    const recorded = register.watermarks.find((w) => w.regionId === region)?.watermark ?? 0n;
    const before = this.log.watermark(region);
    expect(
      recorded >= before && recorded <= (asked > before ? asked : before),
      `watermark ${recorded} of ${region}`,
    ).toBe(true);
    return recorded;
  }

  /** `waitDurable` through the largest id handed out: then every entry before it is durable. */
  async waitDurable(region: bigint): Promise<void> {
    const slot = this.current;
    const provider = providerOf(slot.store, region);
    if (slot.stopped) {
      await expect(slot.store.waitDurable(provider, 1n)).rejects.toMatchObject({ code: 'Stopped' });
      return;
    }
    const target = slot.store.handedOutEntryId(provider);
    await slot.store.waitDurable(provider, target);
    // durable mode returns at once (wal.md): there, only acknowledged ids are known durable.
    if (this.durable) return;
    expect(slot.store.latestEntryId(provider) >= target, 'waitDurable returned early').toBe(true);
    this.log.confirmDurable(slot.no, region, target);
  }

  async read(region: bigint, fromId: EntryId): Promise<void> {
    const slot = this.current;
    if (slot.stopped) {
      expect(() => slot.store.read(providerOf(slot.store, region), fromId)).toThrow(
        expect.objectContaining({ code: 'Stopped' }),
      );
      return;
    }
    const startedAt = this.log.now();
    const read = [];
    for await (const entry of slot.store.read(providerOf(slot.store, region), fromId))
      read.push(entry);
    this.log.checkRead(
      region,
      fromId,
      read,
      `store ${slot.no} read of ${region} from ${fromId}`,
      startedAt,
    );
  }

  async stop(expectNoLoss = false): Promise<void> {
    const slot = this.current;
    const wasStopped = slot.stopped;
    slot.stopped = true;
    const report = await slot.store.stop();
    if (wasStopped) return;
    expect(report).toMatchObject({ sealed: true, terminal: null });
    if (report.lost === null) this.log.confirmDurable(slot.no, null, null);
    else {
      // enqueued, a transient failure after stop began: the backlog is dropped and reported.
      expect(this.durable || expectNoLoss, `stop lost ${report.lost.count} entries`).toBe(false);
      expect(report.lost.count).toBeLessThanOrEqual(this.log.unconfirmed(slot.no));
    }
    this.log.sealRecords.push({
      firstEpoch: slot.store.epoch,
      lastEpoch: slot.store.epoch,
      lastSeq: report.lastSeq,
      reason: 'stopped',
    });
  }

  /** A new store over the same storage; a running store is taken over (and fenced). */
  async reopen(): Promise<void> {
    const previous = this.current;
    previous.replaced = !previous.stopped;
    await this.openNext();
    if (previous.stopped) return;
    await this.settleInFlight();
    previous.stopped = true;
    const report = await previous.store.stop();
    expect(report.sealed, 'a replaced store recorded a seal').toBe(false);
  }

  private async openNext(): Promise<void> {
    let lastError: unknown = null;
    // A pending injected fault may fail a start object's create a few times: open again.
    for (let attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
      const opened = await settle(ObjectStoreLogStore.open(this.io, this.config, STORE_OPTIONS));
      if (opened.ok) {
        this.slots.push({
          no: this.slots.length + 1,
          store: opened.value,
          stopped: false,
          replaced: false,
          unsettled: 0,
          firedAtQuiet: this.io.fired,
        });
        return;
      }
      lastError = opened.error;
      expect(
        FAULT_CODES.has(codeOf(opened.error) ?? ''),
        `open failed: ${String(opened.error)}`,
      ).toBe(true);
    }
    throw lastError;
  }

  /** Read-only: the register and a read-only log must agree with the model. */
  async inspect(region: bigint, fromId: EntryId): Promise<void> {
    const report = await inspectPrefix(this.io, this.config);
    expect(report.failure).toBeNull();
    expect(report.register.writerEpoch).toBe(this.current.store.epoch);
    expect(report.register.watermarks).toEqual(this.log.expectedWatermarks());
    // Garbage collection (after obsolete) may drop records wholly below its boundary.
    const kept = this.log.sealRecords.filter(
      (r) => r.lastSeq !== null && r.lastSeq >= report.register.boundary,
    );
    for (const record of kept) expect(report.register.sealed).toContainEqual(record);
    const startedAt = this.log.now();
    const readOnly = await openReadOnly(this.io, this.config);
    const read = [];
    for await (const entry of readOnly.read(providerOf(readOnly, region), fromId)) read.push(entry);
    this.log.checkRead(
      region,
      fromId,
      read,
      `read-only read of ${region} from ${fromId}`,
      startedAt,
    );
  }

  /** Ends the run: no faults, everything settled, a final reopen replays every region. */
  async finish(regions: readonly bigint[]): Promise<void> {
    this.io.clear();
    await this.settleInFlight();
    if (!this.current.stopped) await this.stop(true);
    await this.openNext();
    for (const region of regions) await this.read(region, 0n);
    await this.append([[regions[0] ?? 1n, 8]], true);
    await this.inspect(regions[0] ?? 1n, 0n);
    await this.dispose();
  }

  async dispose(): Promise<void> {
    this.io.clear();
    await Promise.allSettled([...this.inFlight]);
    await Promise.allSettled(this.slots.map((slot) => slot.store.stop()));
  }
}
