/**
 * GreptimeDB's chain rules, a pure judgement over the objects read: an object is complete
 * when each link walking back from it names a present object whose header has the linked
 * epoch, until an object with no predecessor or a link below the candidate's own reclaim
 * boundary. The tip is the complete object with the largest (epoch, sequence); its chain is
 * what a replay reads. Objects off the chain are orphans, except those below the tip's
 * reclaim boundary, which were fully flushed (GreptimeDB deletes them; present or missing,
 * both are normal). Never reads storage, never throws.
 *
 * Linear in the objects: walking every candidate's chain down again was quadratic when the
 * oldest link was missing (20,000 objects took a minute, holding the engine's thread). Each
 * object's walk is summed up once, oldest first, by the first link on it that does not hold
 * (`brokenBelow`): a candidate is complete when there is none, or when it lies below the
 * candidate's own boundary (the walk stops at the first link below the boundary, and link
 * sequences only fall along a walk, so it stops there before reaching the broken one).
 */
import type { Seq } from '../wal/ids';
import type { GtScannedObject } from './scan';

export interface GtChainSelection {
  readonly tip: GtScannedObject | null;
  /** The tip's chain, ascending by sequence. */
  readonly chain: readonly GtScannedObject[];
  /** Off the chain, at or above the reclaim boundary: never replayed. */
  readonly orphans: readonly GtScannedObject[];
  /** Off the chain and below the reclaim boundary: already flushed, kept until GreptimeDB deletes them. */
  readonly belowBoundary: readonly GtScannedObject[];
  /** The tip's reclaim boundary (0 with no tip). */
  readonly reclaimBoundary: Seq;
  /** The chain's first object names a predecessor below the boundary that is no longer present. */
  readonly reclaimedLink: boolean;
}

/** No link on the walk fails: it ends at an object without a predecessor. */
const WHOLE = -1;

/** Objects by sequence, keyed by the sequence as a number (below 2^44: exact, and hashed fast). */
type BySeq = ReadonlyMap<number, GtScannedObject>;

function isLater(a: GtScannedObject, b: GtScannedObject | null): boolean {
  if (b === null) return true;
  return a.epoch !== b.epoch ? a.epoch > b.epoch : a.seq > b.seq;
}

function ascending(objects: readonly GtScannedObject[]): readonly GtScannedObject[] {
  for (let at = 1; at < objects.length; at++)
    if (objects[at - 1]!.seq >= objects[at]!.seq)
      return [...objects].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  return objects;
}

/**
 * For a provisional judgement while an open is in progress: sequences not read yet. A link to
 * one is taken on trust and ends the walk (the newest objects show their chain first).
 */
export type Pending = ((seq: Seq) => boolean) | undefined;

function isPending(seq: Seq, bySeq: BySeq, pending: Pending): boolean {
  return pending !== undefined && !bySeq.has(Number(seq)) && pending(seq);
}

/**
 * For each object (by its place in `objects`, ascending), the sequence of the highest link on
 * its walk back that does not hold (`WHOLE` when none fails). A decoded link always names a
 * lower sequence, so walking the objects in ascending order has every predecessor's answer
 * ready: one step per object.
 */
function brokenLinks(
  objects: readonly GtScannedObject[],
  bySeq: BySeq,
  pending: Pending,
): Float64Array {
  const brokenBelow = new Float64Array(objects.length);
  const placeOf = new Map<number, number>();
  objects.forEach((object, at) => {
    const seq = Number(object.seq);
    placeOf.set(seq, at);
    const link = object.link;
    if (link === null || isPending(link.seq, bySeq, pending)) {
      brokenBelow[at] = WHOLE;
      return;
    }
    const linked = Number(link.seq);
    const predecessor = linked < seq ? bySeq.get(linked) : undefined;
    const holds = predecessor !== undefined && predecessor.epoch === link.epoch;
    brokenBelow[at] = holds ? (brokenBelow[placeOf.get(linked) ?? -1] ?? linked) : linked;
  });
  return brokenBelow;
}

/** The chain ending at `tip`, oldest first: its links back to its own boundary hold. */
function chainEndingAt(tip: GtScannedObject, bySeq: BySeq, pending: Pending): GtScannedObject[] {
  const chain: GtScannedObject[] = [];
  for (let at: GtScannedObject | undefined = tip; at !== undefined;) {
    chain.push(at);
    const link: GtScannedObject['link'] = at.link;
    at =
      link === null || link.seq < tip.reclaimBoundary || isPending(link.seq, bySeq, pending)
        ? undefined
        : bySeq.get(Number(link.seq));
  }
  return chain.reverse();
}

export function selectGtChain(
  objects: readonly GtScannedObject[],
  pending?: Pending,
): GtChainSelection {
  const sorted = ascending(objects);
  const bySeq: BySeq = new Map(sorted.map((o) => [Number(o.seq), o] as const));
  const brokenBelow = brokenLinks(sorted, bySeq, pending);
  let tip: GtScannedObject | null = null;
  for (let at = 0; at < sorted.length; at++) {
    const candidate = sorted[at]!;
    const broken = brokenBelow[at] ?? WHOLE;
    const complete = broken === WHOLE || broken < Number(candidate.reclaimBoundary);
    if (complete && isLater(candidate, tip)) tip = candidate;
  }
  const chain = tip === null ? [] : chainEndingAt(tip, bySeq, pending);
  const reclaimBoundary = tip?.reclaimBoundary ?? 0n;
  const onChain = new Set(chain.map((o) => Number(o.seq)));
  // Provisionally, an object below the chain read so far is not judged yet (its successor may
  // not be read): neither an orphan nor below the boundary until the open ends.
  const judgedFrom = pending === undefined ? -1n : (chain[0]?.seq ?? -1n);
  const off = objects.filter((o) => !onChain.has(Number(o.seq)) && o.seq > judgedFrom);
  const firstLink = chain[0]?.link ?? null;
  return {
    tip,
    chain,
    orphans: off.filter((o) => o.seq >= reclaimBoundary),
    belowBoundary: off.filter((o) => o.seq < reclaimBoundary),
    reclaimBoundary,
    reclaimedLink: firstLink !== null && !bySeq.has(Number(firstLink.seq)),
  };
}
