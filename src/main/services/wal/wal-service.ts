/**
 * The WAL in the app: per connection, the prefixes under its WAL root and read-only views of
 * each, the writers opened in the app (at most one per prefix), replay jobs and load runs;
 * every live change leaves as an event. Everything that changes storage is reached only
 * through 'operate' procedures (the router enforces operator mode and audits them); this
 * service never checks access itself, and never takes an epoch without the live-writer check.
 */
import type {
  DecodedObjectView,
  FleetView,
  GcReport,
  InspectView,
  ManifestView,
  ObsoletePreview,
  RegionsView,
  ReplayProgress,
  WalListedPrefix,
  WriterView,
} from '../../../shared/contract/wal';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { verifyGtObject } from '../../engine/greptimedb/verify';
import { formatOfObject } from '../../engine/wal-read/format';
import { dryRunFromRegister } from '../../engine/wal/gc';
import { readOnlyTarget } from '../../engine/wal/read-only-log';
import type { ObjectPage, ObjectStatusFilter } from './object-page';
import { PrefixViews } from './prefix-views';
import { replaySourceOf } from './replay-source';
import { verifyObject, type ObjectVerdict } from '../../engine/wal/verify';
import type { ConnectionUser } from '../connections/connection-users';
import type { EventBus } from '../event-bus';
import { AppWriter } from './app-writer';
import { PrefixListings } from './prefix-listings';
import { publishWriterState, writerEventsOf } from './writer-events';
import { WriterAlreadyOpenError, WriterNotOpenError } from './errors';
import { checkNoLiveWriter } from './live-writer';
import type { LoadSpec } from './load-generator';
import { previewObsolete } from './obsolete-preview';
import { ReplayJobs } from './replay-jobs';
import { presentGcReport } from './wal-presenters';
import { manifestOf } from './wal-reads';
import type { PrefixSnapshot } from './read-model/prefix-model';
import { ReadModels } from './read-model/read-models';
import { readOnlyLogOfSnapshot } from './read-model/snapshot-views';
import { describeObject, type SegmentPage } from './object-parts';
import {
  cairnOnly,
  checkObjectKey,
  checkWritable,
  locatePrefix,
  slotParts,
  type Located,
} from './wal-locate';

/** What the service needs of ConnectionsService. */
export interface ConnectionStorage {
  io(connectionId: string): Promise<{ io: ObjectIo; root: string }>;
  /** Throws once the connection's removal has passed its checks (see `holdOn`). */
  assertPresent(connectionId: string): void;
}

export interface OpenWriterOptions {
  readonly takeOver: boolean;
  readonly ackMode: 'durable' | 'enqueued';
  readonly flushIntervalMs: number;
}

export interface ReplayRequest {
  readonly region: bigint;
  readonly fromId: bigint;
  readonly chunkSize: number;
  readonly ratePerSecond?: number;
  readonly maxEntries?: number;
}

/**
 * Views refresh their prefix's model on every call (a refresh of an unchanged prefix is a few
 * requests); calls that arrive while one is in flight share it.
 */
const VIEW_MAX_AGE_MS = 0;

export class WalService implements ConnectionUser {
  private readonly writers = new Map<string, AppWriter>();
  /** Opens in progress, so two calls never open two writers on one prefix. */
  private readonly opening = new Set<string>();
  private readonly replays = new ReplayJobs();
  private readonly models: ReadModels;
  private readonly listings: PrefixListings;
  private readonly views = new PrefixViews({
    writer: (at) => this.writers.get(at.slot),
    snapshot: (at) => this.snapshotOf(at, true),
  });

  constructor(
    private readonly connections: ConnectionStorage,
    private readonly events: EventBus,
    models = new ReadModels(),
  ) {
    this.models = models;
    this.listings = new PrefixListings({
      io: (id) => this.connections.io(id),
      locate: (id, prefix) => this.locate(id, prefix),
      models,
      held: (slot) => this.writers.has(slot),
    });
  }

  /** Cairn's prefixes under the WAL root and GreptimeDB's anywhere under the connection root. */
  prefixes(connectionId: string): Promise<WalListedPrefix[]> {
    return this.listings.prefixes(connectionId);
  }

  /** The fleet overview's rows changed since `since`; a pass starts when one is due. */
  fleet(connectionId: string, since: number, refreshMs: number): Promise<FleetView> {
    return this.listings.fleet(connectionId, since, refreshMs);
  }

  /** The Overview was left: its pass stops starting reads. */
  stopFleet(connectionId: string): { stopped: boolean } {
    return this.listings.stopFleet(connectionId);
  }

  async inspect(connectionId: string, prefix: string): Promise<InspectView> {
    return this.views.inspect(await this.locate(connectionId, prefix));
  }

  async objects(
    connectionId: string,
    prefix: string,
    status: ObjectStatusFilter,
    offset: number,
    limit: number,
  ): Promise<ObjectPage> {
    return this.views.objects(await this.locate(connectionId, prefix), status, offset, limit);
  }

