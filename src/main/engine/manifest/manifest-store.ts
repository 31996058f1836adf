/**
 * The ManifestStore: the pluggable, linearizable compare-and-swap register holding a WAL's
 * control fields (seed 003; spec control.md "ManifestStore"). Owns the interface every
 * backend implements and the opaque version token; holds no state and touches no storage.
 *
 * Semantics every backend must keep: `read` is strongly consistent; `create` initialises
 * the register exactly once (a concurrent creator loses with AlreadyExists); `update`
 * replaces the fields iff the register still carries the witnessed version (Conflict
 * otherwise, including on a register never created: re-read and decide again); updates are
 * totally ordered and their versions strictly increase. An update whose response is lost may
 * have applied: a backend never retries internally in a way that could apply one logical
 * update twice; it reports Unavailable and the caller re-reads (or retries as-is).
 *
 * Errors, one catalogue shared with the CAS cell and storage: `ConflictError` (code
 * 'Conflict'), `CellExistsError` ('AlreadyExists'), `UnavailableError` ('Unavailable',
 * transient) and `BackendError` ('Backend', terminal; a corrupt stored version is one).
 *
 * Beyond the seed, `isCurrent`, `history` and `prune` serve the WAL's durability fence, the
 * console's version history and the epoch holder's housekeeping. A SQL row with optimistic
 * locking is the documented example of another backend: `UPDATE ... SET fields = ?,
 * version = version + 1 WHERE id = ? AND version = ?`, one affected row or Conflict.
 */
import { DEFAULT_HISTORY_LIMIT, MIN_KEPT_VERSIONS } from '../cas/cas-cell';

export { CellExistsError, ConflictError } from '../cas/errors';
export { BackendError, UnavailableError } from '../objectio/errors';

/** The register's fields: string keys to string values (structured values are JSON strings). */
export type ManifestFields = Readonly<Record<string, string>>;

declare const manifestVersionBrand: unique symbol;
/**
 * Opaque token of one observed register state. Callers only thread it from a read into
 * the update that follows, compare two tokens of one register, or show it; only a backend
 * makes one.
 */
export type ManifestVersion = number & { readonly [manifestVersionBrand]: 'ManifestVersion' };

/** For backends: the token of their `n`-th state. */
export function manifestVersion(n: number): ManifestVersion {
  return n as ManifestVersion;
}

/** One consistent read of the register. */
export interface VersionedManifest {
  readonly version: ManifestVersion;
  readonly fields: ManifestFields;
}

/** One stored state, for the console's version history. */
export interface ManifestHistoryEntry extends VersionedManifest {
  /** Writer that produced this state (several processes may share one). */
  readonly writerId: string;
}

/** Budget for the encoded sealed directory (`cairn.segments`) when a backend sets none. */
export const DEFAULT_MAX_DIRECTORY_BYTES = 64 * 1024;

/** States `prune` always keeps, and `history`'s default length: the cell's rules for every backend. */
export const KEPT_STATES = MIN_KEPT_VERSIONS;
export const DEFAULT_HISTORY_LENGTH = DEFAULT_HISTORY_LIMIT;

export interface ManifestStore {
  /** Maximum encoded byte length of `cairn.segments`: a capacity of the backend. */
  maxDirectoryBytes(): number;
  /** Null means the register has never been created. */
  read(): Promise<VersionedManifest | null>;
  create(fields: ManifestFields): Promise<VersionedManifest>;
  update(version: ManifestVersion, fields: ManifestFields): Promise<VersionedManifest>;
  /** Whether `version` is still the register's state: the WAL's durability fence. */
  isCurrent(version: ManifestVersion): Promise<boolean>;
  /** States still stored, newest first. */
  history(limit?: number): Promise<ManifestHistoryEntry[]>;
  /** Forget old states, oldest first, never the newest 16; epoch holder only. */
  prune(keepNewest?: number): Promise<number>;
}
