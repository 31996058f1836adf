/**
 * Where a new writer's start object goes (control.md, "Start gap"): 64 above everything an
 * older writer could have certified - every listed sequence, every persisted watermark's
 * object (`id >> 20`) and the boundary - so no create of an old writer can reach the new
 * writer's sequences, and every new id lies above every watermark. Pure arithmetic.
 */
import { SequenceExhaustedError } from '../errors';
import { SEQ_LIMIT, seqOf, type EntryId, type Seq } from '../ids';
import type { RegionId } from '../region-id';

/**
 * The start gap: how far above the highest certified sequence an old writer may still create.
 * The one definition: recovery places a start object by it, the writer actor creates only
 * below B + START_GAP.
 */
export const START_GAP = 64n;

export interface StartInputs {
  /** The highest sequence listed (any object, chain, orphan or excluded), null if none. */
  readonly highestListedSeq: Seq | null;
  readonly watermarks: ReadonlyMap<RegionId, EntryId>;
  readonly boundary: Seq;
}

/** `max(listed seqs, watermark >> 20, boundary) + 64`, or `SequenceExhausted` at 2^44. */
export function startSequenceFor(inputs: StartInputs): Seq {
  let base = inputs.boundary;
  if (inputs.highestListedSeq !== null && inputs.highestListedSeq > base)
    base = inputs.highestListedSeq;
  for (const id of inputs.watermarks.values()) if (seqOf(id) > base) base = seqOf(id);
  const start = base + START_GAP;
  if (start >= SEQ_LIMIT) throw new SequenceExhaustedError(base);
  return start;
}
