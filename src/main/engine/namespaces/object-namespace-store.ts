/**
 * The durable namespace registry over ObjectIo (spec namespaces.md, "Durable layout"): a meta
 * CasCell `<root>/namespaces/meta` fixing the shard count and hash, and one CasCell per shard
 * `<root>/namespaces/shards/<nn>` holding its records and its owner. Every mutation reads the
 * shard, lets a pure decision say what to write, and writes it by compare-and-swap; a lost
 * swap re-reads and re-decides. It must never write a shard another node owns, never re-apply
 * a decision to a state it was not made on, and never let a raw storage error escape.
 */
import { fanOut, slotsOf } from '../objectio/link';
import { CasCell } from '../cas/cas-cell';
import type { CellFields, CellSnapshot } from '../cas/cell-snapshot';
import { CellCorruptError, CellExistsError, ConflictError } from '../cas/errors';
import { isStorageError } from '../objectio/errors';
import type { ObjectIo } from '../objectio/object-io';
import {
  compareListed,
  creatorOwner,
  decideDeprecate,
  decidePlacement,
  decidePut,
  decideRegister,
  decideTakeOwnership,
  ownsShard,
  type Decision,
} from './decisions';
import {
  InvalidShardError,
  NamespaceBackendError,
  NamespaceSerializationError,
  NotOwnerError,
  ShardContendedError,
  type NamespaceSite,
} from './errors';
import type { NamespaceCreatedListener, NamespaceStore } from './namespace-store';
import type {
  MintOutcome,
  NamespaceOrigin,
  NamespacePlacement,
  NamespaceRecord,
  ShardOwner,
} from './record';
import {
  checkShardCount,
  decodeMeta,
  decodeOwner,
  DEFAULT_SHARD_COUNT,
  encodeMeta,
  recordIn,
  recordsIn,
  withOwner,
  withRecord,
  type RegistryMeta,
} from './shard-codec';
import { shardLabel, shardOfName } from './shard-hash';
import { shardsOf, surveyShards } from './shard-survey';
import { checkName, checkOrigin, checkPlacement, checkRecord } from './validation';
import type {
  NamespaceSurvey,
  ObjectNamespaceStoreOptions,
  ShardInfo,
} from './object-store-shapes';

export type {
  NamespaceSurvey,
  ObjectNamespaceStoreOptions,
  ShardDamage,
  ShardInfo,
} from './object-store-shapes';

const DEFAULT_MAX_ATTEMPTS = 64;
const DEFAULT_PRUNE_EVERY = 64;
const MAX_BACKOFF_MS = 32;
const REGISTRY_SITE: NamespaceSite = { namespace: null, shard: null };

/** A shard read: its snapshot (null if never written) and its owner (null likewise). */
interface ShardRead {
  readonly snapshot: CellSnapshot | null;
  readonly owner: ShardOwner | null;
}

/** What a decision on a shard writes (null: nothing), answers, and whether it mints a record. */
interface ShardDecision<Answer> {
  readonly answer: Answer;
  readonly fields: CellFields | null;
  readonly minted: NamespaceRecord | null;
}

/** A mint whose create failed without a known outcome: the version it tried, and its record. */
interface UnsettledMint {
  readonly shard: number;
  readonly version: number;
  readonly record: NamespaceRecord;
  /** A read proved the version ours and the record was announced; only its `created` is owed. */
  readonly proven: boolean;
}

export class ObjectNamespaceStore implements NamespaceStore {
  readonly nodeId: number;
  private readonly io: ObjectIo;
  private readonly prefix: string;
  private readonly clock: () => number;
  private readonly newShardCount: number;
  private readonly maxAttempts: number;
  private readonly pruneEvery: number;
  private readonly onCreated: NamespaceCreatedListener | undefined;
  private readonly metaCell: CasCell;
  /** One cell per shard, so this process keeps one operation in flight per cell. */
  private readonly shardCells = new Map<number, CasCell>();
  /** Tail of each shard's queue of mutations in this store. */
  private readonly shardQueues = new Map<number, Promise<unknown>>();
  /**
   * Per name, our mint whose create failed with its outcome unknown. Per name, not per shard:
   * two names' mints on one shard may each be left unknown, and each caller's retry is owed
   * its own `created` (spec decision; a per-shard slot let the second overwrite the first).
   */
  private readonly unsettledMints = new Map<string, UnsettledMint>();
  private meta: RegistryMeta | null = null;

