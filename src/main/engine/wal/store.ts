/**
 * `ObjectStoreLogStore`, the WAL's public face (wal.md; the seed's LogStore): every method
 * checks the provider (`WrongProvider`) and the store's state (poisoned: the terminal error
 * verbatim; stopped: `Stopped`) and hands the work to the one writer actor or the reader.
 * Owns no write state of its own; never touches storage except through them.
 */
import type { ObjectIo } from '../objectio/object-io';
import {
  WriterActor,
  type StopReport,
  type WriterActorOptions,
  type WriterStateSnapshot,
} from './actor';
import { withoutRegion, withRegion } from './actor/control-changes';
import type { ObjectStoreWalConfigInput } from './config';
import { makeEntry, type AppendResult, type WalEntry } from './entry';
import { WriterCollector, type GcReport } from './gc';
import { checkObsoleteId, type EntryId } from './ids';
import {
  createWalMetrics,
  renderPrometheus,
  snapshotWalMetrics,
  type WalMetricsSnapshot,
} from './metrics';
import { openWriter, type OpenOptions } from './open';
import { regionOfProvider, type Provider, type RegionId } from './provider';
import { readRegion, readRegionBatches, type ReaderContext, type ReadOptions } from './reader';
import type { WriterSession } from './session';
import { DEFAULT_REQUEST_POLL_MS, RequestWatch } from './watermark-requests/request-watch';
import type { AppliedRequests } from './watermark-requests/writer-apply';

export type { StopReport, WriterStateSnapshot } from './actor';
export type { GcReport } from './gc';

export interface StoreOptions
  extends WriterActorOptions, Omit<OpenOptions, 'maintenance' | 'metrics'> {
  /** Run a garbage-collection pass in the background after each `obsolete` (control.md point 5). Default true. */
  readonly gcAfterObsolete?: boolean;
  /** How often an idle writer reads the register for watermark requests; 0: only at fence
   * reads and lost races. Default 5 s. */
  readonly requestPollMs?: number;
}

export interface ObsoleteOptions {
  /** Cancels the call if it fires before the command is queued; once queued, it applies. */
  readonly signal?: AbortSignal;
}

export class ObjectStoreLogStore {
  readonly prefix: string;
  private readonly actor: WriterActor;
  private readonly reader: ReaderContext;
  private readonly collector: WriterCollector;
  private readonly gcAfterObsolete: boolean;
  private readonly requests: RequestWatch;
  private readonly requestListeners = new Set<(applied: AppliedRequests) => void>();

  private constructor(
    private readonly session: WriterSession,
    options: StoreOptions,
  ) {
    this.prefix = session.prefix;
    this.actor = new WriterActor(session, options);
    this.gcAfterObsolete = options.gcAfterObsolete ?? true;
    this.collector = new WriterCollector({
      io: session.io,
      prefix: session.prefix,
      metrics: this.actor.metrics,
      snapshot: () => ({
        chain: session.catalog.objects(),
        control: session.register.current().control,
      }),
      raiseBoundary: (decide) => this.actor.raiseBoundary(decide),
    });
    this.requests = new RequestWatch({
      register: session.register,
      apply: (report) => this.actor.applyWatermarkRequests(report),
      onApplied: (applied) => this.onRequestsApplied(applied),
      pollMs: options.requestPollMs ?? DEFAULT_REQUEST_POLL_MS,
    });
    this.reader = {
      io: session.io,
      catalog: session.catalog,
      onCorruptedSegment: session.config.onCorruptedSegment,
      metrics: this.actor.metrics,
      headersChecked: new Set(),
    };
  }

  /** Opens the prefix as its writer (control.md point 1) and starts the actor. */
  static async open(
    io: ObjectIo,
    configInput: ObjectStoreWalConfigInput,
    options: StoreOptions = {},
  ): Promise<ObjectStoreLogStore> {
    const metrics = options.metrics ?? createWalMetrics();
    const session = await openWriter(io, configInput, { ...options, maintenance: false, metrics });
    return new ObjectStoreLogStore(session, { ...options, metrics });
  }

  /** A store over a session already opened (tests, and callers that open themselves). */
  static fromSession(session: WriterSession, options: StoreOptions = {}): ObjectStoreLogStore {
    return new ObjectStoreLogStore(session, options);
  }

  get epoch(): bigint {
    return this.session.epoch;
  }

  get writerId(): string {
    return this.session.writerId;
  }

