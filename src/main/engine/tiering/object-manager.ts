/**
 * ObjectRemoteLogMetadataManager: the analogue of Kafka's topic-based manager on an object
 * store. Each topic-partition's metadata is one CasCell at `<root>/tiering/<topicId>-<partition>`
 * holding the encoded PartitionMetadataState; every event is a CAS from the version this
 * manager has applied, re-validated against the newer state on Conflict. Any number of
 * managers (brokers, consoles, processes) share one bucket.
 *
 * Owns the per-partition cache and the take-on lifecycle. Never holds two operations of one
 * partition in flight (the cell's rule), never writes a state that failed validation, and
 * never deletes a cell. It prunes a cell's old versions only right after its own successful
 * write of a version that is a multiple of 64 (so at most once per 64 writes, whichever
 * manager wrote it): ascending, never the newest 16 (the cell's rule). Any manager may, as
 * every version is a whole state: readers restart on a vanished version, and an updater whose
 * base was pruned meets `Conflict` and re-reads, as on any lost race.
 *
 * When the cache is refreshed from the cell: at take-on (the first load), on every `caughtUp`
 * (the read that learns the committed version carries that version's state, so catching up
 * costs nothing more), and when a publish meets a newer version (Conflict, or an event that
 * fails against a cache that may be stale). Queries answer from the cache without I/O, as
 * Kafka's consumer-fed cache does: a caller that needs its peers' writes asks `caughtUp` first.
 */
import { CasCell } from '../cas/cas-cell';
import { CellExistsError, ConflictError } from '../cas/errors';
import { isCairnError } from '../errors';
import { isStorageError } from '../objectio/errors';
import type { ObjectIo } from '../objectio/object-io';
import { InvalidMetadataError, NotReadyError, TieringIoError } from './errors';
import { decodePartitionState, encodePartitionState } from './partition-codec';
import { PartitionMetadataState } from './partition-state';
import { compareStoredPartitions, type StoredPartition } from './remote-log-metadata-manager';
import { StateBackedManager } from './state-backed-manager';
import { partitionKey, partitionOf, type TieringEvent, type TopicIdPartition } from './types';

export interface ObjectRemoteLogMetadataManagerOptions {
  /** Recorded in every cell version this manager writes; default: random per cell. */
  readonly writerId?: string;
  /** Prune after writing a multiple of this version (default 64; tests prune more often). */
  readonly pruneEveryVersions?: number;
}

/** A manager that wrote a multiple of this version prunes the cell (tiering.md). */
export const PRUNE_EVERY_VERSIONS = 64;

/** Each lost race means another event committed; this bounds a pathological storm. */
const MAX_PUBLISH_ATTEMPTS = 64;
const CELL_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d+)\/$/;

/** The state at the cell version it was read from (version 0: the cell does not exist yet). */
interface AppliedState {
  readonly version: number;
  readonly state: PartitionMetadataState;
}

/** A partition taken on; replaced (not mutated back) when it is released and taken on again. */
interface HeldPartition {
  phase: 'loading' | 'ready' | 'load-failed';
}

/** The codes of the events' own verdicts: worth re-checking against a fresher state. */
const VERDICT_CODES: ReadonlySet<string> = new Set([
  'InvalidAdd',
  'SegmentNotFound',
  'InvalidSegmentTransition',
  'InvalidPartitionDeleteTransition',
]);

