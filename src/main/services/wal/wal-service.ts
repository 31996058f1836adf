/**
 * The WAL in the app: per connection, the prefixes under its WAL root and read-only views of
 * each, the writers opened in the app (at most one per prefix), replay jobs, scrubs and load
 * runs; every live change leaves as an event, and the damage scrubs and replays found shows in
 * every view. Everything that changes storage is reached only through 'operate' procedures
 * (the router enforces operator mode and audits them), and every deletion is audited here
 * too; this service never checks access itself, and never takes an epoch without the
 * live-writer check.
 */
import type {
  DecodedObjectView,
  FleetView,
  InspectView,
  ManifestView,
  RegionsView,
  ReplayProgress,
  WalListedPrefix,
  WriterView,
} from '../../../shared/contract/wal';
import type { LocatedObject, ObjectPage, ObjectStatusFilter } from './object-page';
import { PrefixViews } from './prefix-views';
import { startReplayJob, type ReplayRequest } from './replay-start';
import type { SkippedSegment } from '../../engine/wal/reader';
import type { ObjectVerdict } from '../../engine/wal/verify';
import type { ConnectionStorage } from './connection-storage';
import { decodeObjectAt, verifyObjectAt } from './object-reads';
import type { ConnectionUser } from '../connections/connection-users';
import type { EventBus } from '../event-bus';
import { AppWriter } from './app-writer';
import { WalMaintenance } from './wal-maintenance';
import { PrefixListings } from './prefix-listings';
import { auditedWriterEventsOf, publishWriterState } from './writer-events';
import { WriterRegistry } from './writer-registry';
import { checkNoLiveWriter } from './live-writer';
import type { LoadSpec } from './load-generator';
import { CANCEL_REASONS, ReplayJobs } from './replay-jobs';
import { SearchJobs } from './search/search-jobs';
import type { SearchPlace } from './search/search-start';
import type { Caller, Session } from '../caller';
import { manifestOf } from './wal-reads';
import type { AuditSink } from './deletion-audit';
import { DamageFindings } from './scrub/damage-findings';
import type { LedgerFile } from './scrub/ledger-file';
import { catalogOfSnapshot } from './scrub/damage-views';
import { fleetRowAt, type FleetDeps } from './fleet/fleet-source';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import type { PrefixSnapshot } from './read-model/prefix-model';
import { ReadModels } from './read-model/read-models';
import { readOnlyLogOfSnapshot } from './read-model/snapshot-views';
import type { SegmentPage } from './object-parts';
import { cairnOnly, checkWritable, locatePrefix, type Located } from './wal-locate';

export interface OpenWriterOptions {
  readonly takeOver: boolean;
  readonly ackMode: 'durable' | 'enqueued';
  readonly flushIntervalMs: number;
}

/**
 * Views refresh their prefix's model on every call (a refresh of an unchanged prefix is a few
 * requests); calls that arrive while one is in flight share it.
 */
const VIEW_MAX_AGE_MS = 0;

export class WalService implements ConnectionUser {
  private readonly writers = new WriterRegistry();
  private readonly replays = new ReplayJobs();
  /** Searches of whole prefixes (search/): siblings of the replays. */
  readonly searches = new SearchJobs();
  private readonly models: ReadModels;
  private readonly listings: PrefixListings;
  /** What scrubs and replays found damaged, per connection and prefix, and the scrubs. */
  readonly findings: DamageFindings;
  private readonly views = new PrefixViews({
    writer: (at) => this.writers.get(at.slot),
    snapshot: (at) => this.snapshotOf(at, true),
    damage: (at, catalog) => this.findings.of(at, catalog),
    state: async (at, snapshot) => {
      const row = await fleetRowAt(at, this.fleetDeps, 0, snapshot);
      // A prefix opened in a view is verified first when it is not within the age.
      if (row.coverage !== null) this.findings.noteCoverage(at, row.coverage, true);
      return { health: row.health, coverage: row.coverage };
    },
  });
  private readonly fleetDeps: FleetDeps;
  /** Obsolete (direct, bulk, requested) and garbage collection on the app's prefixes. */
  readonly maintenance = new WalMaintenance({
    writers: this.writers,
    locate: (id, prefix) => this.locate(id, prefix),
    snapshotOf: (at) => this.snapshotOf(at),
    writerOf: (id, prefix, action) => this.writerOf(id, prefix, action),
  });

