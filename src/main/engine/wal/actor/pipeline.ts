/**
 * The pipeline: the sealed batches not yet committed, in sequence order, with a count of the
 * batches in each phase. Every phase move of a batch in it goes through `move` (and leaving
 * it through `take`), so the counts cannot drift from the batches, and the questions the
 * actor asks on every step (room for another sealed batch? anything indexed waiting for a
 * fence?) cost a read instead of a pass over the batches. Owns no I/O and decides nothing.
 */
import { moveTo, UNINDEXED_PHASES, type BatchPhase, type SealedBatch } from './sealed-batch';

type Counts = Record<BatchPhase, number>;

/** Read once: under tsx an imported binding is a getter, and this is read on every move. */
const UNINDEXED: ReadonlySet<BatchPhase> = new Set(UNINDEXED_PHASES);
const unindexedWeight = (phase: BatchPhase): number => (UNINDEXED.has(phase) ? 1 : 0);

export class Pipeline implements Iterable<SealedBatch> {
  private readonly batches: SealedBatch[] = [];
  /** The batches in the phases of UNINDEXED_PHASES: backpressure reads it on every admission. */
  private unindexed = 0;
  private readonly counts: Counts = {
    queued: 0,
    creating: 0,
    'retry-wait': 0,
    created: 0,
    indexed: 0,
    fencing: 0,
    committed: 0,
    failed: 0,
  };

  get length(): number {
    return this.batches.length;
  }

  [Symbol.iterator](): Iterator<SealedBatch> {
    return this.batches[Symbol.iterator]();
  }

  /** A copy, for passes that change the pipeline while they run. */
  toArray(): SealedBatch[] {
    return this.batches.slice();
  }

  first(): SealedBatch | undefined {
    return this.batches[0];
  }

  last(): SealedBatch | undefined {
    return this.batches[this.batches.length - 1];
  }

  /** A newly sealed batch, behind every other (sealing goes in sequence order). */
  push(batch: SealedBatch): void {
    this.batches.push(batch);
    this.counts[batch.phase] += 1;
    this.unindexed += unindexedWeight(batch.phase);
  }

  move(batch: SealedBatch, next: BatchPhase): void {
    const from = batch.phase;
    moveTo(batch, next);
    this.counts[from] -= 1;
    this.counts[next] += 1;
    this.unindexed += unindexedWeight(next) - unindexedWeight(from);
  }

  /** Takes a batch out (committed at the front, or failed anywhere); false if not in it. */
  take(batch: SealedBatch, to: 'committed' | 'failed'): boolean {
    const at = this.batches[0] === batch ? 0 : this.batches.indexOf(batch);
    if (at >= 0) {
      this.batches.splice(at, 1);
      this.counts[batch.phase] -= 1;
      this.unindexed -= unindexedWeight(batch.phase);
    }
    moveTo(batch, to);
    return at >= 0;
  }

  count(phase: BatchPhase): number {
    return this.counts[phase];
  }

  /** Sealed and not yet indexed: what backpressure counts and a transient failure fails. */
  unindexedCount(): number {
    return this.unindexed;
  }

  firstQueued(): SealedBatch | undefined {
    if (this.counts.queued === 0) return undefined;
    return this.batches.find((b) => b.phase === 'queued');
  }

  filter(keep: (batch: SealedBatch) => boolean): SealedBatch[] {
    return this.batches.filter(keep);
  }
}
