/**
 * The reference model of the WAL for the model-based test: what a caller may rely on, taken
 * from wal.md, kept as plain maps. It records every append's fate (acknowledged with its ids,
 * failed, or still unsettled), the watermarks of `obsolete` calls that passed, the sequence
 * floor they impose, and the seal records of clean stops; it judges every read against them.
 *
 * Invariants it enforces (wal.md "Writing", "Failure matrix", "Catalog and recovery",
 * "Reading, obsolete"):
 * - an id is never acknowledged twice for a region, across every epoch;
 * - ids of one region increase in call order, across stores;
 * - an append issued after `obsolete(id)` passed gets ids above `id` (sequence floor, and the
 *   start object of a later epoch sits above every watermark);
 * - a read returns ids in increasing order, each at most once, none below `fromId` or at or
 *   below the watermark; every acknowledged entry of the range exactly once with its bytes;
 *   anything else is an append that failed or has not settled yet, with its own bytes;
 * - an append that failed is never read again once its store acknowledged an append issued
 *   after the failure ("entries reappear on replay only if nothing was acknowledged after");
 * - watermarks never go down and survive a reopen (the register shows exactly the model's);
 * - enqueued mode: an acknowledgement is not a durability report; entries must be read back
 *   once `waitDurable` or a stop that lost nothing reported them durable, and a stop's lost
 *   backlog never exceeds what was not yet reported durable.
 * It never touches storage; the test feeds it what the store returned.
 */
import { expect } from 'vitest';
import type { WalEntry } from '../../../src/main/engine/wal/entry';
import type { EntryId } from '../../../src/main/engine/wal/ids';
import type { RegionId } from '../../../src/main/engine/wal/provider';
import type { SealRecord } from '../../../src/main/engine/wal/session';

export interface AppendCall {
  /** Position of the call in the whole run (the order ids must follow). */
  readonly callNo: number;
  readonly storeNo: number;
  readonly parts: ReadonlyArray<{
    readonly tag: string;
    readonly region: RegionId;
    readonly bytes: Uint8Array;
  }>;
  /** Every id must lie above this (the sequence floor when the call was made). */
  readonly floor: EntryId;
}

type Fate = 'unsettled' | 'acked' | 'failed' | 'superseded';

interface EntryRecord {
  readonly region: RegionId;
  readonly bytes: Uint8Array;
  fate: Fate;
  /** When the fate was learned (the clock), so a read judges only what preceded it. */
  fatedAt: number;
  /** When the entry was known durable (acknowledged in durable mode, or confirmed later in
   * enqueued mode); Infinity until then. Only durable entries must be read back. */
  durableAt: number;
  id: EntryId | null;
  readonly call: AppendCall;
  failedAtClock: number;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

export class ReferenceLog {
  private clock = 0;
  private readonly entries = new Map<string, EntryRecord>();
  /** Per region, acknowledged id -> tag. */
  private readonly acked = new Map<RegionId, Map<EntryId, string>>();
  private readonly ackedCalls = new Map<
    RegionId,
    Array<{ callNo: number; first: EntryId; last: EntryId }>
  >();
  private readonly watermarks = new Map<RegionId, EntryId>();
  private floor: EntryId = 0n;
  private readonly failures: Array<{ storeNo: number; clock: number; tags: string[] }> = [];
  readonly sealRecords: SealRecord[] = [];

  /** Registers an append as it is issued. */
  issue(storeNo: number, parts: AppendCall['parts']): AppendCall {
    const call: AppendCall = { callNo: ++this.clock, storeNo, parts, floor: this.floor };
    for (const part of parts) {
      this.entries.set(part.tag, {
        region: part.region,
        bytes: part.bytes,
        fate: 'unsettled',
        fatedAt: 0,
        durableAt: Number.POSITIVE_INFINITY,
        id: null,
        call,
        failedAtClock: 0,
      });
    }
    return call;
  }

  /** `durable`: the acknowledgement is a durability report (durable mode). */
  acknowledge(call: AppendCall, ids: ReadonlyArray<EntryId>, durable: boolean): void {
    this.clock += 1;
    call.parts.forEach((part, i) => {
      const id = ids[i] ?? 0n;
      expect(id > call.floor, `${part.tag}: id ${id} not above the floor ${call.floor}`).toBe(true);
      const byId = this.acked.get(part.region) ?? new Map<EntryId, string>();
      expect(byId.get(id), `id ${id} of region ${part.region} acknowledged twice`).toBeUndefined();
      byId.set(id, part.tag);
      this.acked.set(part.region, byId);
      const record = this.recordOf(part.tag);
      record.fate = 'acked';
      record.fatedAt = this.clock;
      if (durable) record.durableAt = this.clock;
      record.id = id;
    });
    for (const region of new Set(call.parts.map((p) => p.region)))
      this.checkCallOrder(call, region, ids);
    // Failures of this store before this call was issued can never replay now.
    for (const failure of this.failures) {
      if (failure.storeNo !== call.storeNo || failure.clock >= call.callNo) continue;
      for (const tag of failure.tags) {
        const record = this.recordOf(tag);
        record.fate = 'superseded';
        record.fatedAt = this.clock;
      }
    }
  }

  failedCount(): number {
    return this.failures.length;
  }

  fail(call: AppendCall): void {
    const clock = ++this.clock;
    for (const part of call.parts) {
      const record = this.recordOf(part.tag);
      record.fate = 'failed';
      record.fatedAt = clock;
      record.failedAtClock = clock;
    }
    this.failures.push({ storeNo: call.storeNo, clock, tags: call.parts.map((p) => p.tag) });
  }

