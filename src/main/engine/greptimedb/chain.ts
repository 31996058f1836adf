/**
 * GreptimeDB's chain rules, a pure judgement over the objects read: an object is complete
 * when each link walking back from it names a present object whose header has the linked
 * epoch, until an object with no predecessor or a link below the candidate's own reclaim
 * boundary. The tip is the complete object with the largest (epoch, sequence); its chain is
 * what a replay reads. Objects off the chain are orphans, except those below the tip's
 * reclaim boundary, which were fully flushed (GreptimeDB deletes them; present or missing,
 * both are normal). Never reads storage, never throws.
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

function laterFirst(a: GtScannedObject, b: GtScannedObject): number {
  if (a.epoch !== b.epoch) return a.epoch > b.epoch ? -1 : 1;
  return a.seq > b.seq ? -1 : a.seq < b.seq ? 1 : 0;
}

/** The chain ending at `candidate`, oldest first, or null when a link on it does not hold. */
function chainEndingAt(
  candidate: GtScannedObject,
  bySeq: ReadonlyMap<Seq, GtScannedObject>,
): GtScannedObject[] | null {
  const chain: GtScannedObject[] = [];
  const boundary = candidate.reclaimBoundary;
  for (let at = candidate; ;) {
    chain.push(at);
    if (at.link === null || at.link.seq < boundary) return chain.reverse();
    const predecessor = bySeq.get(at.link.seq);
    if (predecessor === undefined || predecessor.epoch !== at.link.epoch) return null;
    at = predecessor;
  }
}

export function selectGtChain(objects: readonly GtScannedObject[]): GtChainSelection {
  const bySeq = new Map(objects.map((o) => [o.seq, o] as const));
  let tip: GtScannedObject | null = null;
  let chain: GtScannedObject[] = [];
  for (const candidate of [...objects].sort(laterFirst)) {
    const found = chainEndingAt(candidate, bySeq);
    if (found !== null) {
      tip = candidate;
      chain = found;
      break;
    }
  }
  const reclaimBoundary = tip?.reclaimBoundary ?? 0n;
  const onChain = new Set(chain.map((o) => o.seq));
  const off = objects.filter((o) => !onChain.has(o.seq));
  const firstLink = chain[0]?.link ?? null;
  return {
    tip,
    chain,
    orphans: off.filter((o) => o.seq >= reclaimBoundary),
    belowBoundary: off.filter((o) => o.seq < reclaimBoundary),
    reclaimBoundary,
    reclaimedLink: firstLink !== null && !bySeq.has(firstLink.seq),
  };
}
