/**
 * CasCell: a linearizable compare-and-swap register made of immutable versions
 * `<cell>/<version, 20 digits>.json`, each created once with create-if-absent (spec
 * control.md, "CasCell"). Owns finding the newest version, creating the next one, telling an
 * unknown create outcome apart by its nonce, and ascending pruning that keeps the newest 16.
 *
 * It must never overwrite a version, never retry a create whose outcome it has not learned,
 * never let OutcomeUnknown escape, and never run two operations of one instance at once:
 * calls queue, and an outcome left unknown is resolved before the next one starts, so the
 * cell always knows its own latest version.
 */
import { randomUUID } from 'node:crypto';
import { isStorageError, UnavailableError } from '../objectio/errors';
import type { ObjectIo } from '../objectio/object-io';
import { decodeCellBody, encodeCellBody, type CellBody } from './cell-body';
import type { CellFields, CellSnapshot } from './cell-snapshot';
import { CellExistsError, ConflictError, InvalidVersionError } from './errors';
import { cellFolder, isValidVersion, versionKey, versionOfKey } from './version-key';

export interface CasCellOptions {
  /** Recorded in every version this instance creates; default: a random id. */
  writerId?: string;
}

/** Pruning never deletes the newest this many versions (the spec's floor). */
export const MIN_KEPT_VERSIONS = 16;
/** Versions `history()` returns when no limit is given. */
export const DEFAULT_HISTORY_LIMIT = 32;
/** A read restarts when a listed version was pruned under it; this bounds a pathological race. */
const MAX_READ_RESTARTS = 8;

/** A create this instance started and whose fate it has not settled yet. */
interface PendingCreate {
  readonly body: CellBody;
  /** The version the create built on; 0 for the cell's first version. */
  readonly base: number;
}

/**
 * What became of a create: applied and on a live base (`mine`), someone else's (`theirs`),
 * ours but on a base pruned meanwhile (`stale`: it may be a recreation of a pruned key),
 * never applied (`absent`), or beyond knowing because its version was pruned (`lost`).
 */
type CreateFate = 'mine' | 'theirs' | 'stale' | 'absent' | 'lost';

export class CasCell {
  readonly name: string;
  private readonly writerId: string;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: PendingCreate | null = null;
  private ownLatest: number | null = null;

  constructor(
    private readonly io: ObjectIo,
    cellPrefix: string,
    options: CasCellOptions = {},
  ) {
    this.name = cellPrefix.replace(/\/+$/, '');
    this.writerId = options.writerId ?? randomUUID();
  }

  /** The newest version this instance created and saw applied, or null. */
  get lastWrittenVersion(): number | null {
    return this.ownLatest;
  }

  /** Strongly consistent: sees every create that completed before it started. */
  read(): Promise<CellSnapshot | null> {
    return this.serialize(async () => {
      await this.settlePending(null);
      const newest = await this.readNewest();
      return newest === null ? null : snapshotOf(newest);
    });
  }

  /** Create version 1; `CellExistsError` if the cell already has (or had) one. */
  create(fields: CellFields): Promise<CellSnapshot> {
    return this.serialize(
      async () => (await this.settlePending({ base: 0, fields })) ?? this.attempt(0, fields),
    );
  }

  /** Create `version + 1`; `ConflictError` unless `version` is the current version. */
  update(version: number, fields: CellFields): Promise<CellSnapshot> {
    return this.serialize(async () => {
      this.checkVersion(version);
      return (await this.settlePending({ base: version, fields })) ?? this.attempt(version, fields);
    });
  }

  /** `version` is current: nothing was created above it, and it was not pruned meanwhile. */
  isCurrent(version: number): Promise<boolean> {
    return this.serialize(async () => {
      this.checkVersion(version);
      await this.settlePending(null);
      // Order matters: if `version` still exists after `version + 1` was absent, then
      // `version + 1` had never been created (pruning is ascending), so it was current then.
      return (await this.fetchVersion(version + 1)) === null && !(await this.isAbsent(version));
    });
  }

  /** Delete old versions, ascending, one at a time, never the newest 16. Writer role only. */
  prune(keepNewest = MIN_KEPT_VERSIONS): Promise<number> {
    const keep = Math.max(MIN_KEPT_VERSIONS, Math.floor(keepNewest));
    return this.serialize(async () => {
      await this.settlePending(null);
      const doomed = (await this.listVersions()).sort((a, b) => a - b).slice(0, -keep);
      for (const version of doomed) await this.io.delete(versionKey(this.name, version));
      return doomed.length;
    });
  }

