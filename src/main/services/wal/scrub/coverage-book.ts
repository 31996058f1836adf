/**
 * The coverage book: per connection and prefix, what verifies (the console's scrubs, `cairn wal
 * fleet --verify`) read whole and CRC-checked - the last complete pass (when it started, the
 * objects and bytes it read, the highest sequence) and the pass under way, with the last key
 * it finished, so a verify stopped by a restart resumes there instead of starting over. It
 * records what the verifiers tell it and never reads storage; the ledger file keeps it.
 */
import { slotParts } from '../wal-locate';

/** A pass that read every object listed when it started. */
export interface VerifyPass {
  readonly startedAtMs: number;
  readonly endedAtMs: number;
  readonly objects: number;
  readonly bytes: number;
  readonly damaged: number;
  /** The highest sequence read whole (null: the prefix held no object). */
  readonly throughSeq: bigint | null;
}

/** A pass under way: every object up to `afterKey` (in listing order) was read whole. */
export interface PartialPass {
  readonly startedAtMs: number;
  readonly afterKey: string;
  readonly objects: number;
  readonly bytes: number;
  readonly damaged: number;
  readonly throughSeq: bigint | null;
}

export interface PrefixCoverage {
  readonly complete: VerifyPass | null;
  readonly partial: PartialPass | null;
}

export const NO_COVERAGE: PrefixCoverage = { complete: null, partial: null };

export class CoverageBook {
  private readonly prefixes = new Map<string, PrefixCoverage>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Told after every change (the ledger file saves then). */
    private readonly onChange: () => void = () => undefined,
  ) {}

  of(slot: string): PrefixCoverage {
    return this.prefixes.get(slot) ?? NO_COVERAGE;
  }

  /**
   * Where a verify of the prefix starts: the pass under way when it is younger than
   * `maxAgeMs` (its objects still count), else a new pass from the first key.
   */
  begin(slot: string, maxAgeMs: number): PartialPass {
    const partial = this.of(slot).partial;
    if (partial !== null && this.now() - partial.startedAtMs < maxAgeMs) return partial;
    return {
      startedAtMs: this.now(),
      afterKey: '',
      objects: 0,
      bytes: 0,
      damaged: 0,
      throughSeq: null,
    };
  }

  /** A page of the pass is done: a restart resumes after its last key. */
  progress(slot: string, partial: PartialPass): void {
    this.prefixes.set(slot, { ...this.of(slot), partial });
    this.onChange();
  }

  /** The pass read every object: it becomes the prefix's last complete pass. */
  complete(slot: string, partial: PartialPass): void {
    const { afterKey: _done, ...pass } = partial;
    this.prefixes.set(slot, { complete: { ...pass, endedAtMs: this.now() }, partial: null });
    this.onChange();
  }

  /** Every prefix's coverage, for the ledger file. */
  stored(): Array<{ slot: string; coverage: PrefixCoverage }> {
    return [...this.prefixes].map(([slot, coverage]) => ({ slot, coverage }));
  }

  /** Coverage a file kept; a prefix this process has coverage for keeps the newer pass. */
  restore(prefixes: ReadonlyArray<{ slot: string; coverage: PrefixCoverage }>): void {
    let changed = false;
    for (const { slot, coverage } of prefixes) {
      const mine = this.prefixes.get(slot);
      const newer =
        mine === undefined ||
        (coverage.complete?.startedAtMs ?? -1) > (mine.complete?.startedAtMs ?? -1);
      if (!newer) continue;
      this.prefixes.set(slot, coverage);
      changed = true;
    }
    if (changed) this.onChange();
  }

  /** Forgets a removed connection's coverage. */
  forgetConnection(connectionId: string): void {
    let forgot = false;
    for (const slot of [...this.prefixes.keys()])
      if (slotParts(slot).connectionId === connectionId) forgot = this.prefixes.delete(slot);
    if (forgot) this.onChange();
  }
}