  async regions(
    connectionId: string,
    prefix: string,
    offset: number,
    limit: number,
  ): Promise<RegionsView> {
    return this.views.regions(await this.locate(connectionId, prefix), offset, limit);
  }

  async manifest(connectionId: string, prefix: string, limit: number): Promise<ManifestView> {
    const at = cairnOnly(await this.locate(connectionId, prefix));
    return manifestOf(at.io, at.prefix, limit);
  }

  async verifyObject(connectionId: string, key: string): Promise<ObjectVerdict> {
    const { io, root } = await this.connections.io(connectionId);
    checkObjectKey(root, key);
    return (await formatOfObject(io, key)) === 'greptimedb-v1'
      ? verifyGtObject(io, key)
      : verifyObject(io, key);
  }

  async decodeObject(
    connectionId: string,
    key: string,
    segments: SegmentPage,
  ): Promise<DecodedObjectView> {
    const { io, root } = await this.connections.io(connectionId);
    checkObjectKey(root, key);
    return describeObject(io, key, segments);
  }

  async metrics(
    connectionId: string,
    prefix: string,
  ): Promise<{ prometheus: string; snapshot: Record<string, unknown> }> {
    const writer = await this.writerOf(connectionId, prefix, 'wal.metrics');
    return {
      prometheus: writer.store.prometheus({ connection: connectionId }),
      snapshot: { ...writer.store.metrics() },
    };
  }

  // ----- writers -----

  async openWriter(
    connectionId: string,
    prefix: string,
    options: OpenWriterOptions,
  ): Promise<WriterView> {
    const at = cairnOnly(await this.locate(connectionId, prefix));
    // With `opening.add` in one turn: a removal either sees this open in `holdOn` or fails it.
    this.connections.assertPresent(connectionId);
    if (this.writers.has(at.slot) || this.opening.has(at.slot))
      throw new WriterAlreadyOpenError(at.prefix);
    this.opening.add(at.slot);
    try {
      await checkWritable(at);
      await checkNoLiveWriter(at.io, at.prefix, options.takeOver);
      const config = {
        ...at.config,
        ackMode: options.ackMode,
        flushIntervalMs: options.flushIntervalMs,
      };
      const writer = await AppWriter.open(
        at.io,
        config,
        writerEventsOf(this.events, connectionId, at.prefix),
      );
      this.writers.set(at.slot, writer);
      this.listings.expire(connectionId);
      const view = writer.view();
      publishWriterState(this.events, connectionId, at.prefix, view);
      return view;
    } finally {
      this.opening.delete(at.slot);
    }
  }

  async closeWriter(
    connectionId: string,
    prefix: string,
  ): Promise<{ sealed: boolean; lastSeq: bigint | null; lost: number }> {
    const writer = await this.writerOf(connectionId, prefix, 'wal.writer.close');
    const at = await this.locate(connectionId, prefix);
    const report = await writer.close();
    this.writers.delete(at.slot);
    this.listings.expire(connectionId);
    publishWriterState(this.events, connectionId, at.prefix, null);
    return { sealed: report.sealed, lastSeq: report.lastSeq, lost: report.lost?.count ?? 0 };
  }

  async writerState(connectionId: string, prefix: string): Promise<WriterView | null> {
    const at = await this.locate(connectionId, prefix);
    return this.writers.get(at.slot)?.view() ?? null;
  }

  async startLoad(
    connectionId: string,
    prefix: string,
    spec: LoadSpec,
  ): Promise<{ running: boolean }> {
    (await this.writerOf(connectionId, prefix, 'wal.load.start')).startLoad(spec);
    return { running: true };
  }

  async stopLoad(
    connectionId: string,
    prefix: string,
  ): Promise<{ acknowledged: number; failed: number }> {
    return (await this.writerOf(connectionId, prefix, 'wal.load.stop')).stopLoad();
  }

  // ----- watermarks and the region table -----

  async previewObsolete(
    connectionId: string,
    prefix: string,
    region: bigint,
    id: bigint,
  ): Promise<ObsoletePreview> {
    const at = cairnOnly(await this.locate(connectionId, prefix));
    const writer = this.writers.get(at.slot);
    if (writer) return writer.previewObsolete(region, id);
    const log = await readOnlyLogOfSnapshot(at.io, await this.snapshotOf(at));
    return previewObsolete(log.catalog, region, id);
  }

  async obsolete(
    connectionId: string,
    prefix: string,
    region: bigint,
    id: bigint,
  ): Promise<ObsoletePreview> {
    return (await this.writerOf(connectionId, prefix, 'wal.obsolete')).obsolete(region, id);
  }

  async obsoleteAll(
    connectionId: string,
    prefix: string,
    region: bigint,
  ): Promise<ObsoletePreview> {
    return (await this.writerOf(connectionId, prefix, 'wal.obsoleteAll')).obsoleteAll(region);
  }

