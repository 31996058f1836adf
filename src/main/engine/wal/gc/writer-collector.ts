/**
 * Garbage collection in a writer (control.md point 5: "in the writer's actor after obsolete,
 * and as an operator action on a writer opened in the app"). Passes run one at a time; a pass
 * asked for after `obsolete` runs in the background and coalesces with one already waiting.
 * The boundary is judged from the writer's own catalog (its indexed chain) and the persisted
 * watermarks, and CASed by the actor in command order; the listing and the deletes run here,
 * off the write path. It never deletes before its boundary CAS passed and never judges from
 * anything but the persisted control state.
 */
import type { ObjectIo } from '../../objectio/object-io';
import type { CatalogObject } from '../catalog';
import type { Seq } from '../ids';
import type { WalMetrics } from '../metrics';
import type { ControlState } from '../session';
import { heldBackBy } from './held-back';
import { collectionBoundary } from './plan';
import { previewCollection, runCollection, type GcReport } from './run';

/** What the collector needs of its writer. */
export interface CollectingWriter {
  readonly io: ObjectIo;
  readonly prefix: string;
  readonly metrics: WalMetrics;
  /** The indexed chain, ascending (the catalog), and the control state last persisted. */
  snapshot(): { readonly chain: Iterable<CatalogObject>; readonly control: ControlState };
  /** The actor's boundary CAS (`WriterActor.raiseBoundary`). */
  raiseBoundary(
    decide: (chain: Iterable<CatalogObject>, control: ControlState) => Seq,
  ): Promise<{ previous: Seq; boundary: Seq }>;
}

/** The boundary the writer's state calls for. */
function decideBoundary(chain: Iterable<CatalogObject>, control: ControlState): Seq {
  return collectionBoundary(chain, control.watermarks, control.boundary);
}

export class WriterCollector {
  private queue: Promise<unknown> = Promise.resolve();
  private backgroundWaiting = false;
  private readonly listeners = new Set<(report: GcReport) => void>();

  constructor(private readonly writer: CollectingWriter) {}

  /** One pass after every pass already asked for; rejects with `Fenced`, `Stopped`, storage errors. */
  collect(): Promise<GcReport> {
    return this.serialize(() => this.pass());
  }

  /** Exactly what a pass now would delete, and the bytes; writes nothing. */
  dryRun(): Promise<GcReport> {
    const { chain, control } = this.writer.snapshot();
    return previewCollection(
      this.writer.io,
      this.writer.prefix,
      control.boundary,
      decideBoundary(chain, control),
      null,
      // The chain is a one-pass iterator (the catalog's): a second one for this question.
      heldBackBy(this.writer.snapshot().chain, control.watermarks),
    );
  }

  /** A background pass after `obsolete`; one waiting pass covers every request made meanwhile. */
  requestAfterObsolete(): void {
    if (this.backgroundWaiting) return;
    this.backgroundWaiting = true;
    void this.serialize(() => {
      this.backgroundWaiting = false;
      return this.pass();
    }).catch(() => {
      // A background pass's failure is the store's business (Fenced poisons it, Stopped means
      // it is going away); the next pass resumes whatever this one left.
    });
  }

  /** Resolves once no pass is running or waiting (a stopping store awaits its deletes). */
  async idle(): Promise<void> {
    for (let seen = this.queue; ; seen = this.queue) {
      await seen.catch(() => undefined);
      if (seen === this.queue) return;
    }
  }

  onCollection(listener: (report: GcReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async pass(): Promise<GcReport> {
    const report = await runCollection({
      io: this.writer.io,
      prefix: this.writer.prefix,
      metrics: this.writer.metrics,
      raiseBoundary: () => this.writer.raiseBoundary(decideBoundary),
    });
    for (const listener of this.listeners) listener(report);
    return report;
  }

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
