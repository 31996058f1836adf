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
import { CallCredit, writeAfter } from '../audit/call-credit';
import type { DeletionCause } from './deletion-credit';
import type { AppliedRequests } from '../../engine/wal/watermark-requests/writer-apply';
import { formatEntryId } from '../../../shared/id-notation';
import { throttle, type Throttled } from './throttle';
import { presentGcReport, regionRowsOf, writerStateViewOf } from './wal-presenters';

/**
 * How often the app's writer, idle, reads the register for watermark requests another
 * process wrote (one `isCurrent`: two small requests); the console shows how long they wait.
 */
export const APP_REQUEST_POLL_MS = 1_000;

/** How often a running load reports a sample. */
export const LOAD_SAMPLE_INTERVAL_MS = 500;

export interface AppWriterListeners {
  onState(view: WriterView | null): void;
  onLoadSample(sample: LoadSample, running: boolean): void;
  /**
   * A garbage-collection pass finished, for `cause`: the call that asked for it (an obsolete,
   * a bulk obsolete, a GC) or the app itself (watermark requests another process wrote were
   * applied). Called after the call's own audit entry is written.
   */
  onCollected(report: GcReport, cause: DeletionCause): Promise<void> | void;
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
  /** The reports of passes the app started by itself, in order. */
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
    // Watermark requests another process wrote, applied by this writer: the app collects.
    const unsubscribeRequests = store.onWatermarkRequests((applied) => {
      if (applied.raised.size > 0) void this.collectForRequests(applied);
    });
    this.unsubscribe = () => {
      unsubscribeState();
      unsubscribeRequests();
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
    // Every pass is run here, for the call that caused it, so it is audited under that call.
    const store = ObjectStoreLogStore.fromSession(session, {
      metrics,
      gcAfterObsolete: false,
      requestPollMs: APP_REQUEST_POLL_MS,
    });
    return new AppWriter(session, store, listeners);
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

  /**
   * Raises the watermark to `id` (at most the latest durable id), then runs the collection
   * after it for `credit`'s call; returns what it hid.
   */
  async obsolete(region: bigint, id: bigint, credit?: CallCredit): Promise<ObsoletePreview> {
    const preview = await this.raiseWatermark(region, id);
    await this.collectAfter(credit, 'wal.obsolete', {
      region: formatRegionId(region),
      id: formatEntryId(id),
    });
    return preview;
  }

  /**
   * The watermark alone, no collection (a bulk obsolete raises every region, then collects
   * once: `collectAfter`).
   */
  async raiseWatermark(region: bigint, id: bigint): Promise<ObsoletePreview> {
    const preview = this.previewObsolete(region, id);
    if (id > preview.latestId)
      throw new ObsoleteAboveLatestError(this.prefix, formatRegionId(region), id, preview.latestId);
    await this.store.obsolete(this.provider(region), region, id);
    this.announce.push(undefined);
    return preview;
  }

  async obsoleteAll(region: bigint, credit?: CallCredit): Promise<ObsoletePreview> {
    const preview = this.previewObsolete(region, this.store.latestEntryId(this.provider(region)));
    await this.store.obsoleteAll(this.provider(region), region);
    this.announce.push(undefined);
    await this.collectAfter(credit, 'wal.obsoleteAll', { region: formatRegionId(region) });
    return preview;
  }

  /** One garbage-collection pass for `credit`'s call, audited under it. */
  async gc(credit?: CallCredit): Promise<GcReport> {
    const call = credit ?? processCredit('wal.gc', { prefix: this.prefix });
    const report = presentGcReport(await this.store.gc());
    await writeAfter(call, async () => {
      await this.listeners.onCollected(report, causeOf(call));
    });
    return report;
  }

  /**
   * The collection after watermark raises, for the call that made them; its audit entry is
   * written after the call's. A pass that fails before deleting (fenced, stopped, a listing
   * error) is left to the next one: the raise stands and nothing was deleted.
   */
  async collectAfter(
    credit: CallCredit | undefined,
    /** What the call was, when it came without the router's credit (tests, in-process). */
    action: string,
    parameters: Record<string, unknown>,
  ): Promise<void> {
    const call = credit ?? processCredit(action, parameters);
    let report: GcReport;
    try {
      report = presentGcReport(await this.store.gc());
    } catch {
      return;
    }
    await writeAfter(call, async () => {
      await this.listeners.onCollected(report, causeOf(call));
    });
  }

  /** A pass the app starts by itself: requests another process wrote were applied here. */
  private async collectForRequests(applied: AppliedRequests): Promise<void> {
    const cause: DeletionCause = {
      kind: 'app',
      app: {
        why: 'watermark requests applied by this writer',
        parameters: {
          requests: applied.settled.map((request) => request.id),
          requestedBy: [...new Set(applied.settled.map((request) => request.requestedBy))],
          regions: [...applied.raised.keys()].map((region) => formatRegionId(region)),
        },
      },
    };
    this.announce.push(undefined);
    const run = this.reported.then(async () => {
      const report = presentGcReport(await this.store.gc());
      await this.listeners.onCollected(report, cause);
    });
    this.reported = run.catch(() => undefined);
    await this.reported;
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

  /** Stops the load and the store (and the app's own passes); idempotent. */
  close(): Promise<StopReport> {
    this.closing ??= (async () => {
      await this.stopLoad();
      const report = await this.store.stop();
      await this.reported; // the app's own passes are reported too
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

/** A call made inside the process without the router (tests): credited to the process. */
function processCredit(action: string, parameters: Record<string, unknown>): CallCredit {
  const credit = new CallCredit(action, 'process', null, parameters);
  credit.markAudited();
  return credit;
}

function causeOf(credit: CallCredit): DeletionCause {
  return { kind: 'call', call: credit.cause() };
}
