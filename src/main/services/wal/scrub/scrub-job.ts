/**
 * One scrub job: the prefixes it is handed, verified one after the other (`scrubPrefix`),
 * with pause, resume and cancel between objects and a view of its progress. A prefix whose
 * scrub fails is recorded and the job goes on to the next (one unreachable prefix does not
 * stop a fleet scrub); a job scoped to one prefix fails with that error. It finds its
 * prefixes through `prefixes` (one, or a walk of the fleet) and never decides damage itself.
 */
import type { ScrubJobView } from '../../../../shared/contract/wal-scrub';
import { errorSummaryOf } from '../fleet/fleet-row';
import { FoundChannel } from '../fleet/found-channel';
import type { DamageLedger } from './damage-ledger';
import { ScrubCancelled, ScrubGate } from './scrub-gate';
import { emptyTally, scrubPrefix, type ScrubbedPrefix, type ScrubCoverage } from './scrub-prefix';

export interface ScrubPlan {
  readonly jobId: string;
  readonly connectionId: string;
  /** The one prefix scrubbed, or null for the fleet. */
  readonly prefix: string | null;
  /** Hands each prefix to scrub to `found` as it is found; resolves once all are. */
  readonly prefixes: (found: (prefix: string) => void) => Promise<void>;
  /** Where a found prefix lives and in which format (a prefix that fails here is a failure). */
  readonly locate: (prefix: string) => Promise<ScrubbedPrefix>;
  readonly ledger: DamageLedger;
  /** Told when a prefix's scrub ended, so its views show the findings before the job goes on. */
  readonly onPrefixDone?: (prefix: string) => Promise<void>;
  /** Told when a prefix's scrub failed (the background scrub waits before trying it again). */
  readonly onPrefixFailed?: (prefix: string) => void;
  /** Where each prefix's pass is recorded, so it resumes and counts as coverage. */
  readonly coverage?: ScrubCoverage;
  /** The app's own scrub, started because prefixes were not verified within the age. */
  readonly background?: boolean;
}

type JobState = ScrubJobView['state'];

export class ScrubJob {
  private readonly gate = new ScrubGate();
  private readonly tally = emptyTally();
  private state: JobState = 'running';
  private current: string | null = null;
  private prefixesDone = 0;
  private prefixesFound = 0;
  private walked = false;
  private readonly startedAtMs = Date.now();
  private endedAtMs: number | null = null;
  private readonly failures: ScrubJobView['failures'] = [];
  private error: ScrubJobView['error'] = null;
  readonly finished: Promise<void>;

  constructor(private readonly plan: ScrubPlan) {
    this.finished = this.run();
  }

  get id(): string {
    return this.plan.jobId;
  }

  get active(): boolean {
    return this.state === 'running' || this.state === 'paused';
  }

  view(): ScrubJobView {
    return {
      jobId: this.plan.jobId,
      connectionId: this.plan.connectionId,
      prefix: this.plan.prefix,
      background: this.plan.background === true,
      state: this.state,
      current: this.current,
      prefixesDone: this.prefixesDone,
      prefixesFound: this.prefixesFound,
      walked: this.walked,
      ...this.tally,
      startedAtMs: this.startedAtMs,
      endedAtMs: this.endedAtMs,
      failures: this.failures.map((failure) => ({ ...failure })),
      error: this.error,
    };
  }

  pause(): ScrubJobView {
    if (this.state === 'running') {
      this.state = 'paused';
      this.gate.pause();
    }
    return this.view();
  }

  resume(): ScrubJobView {
    if (this.state === 'paused') {
      this.state = 'running';
      this.gate.resume();
    }
    return this.view();
  }

  cancel(): ScrubJobView {
    if (this.active) {
      this.state = 'cancelled';
      this.gate.cancel();
    }
    return this.view();
  }

  private async run(): Promise<void> {
    const found = new FoundChannel<string>();
    // Settled into a value at once: a walk that fails early is never an unhandled rejection.
    const walk = this.plan
      .prefixes((prefix) => {
        this.prefixesFound += 1;
        found.push(prefix);
      })
      .then(
        () => null,
        (error: unknown) => errorSummaryOf(error),
      )
      .finally(() => {
        this.walked = true;
        found.close();
      });
    try {
      for await (const [prefix] of found) {
        if (prefix === undefined) continue;
        await this.gate.ready();
        await this.scrubOne(prefix);
      }
      this.error = await walk;
      this.end(this.error === null ? 'finished' : 'failed');
    } catch (error) {
      if (!(error instanceof ScrubCancelled)) this.error = errorSummaryOf(error);
      this.end('cancelled');
    } finally {
      this.current = null;
      await walk;
    }
  }

  private async scrubOne(prefix: string): Promise<void> {
    this.current = prefix;
    try {
      const target = await this.plan.locate(prefix);
      await scrubPrefix(target, this.plan.ledger, this.gate, this.tally, this.plan.coverage);
    } catch (error) {
      if (error instanceof ScrubCancelled) throw error;
      const summary = errorSummaryOf(error);
      this.failures.push({ prefix, error: summary });
      this.plan.onPrefixFailed?.(prefix);
      if (this.plan.prefix !== null) this.error = summary;
    } finally {
      this.prefixesDone += 1;
      await this.plan.onPrefixDone?.(prefix).catch(() => undefined);
    }
  }

  private end(state: JobState): void {
    if (this.state !== 'cancelled') this.state = this.error !== null ? 'failed' : state;
    this.endedAtMs = Date.now();
  }
}
