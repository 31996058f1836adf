/**
 * One writer opened in the app on one prefix: the store (ObjectStoreLogStore over a session
 * this module opens, so the console can see the live catalog), its state announced at most
 * 10 times a second, and the in-app load generator. Owns the writer's lifetime: `close` stops
 * the load, then the store. Never checks access or the live-writer window (the service does).
 */
import type {
  GcReport,
  LoadSample,
  ObsoletePreview,
  RegionRow,
  WriterReopenView,
  WriterView,
} from '../../../shared/contract/wal';
import { WRITER_STATE_EVENTS_PER_SECOND } from '../../../shared/contract/wal';
import { directIo } from '../../engine/objectio/link';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import type { WalEntry } from '../../engine/wal/entry';
import type { ReadOptions } from '../../engine/wal/reader';
import { createWalMetrics } from '../../engine/wal/metrics';
import { openWriter } from '../../engine/wal/open';
import { formatRegionId, type Provider } from '../../engine/wal/provider';
import type { ControlState, WriterSession } from '../../engine/wal/session';
import { ObjectStoreLogStore, type StopReport } from '../../engine/wal/store';
import { LoadAlreadyRunningError, ObsoleteAboveLatestError } from './errors';
import { runLoad, type LoadReport, type LoadSpec } from './load-generator';
import { LoadSampler } from './load-sampler';
import { previewObsolete } from './obsolete-preview';
import { CollectionTriggers, type CollectionTrigger } from './deletion-audit';
import { formatEntryId } from '../../../shared/id-notation';
import { throttle, type Throttled } from './throttle';
import { presentGcReport, regionRowsOf, writerStateViewOf } from './wal-presenters';

/** How often a running load reports a sample. */
export const LOAD_SAMPLE_INTERVAL_MS = 500;

export interface AppWriterListeners {
  onState(view: WriterView | null): void;
  onLoadSample(sample: LoadSample, running: boolean): void;
  /**
   * A garbage-collection pass finished (after an obsolete, or asked for), answering the calls
   * in `triggers`; the writer waits for what this returns before it reports the pass done.
   */
  onCollected(report: GcReport, triggers: readonly CollectionTrigger[]): Promise<void> | void;
  /** The writer re-opened itself under a new epoch (its start gap was spent). */
  onReopened(reopen: WriterReopenView): void;
}

interface LoadRun {
  readonly abort: AbortController;
  readonly sampler: LoadSampler;
  readonly done: Promise<LoadReport>;
  running: boolean;
}

export class AppWriter {
  /** The view is computed when an announcement leaves, not on every state change. */
  private readonly announce: Throttled<void>;
  private readonly unsubscribe: () => void;
  private load: LoadRun | null = null;
  private closing: Promise<StopReport> | null = null;
  /** The calls waiting for a collection, and the reports of passes done, in order. */
  private readonly triggers = new CollectionTriggers();
  private reported: Promise<void> = Promise.resolve();

  private constructor(
    private readonly session: WriterSession,
    readonly store: ObjectStoreLogStore,
    private readonly listeners: AppWriterListeners,
  ) {
    this.announce = throttle(() => listeners.onState(this.view()), WRITER_STATE_EVENTS_PER_SECOND);
    let reopensSeen = store.state().reopens;
    const unsubscribeState = store.onStateChange((state) => {
      if (state.reopens > reopensSeen && state.lastReopen !== null) {
        reopensSeen = state.reopens;
        listeners.onReopened({ ...state.lastReopen });
      }
      this.announce.push(undefined);
    });
    const unsubscribeCollections = store.onCollection((report) => {
      const triggers = this.triggers.take();
      const before = this.reported.catch(() => undefined);
      this.reported = before.then(() => listeners.onCollected(presentGcReport(report), triggers));
      // Awaited by `gc` and `close`; a background pass's failure to report must not go unhandled.
      void this.reported.catch(() => undefined);
    });
    this.unsubscribe = () => {
      unsubscribeState();
      unsubscribeCollections();
    };
  }

  static async open(
    io: ObjectIo,
    config: ObjectStoreWalConfigInput,
    listeners: AppWriterListeners,
  ): Promise<AppWriter> {
    const metrics = createWalMetrics();
    // The connection's store under its link: a writer's creates and register updates are its
    // commit path and must never queue behind a view's reads (see `directIo`).
    const session = await openWriter(directIo(io), config, { maintenance: false, metrics });
    return new AppWriter(session, ObjectStoreLogStore.fromSession(session, { metrics }), listeners);
  }

  get prefix(): string {
    return this.store.prefix;
  }

  provider(region: bigint): Provider {
    return { prefix: this.store.prefix, regionId: region };
  }

  view(): WriterView {
    const catalog = this.session.catalog;
    return {
      state: writerStateViewOf(this.store.state()),
      orphansAtOpen: this.session.recovery.orphans.length,
      holes: catalog.regions().reduce((sum, region) => sum + region.holes, 0),
      indexedObjects: catalog.objectCount,
      indexedBytes: catalog.totalBytes,
      load: this.load === null ? null : { running: this.load.running, ...this.load.sampler.totals },
    };
  }

