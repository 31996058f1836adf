/**
 * The one open batch: entries admitted in arrival order under the sequence the batch will
 * take, each region's positions counted from 1. Decides whether an append fits (position
 * range) and assigns its ids; never seals, encodes or schedules anything.
 */
import type { AppendResult, WalEntry } from '../entry';
import { EntryTooLargeError } from '../errors';
import { makeEntryId, MAX_POSITION, type EntryId, type Seq } from '../ids';
import type { RegionId } from '../region-id';
import {
  FOOTER_COUNT_SIZE,
  FOOTER_ENTRY_SIZE,
  HEADER_SIZE,
  MAX_RECORD_BYTES,
  RECORD_HEADER_SIZE,
  TRAILER_SIZE,
  type PositionRun,
} from '../format';

/**
 * Read once: under tsx (the CLI, the benchmarks) an imported binding is a getter through the
 * format barrel, and admission would pay two calls per entry for a constant.
 */
const RECORD_OVERHEAD = RECORD_HEADER_SIZE;

/** A caller waiting for its append to be acknowledged (durable mode). */
export interface AppendWaiter {
  readonly result: AppendResult;
  /** When the append arrived: append-ack seconds count from here. */
  readonly arrivedAt: number;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/** Positions per region per object, as a number: counts are compared once per append. */
const MAX_POSITIONS = Number(MAX_POSITION);

/**
 * The one region of an append whose entries all share it (nearly every append), else null.
 * It spares the common case a Map per append: admission runs once per append, on the hot path.
 */
function soleRegion(entries: readonly WalEntry[]): RegionId | null {
  const region = entries[0]?.regionId;
  if (region === undefined) return null;
  for (let i = 1; i < entries.length; i++) if (entries[i]!.regionId !== region) return null;
  return region;
}

function countsByRegion(entries: readonly WalEntry[]): Map<RegionId, number> {
  const counts = new Map<RegionId, number>();
  const sole = soleRegion(entries);
  if (sole !== null) return counts.set(sole, entries.length);
  for (const entry of entries) counts.set(entry.regionId, (counts.get(entry.regionId) ?? 0) + 1);
  return counts;
}

/** Bytes an object holding one entry adds around the entry's data. */
const ONE_ENTRY_FRAME =
  HEADER_SIZE + RECORD_HEADER_SIZE + FOOTER_COUNT_SIZE + FOOTER_ENTRY_SIZE + TRAILER_SIZE;

/**
 * The largest entry an object can hold: what the format can frame (a u32 record length) or
 * what fits a `maxObjectBytes` object beside the frame, whichever is smaller.
 */
export function largestEntryBytes(maxObjectBytes: number): number {
  return Math.max(0, Math.min(MAX_RECORD_BYTES, maxObjectBytes - ONE_ENTRY_FRAME));
}

/**
 * Rejects, before anything is admitted, an append that fits no object: a region's entries
 * beyond the position range, or one entry larger than `largestEntry` (`largestEntryBytes`
 * of the store's `maxObjectBytes`, worked out once by the caller). Admitted, such an
 * entry would fail at seal and poison the writer with every batch behind it.
 */
export function checkAppendFitsAnObject(entries: readonly WalEntry[], largestEntry: number): void {
  // No region can pass the position range with fewer entries than that in all.
  if (entries.length > MAX_POSITIONS) {
    for (const [region, count] of countsByRegion(entries)) {
      if (count > MAX_POSITIONS) throw new EntryTooLargeError(region, count, MAX_POSITIONS);
    }
  }
  for (const entry of entries) {
    if (entry.data.length > largestEntry)
      throw new EntryTooLargeError(entry.regionId, entry.data.length, largestEntry);
  }
}

export function appendBytes(entries: readonly WalEntry[]): number {
  let bytes = 0;
  for (const entry of entries) bytes += RECORD_OVERHEAD + entry.data.length;
  return bytes;
}

/**
 * The result of an append whose entries share one region (nearly every append). Its id is
 * worked out when first read: a saturated writer acknowledges thousands of appends per batch,
 * and most callers never look at the ids.
 */
class SoleRegionResult implements AppendResult {
  private ids: Map<RegionId, EntryId> | null = null;

  constructor(
    private readonly firstId: EntryId,
    private readonly region: RegionId,
    private readonly lastIndex: number,
  ) {}