  constructor(options: ObjectNamespaceStoreOptions) {
    this.io = options.io;
    this.nodeId = options.nodeId ?? 0;
    this.prefix = `${options.root.replace(/\/+$/, '')}${options.root === '' ? '' : '/'}namespaces`;
    this.clock = options.clock ?? Date.now;
    this.newShardCount = checkShardCount(options.shardCount ?? DEFAULT_SHARD_COUNT);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.pruneEvery = options.pruneEvery ?? DEFAULT_PRUNE_EVERY;
    this.onCreated = options.onCreated;
    this.metaCell = new CasCell(this.io, `${this.prefix}/meta`, { writerId: this.writerId() });
  }

  // --- the six operations -----------------------------------------------------------------

  async registerNamespace(name: string, origin: NamespaceOrigin): Promise<MintOutcome> {
    const checkedName = checkName(name);
    const checkedOrigin = checkOrigin(checkedName, origin);
    return this.mint(checkedName, (current, now) =>
      decideRegister(current, checkedName, checkedOrigin, now),
    );
  }

  async putNamespace(record: NamespaceRecord): Promise<MintOutcome> {
    const checked = checkRecord(record);
    return this.mint(checked.name, (current, now) => decidePut(current, checked, now));
  }

  async listNamespaces(): Promise<NamespaceRecord[]> {
    const meta = await this.findMeta();
    if (meta === null) return [];
    // As many shard reads at once as the link's width (the connection's, when `io` is linked).
    const shards = await fanOut(shardsOf(meta), slotsOf(this.io), async (shard) => {
      const { snapshot } = await this.readShard({ namespace: null, shard });
      return snapshot === null ? [] : recordsIn(snapshot.fields, shard);
    });
    return shards.flat().sort(compareListed);
  }

  async getNamespace(name: string): Promise<NamespaceRecord | null> {
    const checkedName = checkName(name);
    const meta = await this.findMeta();
    if (meta === null) return null;
    const site = this.siteOf(checkedName, meta);
    const { snapshot } = await this.readShard(site);
    return snapshot === null ? null : recordIn(snapshot.fields, checkedName, site.shard);
  }

  async setNamespacePlacement(
    name: string,
    placement: NamespacePlacement,
  ): Promise<NamespaceRecord | null> {
    const checkedName = checkName(name);
    const checkedPlacement = checkPlacement(checkedName, placement);
    return this.amend(checkedName, (current, now) =>
      decidePlacement(current, checkedPlacement, now),
    );
  }

  async deprecateNamespace(name: string): Promise<NamespaceRecord | null> {
    const checkedName = checkName(name);
    return this.amend(checkedName, (current) => decideDeprecate(current));
  }

  // --- shards and ownership ---------------------------------------------------------------

  /** The shard a name lives in, or null while the registry has no meta cell yet. */
  async shardOf(name: string): Promise<number | null> {
    const checkedName = checkName(name);
    const meta = await this.findMeta();
    return meta === null ? null : this.siteOf(checkedName, meta).shard;
  }

  /** Every shard's owner, version, record count and damage (empty while there is no meta). */
  async describeShards(): Promise<ShardInfo[]> {
    return (await this.surveyNamespaces()).shards;
  }

  /** Every readable record and every shard, a damaged one named (see `surveyShards`). */
  async surveyNamespaces(): Promise<NamespaceSurvey> {
    const meta = await this.findMeta();
    if (meta === null) return { records: [], shards: [] };
    return surveyShards(meta.shardCount, slotsOf(this.io), {
      read: (shard) => this.readShard({ namespace: null, shard }),
      keyOf: (shard) => `${this.shardCell(shard).name}/`,
    });
  }

  /** Take `shard` for this node by a compare-and-swap raising `ownerEpoch`; the new owner. */
  async takeOwnership(shard: number): Promise<ShardOwner> {
    const meta = await this.ensureMeta();
    if (!Number.isInteger(shard) || shard < 0 || shard >= meta.shardCount) {
      throw new InvalidShardError(shard, `the registry has shards 0 to ${meta.shardCount - 1}`);
    }
    return this.swap({ namespace: null, shard }, (read) => {
      const owner = decideTakeOwnership(read.owner, this.nodeId);
      return { answer: owner, fields: withOwner(read.snapshot?.fields ?? {}, owner), minted: null };
    });
  }