  /**
   * Not `async`: the actor's own promise is handed back as is, sparing every append a wrapping
   * promise and its extra microtask turns; a synchronous failure still arrives as a rejection.
   */
  appendBatch(entries: readonly WalEntry[]): Promise<AppendResult> {
    try {
      this.actor.checkUsable();
      for (const entry of entries) regionOfProvider(this.prefix, entry.provider, entry.regionId);
      return this.actor.append(entries);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  entry(data: Uint8Array, id: EntryId, region: RegionId, provider: Provider): WalEntry {
    this.actor.checkUsable();
    return makeEntry(this.prefix, data, id, region, provider);
  }

  /** The region's entries with id >= fromId, in order, obsolete ids hidden. */
  read(provider: Provider, fromId: EntryId, options?: ReadOptions): AsyncIterable<WalEntry> {
    this.actor.checkUsable();
    regionOfProvider(this.prefix, provider);
    return readRegion(this.reader, provider, fromId, options);
  }

  /** The same entries as `read`, one batch per segment (replay: one async step per segment). */
  readBatches(provider: Provider, fromId: EntryId): AsyncIterable<readonly WalEntry[]> {
    this.actor.checkUsable();
    regionOfProvider(this.prefix, provider);
    return readRegionBatches(this.reader, provider, fromId);
  }

  async obsolete(
    provider: Provider,
    region: RegionId,
    id: EntryId,
    options: ObsoleteOptions = {},
  ): Promise<void> {
    this.actor.checkUsable();
    regionOfProvider(this.prefix, provider, region);
    checkObsoleteId(id);
    options.signal?.throwIfAborted();
    return this.actor.obsolete(region, id).then(() => this.collectAfterObsolete());
  }

  /** The watermark becomes the region's latest durable id (never a sentinel). */
  async obsoleteAll(provider: Provider, region: RegionId): Promise<void> {
    this.actor.checkUsable();
    regionOfProvider(this.prefix, provider, region);
    return this.actor.obsolete(region, 'latest').then(() => this.collectAfterObsolete());
  }

  /**
   * One garbage-collection pass (control.md point 5): CAS the boundary (Fenced if this writer
   * lost the epoch: nothing is deleted), then delete every object below it, ascending.
   */
  async gc(): Promise<GcReport> {
    this.actor.checkUsable();
    return this.collector.collect();
  }

  /** Exactly the objects and bytes a pass now would delete; writes nothing. */
  async gcDryRun(): Promise<GcReport> {
    this.actor.checkUsable();
    return this.collector.dryRun();
  }

  /** Resolves once no collection (e.g. the one after an obsolete) is running or queued. */
  async collectionsSettled(): Promise<void> {
    await this.collector.idle();
  }

  /** Told about every completed pass (the console's event). */
  onCollection(listener: (report: GcReport) => void): () => void {
    return this.collector.onCollection(listener);
  }

  async waitDurable(provider: Provider, id: EntryId): Promise<void> {
    this.actor.checkUsable();
    return this.actor.waitDurable(regionOfProvider(this.prefix, provider), id);
  }

  /** The larger of the region's largest durable, indexed id and its persisted watermark (0 if none). */
  latestEntryId(provider: Provider): EntryId {
    this.actor.checkUsable();
    return this.actor.durableEntryId(regionOfProvider(this.prefix, provider));
  }

  /** The seed's internal name for `latestEntryId`. */
  durableEntryId(provider: Provider): EntryId {
    return this.latestEntryId(provider);
  }

  /** enqueued: the largest id handed out (the console shows it beside the durable id). */
  handedOutEntryId(provider: Provider): EntryId {
    this.actor.checkUsable();
    return this.actor.handedOutEntryId(regionOfProvider(this.prefix, provider));
  }

  async createNamespace(provider: Provider): Promise<void> {
    this.actor.checkUsable();
    const region = regionOfProvider(this.prefix, provider);
    return this.actor.changeControl((control) =>
      withRegion(control, region, { createdAtMs: Date.now() }),
    );
  }

  /** `obsoleteAll`, then the region leaves the table (its persisted watermark stays). */
  async deleteNamespace(provider: Provider): Promise<void> {
    this.actor.checkUsable();
    const region = regionOfProvider(this.prefix, provider);
    await this.actor.obsolete(region, 'latest');
    await this.actor.changeControl((control) => withoutRegion(control, region));
  }

  /** The region table plus the regions of the catalog. */
  async listNamespaces(): Promise<Provider[]> {
    this.actor.checkUsable();
    const regions = new Set<RegionId>(this.session.register.current().control.regions.keys());
    // Regions that hold indexed entries; a region known only by its watermark (deleted) is not.
    for (const summary of this.session.catalog.regions()) {
      if (this.session.catalog.indexedEntryId(summary.regionId) > 0n) regions.add(summary.regionId);
    }
    return [...regions]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((regionId) => ({ prefix: this.prefix, regionId }));
  }

  /** Idempotent; see wal.md for both modes. Resolves with what was sealed and what was lost. */
  async stop(): Promise<StopReport> {
    this.requests.dispose();
    const report = await this.actor.stop();
    await this.collector.idle(); // A pass past its CAS finishes its deletes before stop returns.
    return report;
  }

  state(): WriterStateSnapshot {
    return this.actor.state();
  }

  onStateChange(listener: (state: WriterStateSnapshot) => void): () => void {
    return this.actor.onStateChange(listener);
  }

  /**
   * Told about every apply of watermark requests whose CAS passed (the console audits it; the
   * listener runs before the collection it starts is requested).
   */
  onWatermarkRequests(listener: (applied: AppliedRequests) => void): () => void {
    this.requestListeners.add(listener);
    return () => this.requestListeners.delete(listener);
  }

  private onRequestsApplied(applied: AppliedRequests): void {
    for (const listener of this.requestListeners) listener(applied);
    if (applied.raised.size > 0) this.collectAfterObsolete();
  }

  private collectAfterObsolete(): void {
    if (this.gcAfterObsolete) this.collector.requestAfterObsolete();
  }

  metrics(): WalMetricsSnapshot {
    return snapshotWalMetrics(this.actor.metrics);
  }

  prometheus(labels: Readonly<Record<string, string>> = {}): string {
    return renderPrometheus(this.actor.metrics, { prefix: this.prefix, ...labels });
  }
}
