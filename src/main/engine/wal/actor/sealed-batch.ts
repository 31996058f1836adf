/**
 * A sealed batch on its way to the catalog, and the phases it moves through. The table of
 * valid phase transitions is data, checked in one place (`moveTo`), so an impossible move is
 * a bug caught at once rather than a silent state. Owns no I/O.
 */
import type { EncodedObject, ObjectLink } from '../format';
import type { EntryId, Seq } from '../ids';
import type { RegionId } from '../region-id';
import type { AppendWaiter } from './open-batch';

export type BatchPhase =
  /** Sealed, its create not started (pipeline slot, in-flight limit or start gap). */
  | 'queued'
  | 'creating'
  /** enqueued: a transient failure, created again after a short delay. */
  | 'retry-wait'
  /** Durable, waiting for the batches before it (index strictly in sequence order). */
  | 'created'
  /** Indexed in sequence order, waiting for a fence round. */
  | 'indexed'
  /** Covered by the fence round in progress. */
  | 'fencing'
  /** Committed to the catalog and acknowledged. */
  | 'committed'
  /** Failed, dropped or stopped; a create still in flight lands as an orphan. */
  | 'failed';

const TRANSITIONS: Readonly<Record<BatchPhase, readonly BatchPhase[]>> = {
  queued: ['creating', 'failed'],
  creating: ['created', 'retry-wait', 'failed'],
  'retry-wait': ['creating', 'failed'],
  created: ['indexed', 'committed', 'failed'],
  indexed: ['fencing', 'committed', 'failed'],
  fencing: ['committed', 'indexed', 'failed'],
  committed: [],
  failed: [],
};

export interface SealedBatch {
  readonly seq: Seq;
  readonly key: string;
  readonly epoch: bigint;
  readonly link: ObjectLink | null;
  readonly encoded: EncodedObject;
  readonly entries: number;
  readonly waiters: readonly AppendWaiter[];
  readonly lastIds: ReadonlyMap<RegionId, EntryId>;
  readonly firstAdmittedAt: number;
  readonly sealedAt: number;
  phase: BatchPhase;
  attempt: number;
  createStartedAt: number | null;
  /** Its create is running and it is still in the pipeline (not retired: not an orphan). */
  createRunning: boolean;
  retryAt: number;
}

export function moveTo(batch: SealedBatch, next: BatchPhase): void {
  if (!TRANSITIONS[batch.phase].includes(next)) {
    throw new Error(`WAL batch ${batch.seq}: no transition from ${batch.phase} to ${next}`);
  }
  batch.phase = next;
}

/** Not yet indexed: what backpressure counts and a transient failure fails. */
export const UNINDEXED_PHASES: readonly BatchPhase[] = [
  'queued',
  'creating',
  'retry-wait',
  'created',
];

export function isUnindexed(batch: SealedBatch): boolean {
  return UNINDEXED_PHASES.includes(batch.phase);
}
