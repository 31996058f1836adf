/**
 * The offset index of one leader epoch (the analogue of Kafka's RemoteLogLeaderEpochState):
 * which finished segment serves the offsets from each epoch-start offset on. Owns the
 * re-upload rule; never looks at segment states or anything outside one epoch. Pure: every
 * operation returns a new index.
 *
 * Re-upload rule (Kafka's "unreferenced" set): when a segment finishes, the entries at or above
 * its start offset for this epoch are dropped from the index - they become unreferenced -
 * provided the new segment reaches at least as far into the epoch as anything finished so far.
 * Case 1: S0 [0, 100] then S1 [0, 200] for the same epoch: S1 replaces S0. Case 2: S0 [10, 90]
 * then S1 [5, 100]: offset 95 is served by S1, never S0. Unreferenced segments remain listed
 * (so they can be cleaned up) but no offset query returns them.
 */

export interface EpochIndexEntry {
  /** The epoch's first offset inside the segment. */
  readonly startOffset: number;
  readonly segmentId: string;
}

export interface EpochIndex {
  /** Ascending by `startOffset`, one entry per offset. */
  readonly referenced: readonly EpochIndexEntry[];
  /**
   * Kafka's `highestLogOffset`: the greatest epoch end among segments that ever finished for
   * this epoch. Never lowered (not even by deletes); used only to decide replacement.
   */
  readonly highestEpochEnd: number | null;
}

export const EMPTY_EPOCH_INDEX: EpochIndex = { referenced: [], highestEpochEnd: null };

/** A segment reached COPY_SEGMENT_FINISHED; it serves this epoch from `startOffset` to `epochEnd`. */
export function referenceFinishedSegment(
  index: EpochIndex,
  startOffset: number,
  segmentId: string,
  epochEnd: number,
): EpochIndex {
  const referenced = [...index.referenced];
  const replacesHighest = index.highestEpochEnd === null || index.highestEpochEnd <= epochEnd;
  while (
    replacesHighest &&
    referenced.length > 0 &&
    lastOf(referenced).startOffset >= startOffset
  ) {
    referenced.pop();
  }
  const kept = referenced.filter((entry) => entry.startOffset !== startOffset);
  kept.push({ startOffset, segmentId });
  kept.sort((a, b) => a.startOffset - b.startOffset);
  const highestEpochEnd =
    index.highestEpochEnd === null ? epochEnd : Math.max(index.highestEpochEnd, epochEnd);
  return { referenced: kept, highestEpochEnd };
}

/** A segment started deletion: it stops serving offsets (only if it still owns its entry). */
export function unreferenceSegment(
  index: EpochIndex,
  startOffset: number,
  segmentId: string,
): EpochIndex {
  const referenced = index.referenced.filter(
    (entry) => !(entry.startOffset === startOffset && entry.segmentId === segmentId),
  );
  return referenced.length === index.referenced.length ? index : { ...index, referenced };
}

/** The entry with the greatest start offset at or below `offset`, if any. */
export function floorEntry(index: EpochIndex, offset: number): EpochIndexEntry | null {
  let low = 0;
  let high = index.referenced.length - 1;
  let found: EpochIndexEntry | null = null;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const entry = index.referenced[mid]!;
    if (entry.startOffset <= offset) {
      found = entry;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

function lastOf(entries: readonly EpochIndexEntry[]): EpochIndexEntry {
  return entries[entries.length - 1]!;
}
