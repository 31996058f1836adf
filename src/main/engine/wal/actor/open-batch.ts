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
  type SegmentRecord,
} from '../format';

/** A caller waiting for its append to be acknowledged (durable mode). */
export interface AppendWaiter {
  readonly result: AppendResult;
  readonly admittedAt: number;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

function countsByRegion(entries: readonly WalEntry[]): Map<RegionId, number> {
  const counts = new Map<RegionId, number>();
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
 * beyond the position range, or one entry larger than `largestEntryBytes`. Admitted, such an
 * entry would fail at seal and poison the writer with every batch behind it.
 */
export function checkAppendFitsAnObject(
  entries: readonly WalEntry[],
  maxObjectBytes: number,
): void {
  for (const [region, count] of countsByRegion(entries)) {
    if (BigInt(count) > MAX_POSITION)
      throw new EntryTooLargeError(region, count, Number(MAX_POSITION));
  }
  const limit = largestEntryBytes(maxObjectBytes);
  for (const entry of entries) {
    if (entry.data.length > limit)
      throw new EntryTooLargeError(entry.regionId, entry.data.length, limit);
  }
}

export function appendBytes(entries: readonly WalEntry[]): number {
  return entries.reduce((sum, entry) => sum + RECORD_HEADER_SIZE + entry.data.length, 0);
}

export class OpenBatch {
  readonly records = new Map<RegionId, SegmentRecord[]>();
  readonly waiters: AppendWaiter[] = [];
  bytes = 0;
  entries = 0;
  appends = 0;

  constructor(
    readonly seq: Seq,
    readonly openedAt: number,
  ) {}

  /** Whether every region of the append keeps its positions within 1..2^20-1 here. */
  fits(entries: readonly WalEntry[]): boolean {
    for (const [region, count] of countsByRegion(entries)) {
      const used = this.records.get(region)?.length ?? 0;
      if (BigInt(used + count) > MAX_POSITION) return false;
    }
    return true;
  }

  /** Admits the append in order and returns its last id per region. */
  admit(entries: readonly WalEntry[]): Map<RegionId, EntryId> {
    const last = new Map<RegionId, EntryId>();
    for (const entry of entries) {
      let records = this.records.get(entry.regionId);
      if (records === undefined) {
        records = [];
        this.records.set(entry.regionId, records);
      }
      const id = makeEntryId(this.seq, BigInt(records.length + 1));
      records.push({ id, bytes: entry.data });
      last.set(entry.regionId, id);
    }
    this.bytes += appendBytes(entries);
    this.entries += entries.length;
    this.appends += 1;
    return last;
  }

  /** The last id of each region in this batch. */
  lastIds(): Map<RegionId, EntryId> {
    const last = new Map<RegionId, EntryId>();
    for (const [region, records] of this.records) {
      const record = records[records.length - 1];
      if (record !== undefined) last.set(region, record.id);
    }
    return last;
  }
}
