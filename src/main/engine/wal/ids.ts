/**
 * The numeric layout of WAL sequences and entry ids: `EntryId = (seq << 20) | position`,
 * `1 <= position < 2^20`, `seq < 2^44`, so `id >> 20` names the object that holds the entry
 * and 0 is never an assigned id ("none"). Pure arithmetic and its range checks; it never
 * decides which ids to assign.
 */
import { InvalidEntryIdError } from './errors';

export type EntryId = bigint;
/** A WAL object's sequence number (the first object has sequence 0). */
export type Seq = bigint;

export const POSITION_BITS = 20n;
/** Positions run 1..MAX_POSITION inside one object, per region. */
export const MAX_POSITION = (1n << POSITION_BITS) - 1n;
/** Every sequence is below this (so every id fits a u64). */
export const SEQ_LIMIT = 1n << 44n;
export const MAX_SEQ = SEQ_LIMIT - 1n;
/** The largest id the layout can express: `(MAX_SEQ << 20) | MAX_POSITION = 2^64 - 1`. */
export const MAX_ENTRY_ID = (MAX_SEQ << POSITION_BITS) | MAX_POSITION;
/**
 * `obsolete` rejects ids whose sequence is at or above this: their sequence floor
 * (`(id >> 20) + 1`) plus a start gap could no longer stay below `SEQ_LIMIT`.
 */
export const OBSOLETE_SEQ_LIMIT = SEQ_LIMIT - (1n << POSITION_BITS);
/** "No entry": never assigned, the latest id of a region that has none. */
export const NO_ENTRY: EntryId = 0n;

export function isSeq(seq: bigint): boolean {
  return seq >= 0n && seq < SEQ_LIMIT;
}

export function seqOf(id: EntryId): Seq {
  return id >> POSITION_BITS;
}

export function positionOf(id: EntryId): bigint {
  return id & MAX_POSITION;
}

/** Whether `id` is one the store could have assigned: position >= 1, sequence in range. */
export function isAssignableEntryId(id: EntryId): boolean {
  return id > 0n && id <= MAX_ENTRY_ID && positionOf(id) >= 1n;
}

export function makeEntryId(seq: Seq, position: bigint): EntryId {
  const raw = (seq << POSITION_BITS) + position;
  if (!isSeq(seq)) throw new InvalidEntryIdError(raw, `sequence ${seq} is outside 0..2^44-1`);
  if (position < 1n || position > MAX_POSITION)
    throw new InvalidEntryIdError(raw, `position ${position} is outside 1..2^20-1`);
  return raw;
}

/** Throws unless `id` is an id the store could have assigned (see `isAssignableEntryId`). */
export function checkEntryId(id: EntryId): EntryId {
  if (id < 0n || id > MAX_ENTRY_ID) throw new InvalidEntryIdError(id, 'outside the u64 range');
  if (positionOf(id) === 0n) throw new InvalidEntryIdError(id, 'position 0 is never assigned');
  return id;
}

/**
 * Throws unless `id` may be passed to `obsolete`: any u64 (0 included, it names no object)
 * whose sequence is below `OBSOLETE_SEQ_LIMIT`.
 */
export function checkObsoleteId(id: EntryId): EntryId {
  if (id < 0n || id > MAX_ENTRY_ID) throw new InvalidEntryIdError(id, 'outside the u64 range');
  if (seqOf(id) >= OBSOLETE_SEQ_LIMIT) {
    throw new InvalidEntryIdError(
      id,
      `its sequence ${seqOf(id)} is at or above 2^44 - 2^20, where no sequence floor fits`,
    );
  }
  return id;
}

/** The sequence floor an obsolete watermark imposes: the next object goes above the one `id` names. */
export function sequenceFloorOf(id: EntryId): Seq {
  return id === NO_ENTRY ? 0n : seqOf(id) + 1n;
}