  // --- the read-decide-swap loop ------------------------------------------------------------

  /** A create-if-absent operation: the registry's meta is created if this is its first use. */
  private async mint(
    name: string,
    decide: (current: NamespaceRecord | null, now: number) => Decision<MintOutcome>,
  ): Promise<MintOutcome> {
    const meta = await this.ensureMeta();
    const { answer, created } = await this.mutateRecord(this.siteOf(name, meta), decide);
    if (created !== null) this.announce(created);
    // This call retries a mint of ours whose outcome was unknown and which did apply.
    const owed = this.unsettledMints.get(name);
    if (owed === undefined || !owed.proven) return answer;
    this.unsettledMints.delete(name);
    return 'created';
  }

  /** An operation on an existing record: an empty registry is answered without writing anything. */
  private async amend(
    name: string,
    decide: (current: NamespaceRecord | null, now: number) => Decision<NamespaceRecord | null>,
  ): Promise<NamespaceRecord | null> {
    const meta = await this.findMeta();
    if (meta === null) return decide(null, this.clock()).answer;
    return (await this.mutateRecord(this.siteOf(name, meta), decide)).answer;
  }

  private async mutateRecord<Answer>(
    site: NamespaceSite & { namespace: string; shard: number },
    decide: (current: NamespaceRecord | null, now: number) => Decision<Answer>,
  ): Promise<{ answer: Answer; created: NamespaceRecord | null }> {
    return this.swap(site, (read) => {
      if (read.owner !== null && !ownsShard(read.owner, this.nodeId)) {
        throw new NotOwnerError(site, this.nodeId, read.owner.nodeId, read.owner.ownerEpoch);
      }
      const current =
        read.snapshot === null ? null : recordIn(read.snapshot.fields, site.namespace, site.shard);
      const decision = decide(current, this.clock());
      const minted = current === null ? decision.write : null;
      const answer = { answer: decision.answer, created: minted };
      if (decision.write === null) return { answer, fields: null, minted: null };
      const base = read.snapshot?.fields ?? withOwner({}, creatorOwner(this.nodeId));
      return { answer, fields: withRecord(base, decision.write), minted };
    });
  }