  /** The live catalog's regions with the writer's durable and handed-out ids. */
  regions(): RegionRow[] {
    const usable = this.store.state().poisoned === null && !this.store.state().stopped;
    return regionRowsOf(
      this.session.catalog,
      this.session.register.current().control,
      usable
        ? {
            durableId: (region) => this.store.latestEntryId(this.provider(region)),
            handedOutId: (region) => this.store.handedOutEntryId(this.provider(region)),
          }
        : {},
    );
  }

  /** The chain as the writer indexed it, and the orphans its open met. */
  get catalog(): WriterSession['catalog'] {
    return this.session.catalog;
  }

  get orphansAtOpen(): WriterSession['recovery']['orphans'] {
    return this.session.recovery.orphans;
  }

  read(region: bigint, fromId: bigint, options?: ReadOptions): AsyncIterable<WalEntry> {
    return this.store.read(this.provider(region), fromId, options);
  }

  /** Whether the chain holds entries of an epoch before this writer's (someone else's data). */
  holdsEarlierEntries(): boolean {
    for (const object of this.session.catalog.objects())
      if (object.epoch < this.store.epoch && object.segments.length > 0) return true;
    return false;
  }

  /** Whether the register's region table lists the region (it may hold no entry yet). */
  listsRegion(region: bigint): boolean {
    return this.session.register.current().control.regions.has(region);
  }

  previewObsolete(region: bigint, id: bigint): ObsoletePreview {
    return previewObsolete(
      this.session.catalog,
      region,
      id,
      this.store.latestEntryId(this.provider(region)),
    );
  }

  /** Raises the watermark to `id` (at most the latest durable id); returns what it hid. */
  async obsolete(region: bigint, id: bigint): Promise<ObsoletePreview> {
    const preview = this.previewObsolete(region, id);
    if (id > preview.latestId)
      throw new ObsoleteAboveLatestError(this.prefix, formatRegionId(region), id, preview.latestId);
    const trigger = {
      action: 'wal.obsolete',
      parameters: { region: formatRegionId(region), id: formatEntryId(id) },
    };
    await this.triggers.asking(trigger, () =>
      this.store.obsolete(this.provider(region), region, id),
    );
    this.announce.push(undefined);
    return preview;
  }

  async obsoleteAll(region: bigint): Promise<ObsoletePreview> {
    const preview = this.previewObsolete(region, this.store.latestEntryId(this.provider(region)));
    const trigger = { action: 'wal.obsoleteAll', parameters: { region: formatRegionId(region) } };
    await this.triggers.asking(trigger, () =>
      this.store.obsoleteAll(this.provider(region), region),
    );
    this.announce.push(undefined);
    return preview;
  }

  /** One garbage-collection pass, reported (audited) before it returns. */
  async gc(): Promise<GcReport> {
    const trigger = { action: 'wal.gc', parameters: { prefix: this.prefix } };
    const report = await this.triggers.asking(trigger, () => this.store.gc());
    await this.reported;
    return presentGcReport(report);
  }

  /** The control state the writer last persisted (watermarks, boundary, region table). */
  control(): ControlState {
    return this.session.register.current().control;
  }

  startLoad(spec: LoadSpec): void {
    if (this.load?.running) throw new LoadAlreadyRunningError(this.prefix);
    const abort = new AbortController();
    const sampler = new LoadSampler();
    const timer = setInterval(
      () => this.listeners.onLoadSample(sampler.sample(), true),
      LOAD_SAMPLE_INTERVAL_MS,
    );
    const done = runLoad(this.store, spec, (ack) => sampler.recordAck(ack.latencyMs), abort.signal);
    const run: LoadRun = { abort, sampler, done, running: true };
    this.load = run;
    void done.then(
      (report) => this.finishLoad(run, timer, report.failed),
      () => this.finishLoad(run, timer, sampler.totals.failed),
    );
    this.announce.push(undefined);
  }

  async stopLoad(): Promise<{ acknowledged: number; failed: number }> {
    const run = this.load;
    if (run === null) return { acknowledged: 0, failed: 0 };
    run.abort.abort();
    await run.done.catch(() => undefined);
    return run.sampler.totals;
  }

  /** Stops the load and the store; idempotent. */
  close(): Promise<StopReport> {
    this.closing ??= (async () => {
      await this.stopLoad();
      const report = await this.store.stop();
      await this.reported.catch(() => undefined); // the passes stop awaited are reported too
      this.unsubscribe();
      this.announce.dispose();
      return report;
    })();
    return this.closing;
  }

  private finishLoad(run: LoadRun, timer: ReturnType<typeof setInterval>, failed: number): void {
    clearInterval(timer);
    run.running = false;
    run.sampler.recordFailures(failed);
    this.listeners.onLoadSample(run.sampler.sample(), false);
    if (this.closing === null) this.announce.push(undefined);
  }
}
