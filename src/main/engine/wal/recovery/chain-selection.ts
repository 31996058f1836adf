/**
 * Chain selection (wal.md, "Catalog and recovery"), a pure judgement over scanned objects:
 * objects of a sealed epoch above its recorded `lastSeq` are excluded first; a link holds
 * when the object has no predecessor, or the predecessor is present with the linked epoch,
 * or lies below the boundary; an object is complete when every link on its chain holds; the
 * tip is the complete object with the largest epoch, then the largest sequence. Its chain is
 * what recovery indexes; every other object is an orphan. Never reads storage, never throws:
 * the caller decides what an empty or incomplete result means.
 */
import type { Seq } from '../ids';
import { isExcludedBySeal } from '../sealed-directory';
import type { SealRecord } from '../session';
import { compareSeq } from './listing';
import type { ScannedObject } from './tail-read';

export interface ChainRules {
  readonly boundary: Seq;
  readonly segments: readonly SealRecord[];
  /**
   * For a provisional judgement while an open is in progress: sequences not read yet (listed
   * and not read, or not listed yet). A link to one is taken on trust and ends the walk, so
   * the newest objects read show their chain before the oldest are read.
   */
  readonly pending?: (seq: Seq) => boolean;
}

export interface ChainSelection {
  /** Objects at or above the boundary that were judged (excluded ones included). */
  readonly present: readonly ScannedObject[];
  readonly excluded: readonly ScannedObject[];
  /** The tip's chain, ascending by sequence; empty when there is no tip. */
  readonly chain: readonly ScannedObject[];
  readonly tip: ScannedObject | null;
  /** Present, not excluded and not on the chain. */
  readonly orphans: readonly ScannedObject[];
  /** Objects (not excluded) whose own link does not hold. */
  readonly brokenLinks: number;
}

function isBetterTip(candidate: ScannedObject, best: ScannedObject | null): boolean {
  if (best === null) return true;
  if (candidate.epoch !== best.epoch) return candidate.epoch > best.epoch;
  return candidate.seq > best.seq;
}

export function selectChain(objects: readonly ScannedObject[], rules: ChainRules): ChainSelection {
  const present = objects.filter((o) => o.seq >= rules.boundary).sort(compareSeq);
  const excluded = present.filter((o) => isExcludedBySeal(rules.segments, o.seq, o.epoch));
  const excludedSeqs = new Set(excluded.map((o) => o.seq));
  const candidates = present.filter((o) => !excludedSeqs.has(o.seq));
  const bySeq = new Map(candidates.map((o) => [o.seq, o] as const));

  const pending = rules.pending;
  // A link below the boundary, or (provisionally) to an object not read yet, ends the walk.
  const reachesBelowBoundary = (o: ScannedObject): boolean => {
    const link = o.link;
    if (link === null || link.seq < rules.boundary) return true;
    return pending !== undefined && !bySeq.has(link.seq) && pending(link.seq);
  };
  const linkHolds = (o: ScannedObject): boolean =>
    reachesBelowBoundary(o) || bySeq.get(o.link?.seq ?? -1n)?.epoch === o.link?.epoch;

  // Ascending order: a predecessor (a lower sequence) is always judged before its successor.
  const complete = new Set<Seq>();
  let brokenLinks = 0;
  let tip: ScannedObject | null = null;
  for (const object of candidates) {
    if (!linkHolds(object)) {
      brokenLinks += 1;
      continue;
    }
    if (!reachesBelowBoundary(object) && !complete.has(object.link?.seq ?? -1n)) continue;
    complete.add(object.seq);
    if (isBetterTip(object, tip)) tip = object;
  }

  const chain: ScannedObject[] = [];
  for (let at: ScannedObject | undefined = tip ?? undefined; at !== undefined;) {
    chain.push(at);
    at = reachesBelowBoundary(at) ? undefined : bySeq.get(at.link?.seq ?? -1n);
  }
  chain.reverse();
  const onChain = new Set(chain.map((o) => o.seq));
  // Provisionally, an object below the chain read so far is not judged yet (its successor may
  // not be read): not an orphan until the open ends.
  const judgedFrom = pending === undefined ? -1n : (chain[0]?.seq ?? -1n);
  const orphans = candidates.filter((o) => !onChain.has(o.seq) && o.seq > judgedFrom);
  return { present, excluded, chain, tip, orphans, brokenLinks };
}