  /** The versions still stored, newest first (a version pruned while reading is skipped). */
  history(limit = DEFAULT_HISTORY_LIMIT): Promise<CellSnapshot[]> {
    return this.serialize(async () => {
      await this.settlePending(null);
      const newestFirst = (await this.listVersions())
        .sort((a, b) => b - a)
        .slice(0, Math.max(0, limit));
      const snapshots: CellSnapshot[] = [];
      for (const version of newestFirst) {
        const body = await this.fetchVersion(version);
        if (body !== null) snapshots.push(snapshotOf(body));
      }
      return snapshots;
    });
  }

  // --- one operation at a time -------------------------------------------------------------

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private checkVersion(version: number): void {
    if (!isValidVersion(version)) throw new InvalidVersionError(this.name, version);
  }

  // --- reading --------------------------------------------------------------------------

  private async readNewest(): Promise<CellBody | null> {
    for (let attempt = 0; attempt < MAX_READ_RESTARTS; attempt++) {
      const listed = await this.listVersions();
      if (listed.length === 0) return null;
      const newest = await this.climbFrom(Math.max(...listed));
      if (newest !== null) return newest;
    }
    throw new UnavailableError(
      cellFolder(this.name),
      this.io.endpoint,
      `versions were pruned under ${MAX_READ_RESTARTS} reads in a row`,
    );
  }

  /** Follow `listed + 1, + 2, ...` to the newest version; null if the read must restart. */
  private async climbFrom(listed: number): Promise<CellBody | null> {
    let newest = await this.fetchVersion(listed);
    if (newest === null) return null;
    for (
      let next = await this.fetchVersion(newest.version + 1);
      next !== null;
      next = await this.fetchVersion(next.version + 1)
    ) {
      newest = next;
    }
    // As in isCurrent: the successor was absent, so the newest still existing proves it current.
    return (await this.isAbsent(newest.version)) ? null : newest;
  }

  private async listVersions(): Promise<number[]> {
    const versions: number[] = [];
    for await (const page of this.io.list(cellFolder(this.name), { delimiter: '/' })) {
      for (const object of page.objects) {
        const version = versionOfKey(this.name, object.key);
        if (version !== null) versions.push(version);
      }
    }
    return versions;
  }

  /** The body stored for `version`, or null if it does not exist (never created, or pruned). */
  private async fetchVersion(version: number): Promise<CellBody | null> {
    const key = versionKey(this.name, version);
    try {
      const { bytes } = await this.io.get(key);
      return decodeCellBody(bytes, key, this.io.endpoint, version);
    } catch (error) {
      if (isStorageError(error, 'NotFound')) return null;
      throw error;
    }
  }

  private async isAbsent(version: number): Promise<boolean> {
    try {
      await this.io.head(versionKey(this.name, version));
      return false;
    } catch (error) {
      if (isStorageError(error, 'NotFound')) return true;
      throw error;
    }
  }

  // --- creating ---------------------------------------------------------------------------

  private async attempt(base: number, fields: CellFields): Promise<CellSnapshot> {
    // Not the CAS itself (the check after the create is): a base that does not exist, never
    // created or pruned, is not current, and creating above it would put a version no one
    // built on where a reader could take it for the newest until it is removed.
    if (base >= 1 && (await this.isAbsent(base))) throw this.lostRace(base);
    const body: CellBody = {
      version: base + 1,
      writerId: this.writerId,
      nonce: randomUUID(),
      fields: Object.freeze({ ...fields }),
    };
    const pending: PendingCreate = { body, base };
    // From the request on, the outcome is this instance's to learn before anything else.
    this.pending = pending;
    try {
      await this.io.putIfAbsent(versionKey(this.name, body.version), encodeCellBody(body));
    } catch (error) {
      if (isStorageError(error, 'OutcomeUnknown')) return this.settle(pending, false);
      this.pending = null;
      if (isStorageError(error, 'AlreadyExists')) throw this.lostRace(base);
      throw error;
    }
    return this.settle(pending, true);
  }