  constructor(
    private readonly connections: ConnectionStorage,
    private readonly events: EventBus,
    models = new ReadModels(),
    /** Where deletions are audited (the app's audit log); none in tests that do not look. */
    private readonly audit: AuditSink | null = null,
    /** Where the damage found outlives the process (the data directory's); none in most tests. */
    ledgerFile: LedgerFile | null = null,
    /** The verify age and whether the app verifies by itself what is not verified within it. */
    verifying: { verifyMaxAgeMs?: number; backgroundScrub?: boolean } = {},
  ) {
    this.models = models;
    const deps: FleetDeps = {
      io: (id) => this.connections.io(id),
      locate: (id, prefix) => this.locate(id, prefix),
      models,
      held: (slot) => this.writers.has(slot),
      damage: (at, snapshot) => this.findings.of(at, catalogOfSnapshot(snapshot)),
      coverage: (at) => this.findings.coverageOf(at),
      verifyMaxAgeMs: verifying.verifyMaxAgeMs,
      noteCoverage: (at, coverage) => this.findings.noteCoverage(at, coverage, false),
    };
    this.fleetDeps = deps;
    this.listings = new PrefixListings(deps);
    this.findings = new DamageFindings({
      fleet: deps,
      catalogOf: (at) => this.catalogOf(at),
      onPrefixScrubbed: (id, prefix) => this.listings.rereadRow(id, prefix),
      ledgerFile: ledgerFile ?? undefined,
      ...verifying,
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

  /** Where the object of `seq` stands in the list `status` filters (null: not listed there). */
  async locateObject(
    connectionId: string,
    prefix: string,
    status: ObjectStatusFilter,
    seq: bigint,
  ): Promise<LocatedObject | null> {
    return this.views.locate(await this.locate(connectionId, prefix), status, seq);
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

  verifyObject(connectionId: string, key: string): Promise<ObjectVerdict> {
    return verifyObjectAt(this.connections, connectionId, key);
  }

  decodeObject(
    connectionId: string,
    key: string,
    segments: SegmentPage,
  ): Promise<DecodedObjectView> {
    return decodeObjectAt(this.connections, connectionId, key, segments);
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
    const writer = await this.writers.open(at, async () => {
      await checkWritable(at);
      await checkNoLiveWriter(at.io, at.prefix, options.takeOver);
      const config = {
        ...at.config,
        ackMode: options.ackMode,
        flushIntervalMs: options.flushIntervalMs,
      };
      const listeners = auditedWriterEventsOf(this.events, this.audit, connectionId, at);
      return AppWriter.open(at.io, config, listeners);
    });
    this.listings.expire(connectionId);
    const view = writer.view();
    publishWriterState(this.events, connectionId, at.prefix, view);
    return view;
  }

  async closeWriter(
    connectionId: string,
    prefix: string,
  ): Promise<{ sealed: boolean; lastSeq: bigint | null; lost: number }> {
    const writer = await this.writerOf(connectionId, prefix, 'wal.writer.close');
    const at = await this.locate(connectionId, prefix);
    const report = await writer.close();
    this.writers.remove(at.slot);
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

  /** Whether the prefix holds entries of an epoch before the writer this app holds there. */
  async holdsEarlierEntries(connectionId: string, prefix: string): Promise<boolean> {
    return (await this.writerOf(connectionId, prefix, 'wal.load.offer')).holdsEarlierEntries();
  }

  async stopLoad(
    connectionId: string,
    prefix: string,
  ): Promise<{ acknowledged: number; failed: number }> {
    return (await this.writerOf(connectionId, prefix, 'wal.load.stop')).stopLoad();
  }

  // ----- watermarks and the region table -----

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

  /** Streams from the writer of this app when it holds the prefix, else from its read model. */
  async startReplay(
    connectionId: string,
    prefix: string,
    request: ReplayRequest,
    caller: Caller,
  ): Promise<ReplayProgress> {
    const at = await this.locate(connectionId, prefix);
    const place = {
      connectionId,
      at,
      writer: this.writers.get(at.slot),
      readOnlyLog: async () => readOnlyLogOfSnapshot(at.io, await this.snapshotOf(at)),
      onSkipped: (skipped: SkippedSegment) => this.findings.ledger.recordSkipped(at.slot, skipped),
    };
    return startReplayJob(this.replays, this.events, place, request, caller);
  }

  /** Where a search of the prefix reads: its read model, as a replay without a writer does. */
  async searchPlace(connectionId: string, prefix: string): Promise<SearchPlace> {
    const at = await this.locate(connectionId, prefix);
    return {
      connectionId,
      at,
      readOnlyLog: async () => readOnlyLogOfSnapshot(at.io, await this.snapshotOf(at)),
      onSkipped: (skipped: SkippedSegment) => this.findings.ledger.recordSkipped(at.slot, skipped),
    };
  }

  pauseReplay(jobId: string, session: Session): ReplayProgress {
    return this.replays.get(jobId, session).pause();
  }

  resumeReplay(jobId: string, session: Session): ReplayProgress {
    return this.replays.get(jobId, session).resume();
  }

  cancelReplay(jobId: string, session: Session): ReplayProgress {
    return this.replays.get(jobId, session).cancel(CANCEL_REASONS.asked);
  }

  replayProgress(jobId: string, session: Session): ReplayProgress {
    return this.replays.progress(jobId, session);
  }

  /** A writer open (or opening) in the app holds its connection: it holds an epoch. */
  holdOn(connectionId: string): string | null {
    const prefix = this.writers.holderOf(connectionId);
    return prefix === null ? null : `a writer is open on prefix ${prefix}: close it first`;
  }

  /** Drops a removed connection's views: read models, listings, and its replays, cancelled. */
  async release(connectionId: string): Promise<void> {
    this.models.forget(connectionId);
    await Promise.all([
      this.listings.forget(connectionId),
      this.replays.cancelOwnedBy(connectionId, CANCEL_REASONS.connectionRemoved),
      this.searches.cancelOwnedBy(connectionId, CANCEL_REASONS.connectionRemoved),
      this.findings.release(connectionId),
    ]);
  }

  /** Cancels the replays, stops the writers, waits for the files they write (shutdown, tests). */
  async closeAll(): Promise<void> {
    await this.listings.closeAll();
    await this.replays.cancelAll(CANCEL_REASONS.shutdown);
    await this.searches.cancelAll(CANCEL_REASONS.shutdown);
    await this.findings.closeAll();
    await this.writers.closeAll();
    // Last: what the closing opens and writers saved to the local index is on disk.
    await this.models.settled();
  }

  /** The catalog replays of the prefix read: the writer's here, else the read model's. */
  private async catalogOf(at: Located): Promise<ObjectCatalog | null> {
    return this.writers.get(at.slot)?.catalog ?? catalogOfSnapshot(await this.snapshotOf(at));
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
    return this.writers.require(cairnOnly(await this.locate(connectionId, prefix)), action);
  }
}
