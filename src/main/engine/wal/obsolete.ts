/**
 * The rules of `obsolete` (wal.md, "Reading, obsolete, namespaces"): from an id and what the
 * actor knows, the watermark to persist and the sequence floor to apply with it, or the typed
 * refusal. Pure: the actor performs the CAS and applies the plan only once it passed.
 *
 * One deliberate deviation, on the safe side: in `enqueued` mode an id this store did not
 * hand out whose floor would move the next sequence is persisted unclamped when the region
 * has no unpersisted entries (nothing of ours lies between its durable id and the id, so the
 * clamp would hide nothing); otherwise it is refused as `WalObjectSequenceUnsettled`. A
 * clamped watermark could not certify the moved sequence for the start gap (control.md 2),
 * and the writer would stall at B + 64 for good.
 */
import type { AckMode } from './config';
import { InvalidEntryIdError, WalObjectSequenceUnsettledError } from './errors';
import { checkObsoleteId, seqOf, sequenceFloorOf, type EntryId, type Seq } from './ids';
import { formatRegionId, type RegionId } from './region-id';

export interface ObsoleteFacts {
  readonly ackMode: AckMode;
  /** Largest durable (indexed and fenced) id of the region. */
  readonly durableId: EntryId;
  /** Largest id of the region handed out by this store (>= durableId). */
  readonly handedOutId: EntryId;
  /** The sequence the open batch takes. */
  readonly nextSeq: Seq;
  /** The first sequence not yet durable: ids from here to nextSeq are in flight. */
  readonly firstUnsettledSeq: Seq;
  readonly openBatchHoldsEntries: boolean;
  readonly currentWatermark: EntryId;
}

export interface ObsoletePlan {
  /** The watermark to persist and apply (never below the current one). */
  readonly watermark: EntryId;
  /** The next sequence to raise to, or null when none needs to move. */
  readonly floor: Seq | null;
}

function floorFor(id: EntryId, facts: ObsoleteFacts): Seq | null {
  const floor = sequenceFloorOf(id);
  return floor > facts.nextSeq ? floor : null;
}

function planDurable(region: RegionId, id: EntryId, facts: ObsoleteFacts): ObsoletePlan {
  const seq = seqOf(id);
  if (id > facts.durableId && seq >= facts.firstUnsettledSeq && seq < facts.nextSeq) {
    throw new InvalidEntryIdError(
      id,
      `above the latest durable id ${facts.durableId} of region ${formatRegionId(region)}: its object is not durable yet`,
    );
  }
  return { watermark: id, floor: floorFor(id, facts) };
}

function planEnqueued(id: EntryId, facts: ObsoleteFacts): ObsoletePlan {
  const floor = id <= facts.handedOutId ? null : floorFor(id, facts);
  if (floor === null) {
    const clamped = id < facts.durableId ? id : facts.durableId;
    return { watermark: clamped, floor: null };
  }
  // Not handed out by this store (its sequence is at or above the next one).
  return { watermark: id, floor };
}

/** The plan for `obsolete(region, id)`, or the typed refusal. Records nothing. */
export function planObsolete(region: RegionId, id: EntryId, facts: ObsoleteFacts): ObsoletePlan {
  checkObsoleteId(id);
  const plan =
    facts.ackMode === 'durable' ? planDurable(region, id, facts) : planEnqueued(id, facts);
  if (plan.floor !== null) {
    const unsettled =
      facts.openBatchHoldsEntries ||
      (facts.ackMode === 'enqueued' && facts.handedOutId > facts.durableId);
    if (unsettled) throw new WalObjectSequenceUnsettledError(region, id);
  }
  const watermark =
    plan.watermark > facts.currentWatermark ? plan.watermark : facts.currentWatermark;
  return { watermark, floor: plan.floor };
}

/** Whether applying the plan changes anything (else no CAS is needed). */
export function planChangesAnything(plan: ObsoletePlan, facts: ObsoleteFacts): boolean {
  return plan.watermark > facts.currentWatermark || plan.floor !== null;
}