  /**
   * enqueued: the store reported its acknowledged entries durable - of one region through
   * `upTo` (waitDurable), or all of them (a stop that lost nothing).
   */
  confirmDurable(storeNo: number, region: RegionId | null, upTo: EntryId | null): void {
    const clock = ++this.clock;
    for (const record of this.entries.values()) {
      if (record.fate !== 'acked' || record.call.storeNo !== storeNo || record.durableAt <= clock)
        continue;
      if (region !== null && record.region !== region) continue;
      if (upTo !== null && (record.id ?? 0n) > upTo) continue;
      record.durableAt = clock;
    }
  }

  /** Acknowledged entries of a store not yet known durable (what a lost backlog may hold). */
  unconfirmed(storeNo: number): number {
    let count = 0;
    for (const record of this.entries.values()) {
      if (
        record.fate === 'acked' &&
        record.call.storeNo === storeNo &&
        record.durableAt === Number.POSITIVE_INFINITY
      )
        count += 1;
    }
    return count;
  }

  /** `obsolete(region, id)` passed: the watermark rises (never falls) and so does the floor. */
  obsoleted(region: RegionId, watermark: EntryId, asked: EntryId = watermark): void {
    this.clock += 1;
    expect(watermark >= this.watermark(region), `watermark of ${region} went down`).toBe(true);
    this.watermarks.set(region, watermark);
    // Every later id lies above `asked`: the sequence floor, or ids handed out already.
    if (asked > this.floor) this.floor = asked;
  }

  watermark(region: RegionId): EntryId {
    return this.watermarks.get(region) ?? 0n;
  }

  /** The persisted watermarks the register must show, exactly. */
  expectedWatermarks(): Array<{ regionId: RegionId; watermark: EntryId }> {
    return [...this.watermarks]
      .filter(([, id]) => id > 0n)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([regionId, watermark]) => ({ regionId, watermark }));
  }

  ackedIds(region: RegionId): EntryId[] {
    return [...(this.acked.get(region)?.keys() ?? [])].sort((a, b) => (a < b ? -1 : 1));
  }

  maxAckedId(): EntryId {
    let max = 0n;
    for (const ids of this.acked.values()) for (const id of ids.keys()) if (id > max) max = id;
    return max;
  }

  /** The current time of the model, taken before a read starts. */
  now(): number {
    return ++this.clock;
  }

  /**
   * Judges one read of `region` from `fromId`, started at `startedAt`: what was acknowledged
   * (or superseded) before it started is binding; what settled while it ran may go either way.
   */
  checkRead(
    region: RegionId,
    fromId: EntryId,
    read: readonly WalEntry[],
    where: string,
    startedAt: number,
  ): void {
    const watermark = this.watermark(region);
    const seenTags = new Set<string>();
    let previous = -1n;
    for (const entry of read) {
      const tag = new TextDecoder().decode(entry.data.subarray(0, 24)).split('|')[0] ?? '';
      const record = this.entries.get(tag);
      expect(record, `${where}: unknown entry ${tag} at ${entry.id}`).toBeDefined();
      if (record === undefined) return;
      expect(entry.id > previous, `${where}: ids out of order at ${entry.id}`).toBe(true);
      expect(
        entry.id >= fromId && entry.id > watermark,
        `${where}: ${entry.id} below ${fromId} or watermark ${watermark}`,
      ).toBe(true);
      expect(seenTags.has(tag), `${where}: ${tag} read twice`).toBe(false);
      expect(record.region, `${where}: ${tag} in the wrong region`).toBe(region);
      expect(sameBytes(record.bytes, entry.data), `${where}: ${tag} bytes differ`).toBe(true);
      const supersededBefore = record.fate === 'superseded' && record.fatedAt < startedAt;
      expect(supersededBefore, `${where}: ${tag} failed and was superseded, yet replayed`).toBe(
        false,
      );
      if (record.fate === 'acked')
        expect(entry.id, `${where}: ${tag} read under another id`).toBe(record.id);
      seenTags.add(tag);
      previous = entry.id;
    }
    for (const [id, tag] of this.acked.get(region) ?? []) {
      if (id < fromId || id <= watermark || this.recordOf(tag).durableAt > startedAt) continue;
      expect(seenTags.has(tag), `${where}: acknowledged ${tag} (${id}) missing`).toBe(true);
    }
  }

  private checkCallOrder(call: AppendCall, region: RegionId, ids: ReadonlyArray<EntryId>): void {
    const mine = call.parts.flatMap((p, i) => (p.region === region ? [ids[i] ?? 0n] : []));
    const first = mine.reduce((a, b) => (b < a ? b : a));
    const last = mine.reduce((a, b) => (b > a ? b : a));
    const calls = this.ackedCalls.get(region) ?? [];
    for (const other of calls) {
      if (other.callNo < call.callNo)
        expect(
          other.last < first,
          `region ${region}: call ${call.callNo} got ids below an earlier call`,
        ).toBe(true);
      else
        expect(
          last < other.first,
          `region ${region}: call ${call.callNo} got ids above a later call`,
        ).toBe(true);
    }
    calls.push({ callNo: call.callNo, first, last });
    this.ackedCalls.set(region, calls);
  }

  private recordOf(tag: string): EntryRecord {
    const record = this.entries.get(tag);
    if (record === undefined) throw new Error(`no entry ${tag}`);
    return record;
  }
}