  /**
   * Read the shard, decide, and create its next version (its first if it has none); on a
   * lost swap, wait a moment and start again from a fresh read. `fields: null` writes nothing.
   * Mutations of one shard run one at a time in this store, so a read that settles an unknown
   * outcome is never overtaken by another write of ours (see `settleMint`).
   */
  private swap<Answer>(
    site: NamespaceSite & { shard: number },
    decide: (read: ShardRead) => ShardDecision<Answer>,
  ): Promise<Answer> {
    return this.inShardOrder(site.shard, async () => {
      const cell = this.shardCell(site.shard);
      for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
        const read = await this.readShard(site);
        const { answer, fields, minted } = decide(read);
        if (fields === null) return answer;
        try {
          const written = await this.storage(site, () =>
            read.snapshot === null
              ? cell.create(fields)
              : cell.update(read.snapshot.version, fields),
          );
          await this.pruneAfter(cell, written.version);
          return answer;
        } catch (error) {
          if (error instanceof ConflictError || error instanceof CellExistsError) {
            await backoff(attempt);
            continue;
          }
          if (minted !== null)
            this.unsettledMints.set(minted.name, {
              shard: site.shard,
              version: (read.snapshot?.version ?? 0) + 1,
              record: minted,
              proven: false,
            });
          throw error;
        }
      }
      throw new ShardContendedError(site, this.maxAttempts);
    });
  }

  /**
   * After a successful read of a shard (which settles any create the cell left unknown): for
   * each of our mints there whose outcome was unknown and not yet proven, the cell now knows
   * whether its version was ours. If it was, the record was created by us: announce it, once;
   * if not, forget it. The cell keeps one create pending at a time and settles it before its
   * next operation, so at most one mint per shard is unproven, and this runs before any later
   * write of ours can move the cell's own latest version past it.
   *
   * A proven mint stays remembered, per name, until a mint of that name answers: the operation
   * that proved it may be another name's, or may itself fail afterwards (its own touch,
   * NotOwner). Forgetting the proof then would make the caller's retry answer `touched` for a
   * record this store created, and nothing could prove it again.
   */
  private settleMints(shard: number, cell: CasCell): void {
    for (const [name, unsettled] of this.unsettledMints) {
      if (unsettled.shard !== shard || unsettled.proven) continue;
      if (cell.lastWrittenVersion !== unsettled.version) {
        this.unsettledMints.delete(name);
        continue;
      }
      this.unsettledMints.set(name, { ...unsettled, proven: true });
      this.announce(unsettled.record);
    }
  }

  private inShardOrder<T>(shard: number, operation: () => Promise<T>): Promise<T> {
    const run = (this.shardQueues.get(shard) ?? Promise.resolve()).then(operation, operation);
    this.shardQueues.set(
      shard,
      run.catch(() => undefined),
    );
    return run;
  }

  private async readShard(site: NamespaceSite & { shard: number }): Promise<ShardRead> {
    const cell = this.shardCell(site.shard);
    const snapshot = await this.storage(site, () => cell.read());
    this.settleMints(site.shard, cell);
    return { snapshot, owner: snapshot === null ? null : decodeOwner(snapshot.fields, site) };
  }

  // --- meta, cells, storage errors ----------------------------------------------------------

  /** The registry's meta, or null while no one has created it (reads never create it). */
  private async findMeta(): Promise<RegistryMeta | null> {
    if (this.meta !== null) return this.meta;
    const snapshot = await this.storage(REGISTRY_SITE, () => this.metaCell.read());
    return snapshot === null ? null : this.adoptMeta(snapshot);
  }

  /** The registry's meta, created with this store's shard count if it is the first to need it. */
  private async ensureMeta(): Promise<RegistryMeta> {
    const found = await this.findMeta();
    if (found !== null) return found;
    const fields = encodeMeta({ shardCount: this.newShardCount, hash: 'fnv1a64' });
    try {
      return this.adoptMeta(await this.storage(REGISTRY_SITE, () => this.metaCell.create(fields)));
    } catch (error) {
      if (!(error instanceof CellExistsError)) throw error;
    }
    // Another store created it first: its shard count and hash are the registry's.
    const winner = await this.findMeta();
    if (winner === null)
      throw new NamespaceSerializationError(
        REGISTRY_SITE,
        'meta cell exists but has no readable version',
      );
    return winner;
  }

  /** The meta cell never changes once created, so one read serves this store for good. */
  private adoptMeta(snapshot: CellSnapshot): RegistryMeta {
    this.meta = decodeMeta(snapshot.fields);
    return this.meta;
  }

  private siteOf(
    name: string,
    meta: RegistryMeta,
  ): NamespaceSite & { namespace: string; shard: number } {
    return { namespace: name, shard: shardOfName(name, meta.shardCount, meta.hash) };
  }

  private shardCell(shard: number): CasCell {
    let cell = this.shardCells.get(shard);
    if (cell === undefined) {
      cell = new CasCell(this.io, `${this.prefix}/shards/${shardLabel(shard)}`, {
        writerId: this.writerId(),
      });
      this.shardCells.set(shard, cell);
    }
    return cell;
  }

  private writerId(): string {
    return `node-${this.nodeId}`;
  }

  /** Run one cell operation, turning storage failures into the registry's typed errors. */
  private async storage<T>(site: NamespaceSite, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof CellCorruptError)
        throw new NamespaceSerializationError(site, error.message);
      if (isStorageError(error)) throw new NamespaceBackendError(site, error.code, error);
      throw error;
    }
  }

  /** Housekeeping by the shard's owner: old versions go, the newest ones stay. Best effort. */
  private async pruneAfter(cell: CasCell, version: number): Promise<void> {
    if (this.pruneEvery <= 0 || version % this.pruneEvery !== 0) return;
    // A failed prune leaves garbage for the next one; it must not fail a durable mutation.
    await cell.prune().catch(() => 0);
  }

  private announce(record: NamespaceRecord): void {
    try {
      this.onCreated?.(record);
    } catch {
      // The record is durable: a listener's failure must not turn an acknowledged create
      // into a reported failure (a retry would then say `touched` and lose the event anyway).
    }
  }
}

/** Jittered and growing, so racers that keep colliding spread out. */
function backoff(attempt: number): Promise<void> {
  const ceiling = Math.min(MAX_BACKOFF_MS, 2 ** Math.min(attempt, 5));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