  // ----- garbage collection (control.md point 5) -----

  /** Exactly what a pass would delete now; on a prefix not opened here, judged read-only. */
  async gcPreview(connectionId: string, prefix: string): Promise<GcReport> {
    const at = cairnOnly(await this.locate(connectionId, prefix));
    const writer = this.writers.get(at.slot);
    if (writer) return presentGcReport(await writer.store.gcDryRun());
    const { reread } = readOnlyTarget(at.io, at.config);
    return presentGcReport(await dryRunFromRegister(at.io, at.prefix, await reread(), reread));
  }

  /** One pass, only by the epoch holder: the writer opened in the app. */
  async gc(connectionId: string, prefix: string): Promise<GcReport> {
    const writer = await this.writerOf(connectionId, prefix, 'wal.gc');
    return presentGcReport(await writer.store.gc());
  }

  async createNamespace(
    connectionId: string,
    prefix: string,
    region: bigint,
  ): Promise<{ regionId: bigint }> {
    const writer = await this.writerOf(connectionId, prefix, 'wal.namespaces.create');
    await writer.store.createNamespace(writer.provider(region));
    return { regionId: region };
  }

  async deleteNamespace(
    connectionId: string,
    prefix: string,
    region: bigint,
  ): Promise<{ regionId: bigint }> {
    const writer = await this.writerOf(connectionId, prefix, 'wal.namespaces.delete');
    await writer.store.deleteNamespace(writer.provider(region));
    return { regionId: region };
  }

  // ----- replay -----

  /** Streams from the writer of this app when it holds the prefix, else from a read-only open. */
  async startReplay(
    connectionId: string,
    prefix: string,
    request: ReplayRequest,
  ): Promise<ReplayProgress> {
    const at = await this.locate(connectionId, prefix);
    const { source, latestId } = await replaySourceOf(
      at.prefix,
      this.writers.get(at.slot),
      async () => readOnlyLogOfSnapshot(at.io, await this.snapshotOf(at)),
      request.region,
      request.fromId,
    );
    const job = this.replays.start(
      connectionId,
      source,
      {
        chunkSize: request.chunkSize,
        ratePerSecond: request.ratePerSecond,
        maxEntries: request.maxEntries,
        latestId,
      },
      {
        chunk: (entries, progress) =>
          this.events.publish({
            type: 'wal.replay.chunk',
            jobId: progress.jobId,
            entries,
            progress,
          }),
        done: (progress) =>
          this.events.publish({ type: 'wal.replay.done', jobId: progress.jobId, progress }),
      },
    );
    return job.progress();
  }

  pauseReplay(jobId: string): ReplayProgress {
    return this.replays.get(jobId).pause();
  }

  resumeReplay(jobId: string): ReplayProgress {
    return this.replays.get(jobId).resume();
  }

  cancelReplay(jobId: string): ReplayProgress {
    return this.replays.get(jobId).cancel();
  }

  replayProgress(jobId: string): ReplayProgress {
    return this.replays.progress(jobId);
  }

  /** A writer open (or opening) in the app holds its connection: it holds an epoch. */
  holdOn(connectionId: string): string | null {
    for (const slot of [...this.writers.keys(), ...this.opening]) {
      const { connectionId: holder, prefix } = slotParts(slot);
      if (holder === connectionId) return `a writer is open on prefix ${prefix}: close it first`;
    }
    return null;
  }

  /** Drops a removed connection's views: read models, listings, and its replays, cancelled. */
  async release(connectionId: string): Promise<void> {
    this.models.forget(connectionId);
    await Promise.all([
      this.listings.forget(connectionId),
      this.replays.cancelOwnedBy(connectionId),
    ]);
  }

  /** Cancels every replay and stops every writer (app shutdown, tests). */
  async closeAll(): Promise<void> {
    await this.listings.closeAll();
    await this.replays.cancelAll();
    const writers = [...this.writers.values()];
    this.writers.clear();
    await Promise.all(writers.map((writer) => writer.close()));
  }

  /**
   * The prefix's read model, refreshed when older than a view may show. With `provisional`
   * (the views, never a replay or a preview), a provisional one while its first open runs.
   */
  private snapshotOf(at: Located, provisional = false): Promise<PrefixSnapshot> {
    return this.models.read(at, VIEW_MAX_AGE_MS, provisional);
  }

  private async locate(connectionId: string, prefix: string): Promise<Located> {
    const { io, root } = await this.connections.io(connectionId);
    return locatePrefix(io, root, connectionId, prefix);
  }

  private async writerOf(connectionId: string, prefix: string, action: string): Promise<AppWriter> {
    const at = cairnOnly(await this.locate(connectionId, prefix));
    const writer = this.writers.get(at.slot);
    if (writer === undefined) throw new WriterNotOpenError(at.prefix, action);
    return writer;
  }
}