  get lastEntryIds(): Map<RegionId, EntryId> {
    this.ids ??= new Map([[this.region, this.firstId + BigInt(this.lastIndex)]]);
    return this.ids;
  }
}

export class OpenBatch {
  /** Each region's payloads, at positions 1, 2, ... of this batch's sequence. */
  readonly payloads = new Map<RegionId, Uint8Array[]>();
  readonly waiters: AppendWaiter[] = [];
  bytes = 0;
  entries = 0;
  appends = 0;

  /** Position 1 of this batch's sequence (checked once here, so admission need not). */
  private readonly firstId: EntryId;
  private recentRegion: RegionId = 0n;
  private recentPayloads: Uint8Array[] | undefined;

  constructor(
    readonly seq: Seq,
    readonly openedAt: number,
  ) {
    this.firstId = makeEntryId(seq, 1n);
  }

  /** Whether every region of the append keeps its positions within 1..2^20-1 here. */
  fits(entries: readonly WalEntry[]): boolean {
    const sole = soleRegion(entries);
    if (sole !== null)
      return (this.existingPayloads(sole)?.length ?? 0) + entries.length <= MAX_POSITIONS;
    for (const [region, count] of countsByRegion(entries)) {
      const used = this.payloads.get(region)?.length ?? 0;
      if (used + count > MAX_POSITIONS) return false;
    }
    return true;
  }

  /**
   * Admits the append in order. The payloads are kept as the caller's views (no copy until
   * the encoder writes them into the object); an id is its position, so none is made here.
   */
  admit(entries: readonly WalEntry[]): AppendResult {
    const sole = soleRegion(entries);
    if (sole === null) return { lastEntryIds: this.admitEach(entries) };
    const payloads = this.regionPayloads(sole);
    for (const entry of entries) {
      payloads.push(entry.data);
      this.bytes += RECORD_OVERHEAD + entry.data.length;
    }
    this.entries += entries.length;
    this.appends += 1;
    return new SoleRegionResult(this.firstId, sole, payloads.length - 1);
  }

  /** An append over several regions: its last id per region, worked out now. */
  private admitEach(entries: readonly WalEntry[]): Map<RegionId, EntryId> {
    const last = new Map<RegionId, EntryId>();
    for (const entry of entries) {
      const payloads = this.regionPayloads(entry.regionId);
      payloads.push(entry.data);
      last.set(entry.regionId, this.firstId + BigInt(payloads.length - 1));
      this.bytes += RECORD_OVERHEAD + entry.data.length;
    }
    this.entries += entries.length;
    this.appends += 1;
    return last;
  }

  private regionPayloads(region: RegionId): Uint8Array[] {
    let payloads = this.existingPayloads(region);
    if (payloads === undefined) {
      payloads = [];
      this.payloads.set(region, payloads);
      this.recentRegion = region;
      this.recentPayloads = payloads;
    }
    return payloads;
  }

  /**
   * The region's payloads, the last region looked up answered without the map: appends
   * come in runs of one region, and a map lookup hashes its bigint key every time.
   */
  private existingPayloads(region: RegionId): Uint8Array[] | undefined {
    if (this.recentPayloads !== undefined && region === this.recentRegion)
      return this.recentPayloads;
    const payloads = this.payloads.get(region);
    if (payloads !== undefined) {
      this.recentRegion = region;
      this.recentPayloads = payloads;
    }
    return payloads;
  }

  /** The last id of the region in this batch, or undefined if it holds none of it. */
  lastIdOf(region: RegionId): EntryId | undefined {
    const count = this.payloads.get(region)?.length ?? 0;
    return count === 0 ? undefined : this.firstId + BigInt(count - 1);
  }

  /** The last id of each region in this batch. */
  lastIds(): Map<RegionId, EntryId> {
    const last = new Map<RegionId, EntryId>();
    for (const [region, payloads] of this.payloads) {
      if (payloads.length > 0) last.set(region, this.firstId + BigInt(payloads.length - 1));
    }
    return last;
  }

  /** What the encoder takes: each region's run of positions from 1. */
  segments(): Map<RegionId, PositionRun> {
    const runs = new Map<RegionId, PositionRun>();
    for (const [region, payloads] of this.payloads)
      runs.set(region, { firstId: this.firstId, payloads });
    return runs;
  }
}