export class ObjectRemoteLogMetadataManager extends StateBackedManager {
  private readonly tieringPrefix: string;
  private readonly cells = new Map<string, CasCell>();
  private readonly applied = new Map<string, AppliedState>();
  private readonly held = new Map<string, HeldPartition>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly io: ObjectIo,
    root: string,
    private readonly options: ObjectRemoteLogMetadataManagerOptions = {},
  ) {
    super();
    const trimmed = root.replace(/\/+$/, '');
    this.tieringPrefix = trimmed === '' ? 'tiering/' : `${trimmed}/tiering/`;
  }

  /** The cell prefix of a partition: `<root>/tiering/<topicId>-<partition>`. */
  cellNameOf(tp: Pick<TopicIdPartition, 'topicId' | 'partition'>): string {
    return `${this.tieringPrefix}${partitionKey(tp)}`;
  }

  /** The cell version this manager has applied for `tp` (0: none), for tests and the console. */
  appliedVersion(tp: TopicIdPartition): number {
    return this.applied.get(partitionKey(tp))?.version ?? 0;
  }

  // ----- publishing -----

  protected publish(event: TieringEvent): Promise<void> {
    const tp = partitionOf(event);
    return this.serially(tp, () => this.publishNow(tp, event));
  }

  private async publishNow(tp: TopicIdPartition, event: TieringEvent): Promise<void> {
    const cached = this.applied.get(partitionKey(tp));
    let base = cached ?? (await this.refresh(tp, 'read'));
    let fresh = cached === undefined;
    for (let attempt = 0; attempt < MAX_PUBLISH_ATTEMPTS; attempt++) {
      let next: PartitionMetadataState;
      try {
        next = base.state.apply(event);
      } catch (error) {
        // A verdict against a cache that may be stale is not final: a peer may have added the
        // segment (or moved it) already. Judge once more against the cell's newest version.
        if (fresh || !isVerdict(error)) throw error;
        base = await this.refresh(tp, 'read');
        fresh = true;
        continue;
      }
      if (next === base.state) return; // already applied: a retry after a lost response
      const written = await this.tryWrite(tp, base, next);
      if (written) return;
      base = await this.refresh(tp, 'read');
      fresh = true;
    }
    throw new TieringIoError(
      tp,
      'publish',
      `lost ${MAX_PUBLISH_ATTEMPTS} compare-and-swap races in a row`,
    );
  }

  /** CAS `next` on top of `base`; false when another writer got there first. */
  private async tryWrite(
    tp: TopicIdPartition,
    base: AppliedState,
    next: PartitionMetadataState,
  ): Promise<boolean> {
    const cell = this.cellOf(tp);
    const fields = encodePartitionState(next);
    try {
      const snapshot =
        base.version === 0 ? await cell.create(fields) : await cell.update(base.version, fields);
      this.adopt(tp, { version: snapshot.version, state: next });
      const every = Math.max(1, this.options.pruneEveryVersions ?? PRUNE_EVERY_VERSIONS);
      if (snapshot.version % every === 0) {
        // Housekeeping: a failed prune leaves versions for the next one, never fails the event.
        await cell.prune().catch(() => 0);
      }
      return true;
    } catch (error) {
      if (error instanceof ConflictError || error instanceof CellExistsError) return false;
      throw ioError(tp, 'write', error);
    }
  }

  // ----- take-on, catching up and queries -----

  protected async takeOn(tps: readonly TopicIdPartition[]): Promise<void> {
    const fresh = tps.filter((tp) => !this.held.has(partitionKey(tp)));
    // Mark every partition loading before the first await, so queries see NotReady at once.
    const loads = fresh.map((tp) => {
      const entry: HeldPartition = { phase: 'loading' };
      this.held.set(partitionKey(tp), entry);
      return this.serially(tp, () => this.firstLoad(tp, entry));
    });
    const outcomes = await Promise.allSettled(loads);
    const failure = outcomes.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failure !== undefined) throw failure.reason;
  }

  private async firstLoad(tp: TopicIdPartition, entry: HeldPartition): Promise<void> {
    try {
      await this.refresh(tp, 'load');
      entry.phase = 'ready';
    } catch (error) {
      entry.phase = 'load-failed';
      throw error;
    }
  }

  protected async release(tps: readonly TopicIdPartition[]): Promise<void> {
    for (const tp of tps) {
      const key = partitionKey(tp);
      this.held.delete(key);
      this.applied.delete(key);
    }
  }

  protected isCaughtUp(tp: TopicIdPartition): Promise<boolean> {
    const entry = this.held.get(partitionKey(tp));
    if (entry === undefined) return Promise.resolve(false);
    if (entry.phase === 'loading') return Promise.reject(new NotReadyError(tp, 'loading'));
    return this.serially(tp, async () => {
      // The read starts after the call began, so it sees at least what was committed then.
      const latest = await this.refresh(tp, 'read the committed position of');
      if (this.held.get(partitionKey(tp)) === entry) entry.phase = 'ready';
      return this.appliedVersion(tp) >= latest.version;
    });
  }

  protected readableState(tp: TopicIdPartition): PartitionMetadataState {
    const entry = this.held.get(partitionKey(tp));
    if (entry === undefined) throw new NotReadyError(tp, 'not-assigned');
    if (entry.phase !== 'ready') throw new NotReadyError(tp, entry.phase);
    return this.applied.get(partitionKey(tp))?.state ?? PartitionMetadataState.empty(tp);
  }

  async listPartitions(): Promise<StoredPartition[]> {
    const found: StoredPartition[] = [];
    try {
      for await (const page of this.io.list(this.tieringPrefix, { delimiter: '/' })) {
        for (const prefix of page.commonPrefixes) {
          const stored = storedPartitionOf(prefix.slice(this.tieringPrefix.length));
          if (stored !== null) found.push(stored);
        }
      }
    } catch (error) {
      if (!isStorageError(error)) throw error;
      throw new TieringIoError(null, 'list', describe(error), { cause: error });
    }
    return found.sort(compareStoredPartitions);
  }

  // ----- the cache -----

  /** Read the cell's newest version and adopt it if it is ahead of the cache; returns it. */
  private async refresh(tp: TopicIdPartition, operation: string): Promise<AppliedState> {
    let latest: AppliedState;
    try {
      const snapshot = await this.cellOf(tp).read();
      latest =
        snapshot === null
          ? { version: 0, state: PartitionMetadataState.empty(tp) }
          : { version: snapshot.version, state: decodePartitionState(snapshot.fields) };
    } catch (error) {
      throw ioError(tp, operation, error);
    }
    return this.adopt(tp, latest);
  }

  /** Keep the newer of the cached and the given state (versions only move forward). */
  private adopt(tp: TopicIdPartition, candidate: AppliedState): AppliedState {
    const key = partitionKey(tp);
    const cached = this.applied.get(key);
    if (cached !== undefined && cached.version >= candidate.version) return cached;
    this.applied.set(key, candidate);
    return candidate;
  }

  private cellOf(tp: TopicIdPartition): CasCell {
    const key = partitionKey(tp);
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = new CasCell(this.io, this.cellNameOf(tp), { writerId: this.options.writerId });
      this.cells.set(key, cell);
    }
    return cell;
  }

  /** One operation per partition at a time, in call order (the cell's one-in-flight rule). */
  private serially<T>(tp: TopicIdPartition, operation: () => Promise<T>): Promise<T> {
    const key = partitionKey(tp);
    const run = (this.queues.get(key) ?? Promise.resolve()).then(operation, operation);
    const settled = run.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return run;
  }
}

function isVerdict(error: unknown): boolean {
  return isCairnError(error) && VERDICT_CODES.has(error.code);
}

/**
 * Storage failures, and a cell this format cannot read, become Io naming the partition;
 * anything else is a bug and passes through untouched.
 */
function ioError(tp: TopicIdPartition, operation: string, error: unknown): unknown {
  if (isStorageError(error) || error instanceof InvalidMetadataError) {
    return new TieringIoError(tp, operation, describe(error), { cause: error });
  }
  return error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `<topicId>-<partition>/` -> its partition; null for folders that are not partition cells. */
function storedPartitionOf(folder: string): StoredPartition | null {
  const match = CELL_NAME.exec(folder);
  if (match === null || match[1] === undefined || match[2] === undefined) return null;
  const partition = Number(match[2]);
  return Number.isSafeInteger(partition) ? { topicId: match[1], partition } : null;
}