  /** Learn the fate of `pending` and turn it into this operation's result. */
  private async settle(pending: PendingCreate, knownApplied: boolean): Promise<CellSnapshot> {
    const fate = await this.learnFate(pending, knownApplied);
    const key = versionKey(this.name, pending.body.version);
    switch (fate) {
      case 'mine':
        return snapshotOf(pending.body);
      case 'theirs':
      case 'stale':
        throw this.lostRace(pending.base);
      case 'absent':
        throw new UnavailableError(
          key,
          this.io.endpoint,
          'the create did not apply; re-read and decide again',
        );
      case 'lost':
        throw new UnavailableError(
          key,
          this.io.endpoint,
          'the create may have applied but its version was pruned before it could be read back; re-read and decide again',
        );
    }
  }

  /**
   * Resolve an outcome left unknown by an earlier operation. If it applied and `next` is the
   * very same create retried as-is (same base, same fields), that retry has already happened:
   * return its result rather than lose to our own version.
   */
  private async settlePending(
    next: { base: number; fields: CellFields } | null,
  ): Promise<CellSnapshot | null> {
    const pending = this.pending;
    if (pending === null) return null;
    const fate = await this.learnFate(pending, false);
    const isRetry =
      next !== null && next.base === pending.base && sameFields(next.fields, pending.body.fields);
    return fate === 'mine' && isRetry ? snapshotOf(pending.body) : null;
  }

  /** The fate of `pending`, which is then settled; if it cannot be read, it stays pending. */
  private async learnFate(pending: PendingCreate, knownApplied: boolean): Promise<CreateFate> {
    let fate: CreateFate;
    try {
      fate = await this.fateOf(pending, knownApplied);
    } catch (error) {
      throw this.stillUnknown(pending, error);
    }
    this.pending = null;
    await this.dropIfStale(pending, fate);
    return fate;
  }

  private async fateOf(pending: PendingCreate, knownApplied: boolean): Promise<CreateFate> {
    const ours = knownApplied || (await this.holdsNonce(pending.body));
    if (ours === false) return 'theirs';
    const baseHolds = await this.baseStillHolds(pending.base);
    if (ours === null) return baseHolds ? 'absent' : 'lost';
    if (!baseHolds) return 'stale';
    this.ownLatest = pending.body.version;
    return 'mine';
  }

  /** true: our attempt is stored; false: another attempt is; null: nothing is stored. */
  private async holdsNonce(body: CellBody): Promise<boolean | null> {
    const stored = await this.fetchVersion(body.version);
    return stored === null ? null : stored.nonce === body.nonce;
  }

  /**
   * Whether the base of a create was never pruned, so the created version had never existed
   * before it (a version above an existing one is never pruned first). Version 1 has no base
   * object: it can only have been pruned once a version 16 above it was created.
   */
  private async baseStillHolds(base: number): Promise<boolean> {
    if (base >= 1) return !(await this.isAbsent(base));
    const listed = await this.listVersions();
    return listed.every((version) => version < 1 + MIN_KEPT_VERSIONS);
  }

  /**
   * A stale create may have recreated a pruned version; left in place it could make a long
   * fenced writer's `isCurrent` of that version pass. It lies below the newest 16 and below
   * nothing still stored, so deleting it keeps pruning ascending. Best effort: the pruner
   * removes it otherwise.
   */
  private async dropIfStale(pending: PendingCreate, fate: CreateFate): Promise<void> {
    if (fate !== 'stale') return;
    await this.io.delete(versionKey(this.name, pending.body.version)).catch(() => undefined);
  }

  private lostRace(base: number): CellExistsError | ConflictError {
    return base === 0 ? new CellExistsError(this.name) : new ConflictError(this.name, base);
  }

  /** The read-back failed: keep the outcome pending and report the operation as transient. */
  private stillUnknown(pending: PendingCreate, cause: unknown): unknown {
    if (!isStorageError(cause, 'Unavailable')) return cause;
    const key = versionKey(this.name, pending.body.version);
    return new UnavailableError(
      key,
      this.io.endpoint,
      'outcome of the create unknown; it is resolved before the next operation',
      { cause },
    );
  }
}

function snapshotOf(body: CellBody): CellSnapshot {
  return { version: body.version, writerId: body.writerId, fields: body.fields };
}

function sameFields(a: CellFields, b: CellFields): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
  );
}
