/**
 * A process-local ManifestStore with exact CAS semantics, standing in for any backend in
 * unit tests (the seed's in-memory store). Owns nothing but its state; every call is atomic
 * because it completes without yielding. Never persists anything.
 */
import { CellExistsError, ConflictError } from '../cas/errors';
import {
  DEFAULT_HISTORY_LENGTH,
  DEFAULT_MAX_DIRECTORY_BYTES,
  KEPT_STATES,
  manifestVersion,
  type ManifestFields,
  type ManifestHistoryEntry,
  type ManifestStore,
  type ManifestVersion,
  type VersionedManifest,
} from './manifest-store';

export interface MemoryManifestStoreOptions {
  writerId?: string;
  maxDirectoryBytes?: number;
  /** Names the register in error messages. */
  name?: string;
}

export class MemoryManifestStore implements ManifestStore {
  /** Stored states, oldest first; the last is current. */
  private states: ManifestHistoryEntry[] = [];
  private readonly writerId: string;
  private readonly directoryBudget: number;
  private readonly name: string;

  constructor(options: MemoryManifestStoreOptions = {}) {
    this.writerId = options.writerId ?? 'memory';
    this.directoryBudget = options.maxDirectoryBytes ?? DEFAULT_MAX_DIRECTORY_BYTES;
    this.name = options.name ?? 'memory-manifest';
  }

  maxDirectoryBytes(): number {
    return this.directoryBudget;
  }

  async read(): Promise<VersionedManifest | null> {
    const current = this.current();
    return current === undefined ? null : { version: current.version, fields: current.fields };
  }

  async create(fields: ManifestFields): Promise<VersionedManifest> {
    if (this.current() !== undefined) throw new CellExistsError(this.name);
    return this.append(1, fields);
  }

  async update(version: ManifestVersion, fields: ManifestFields): Promise<VersionedManifest> {
    if (this.current()?.version !== version) throw new ConflictError(this.name, version);
    return this.append(version + 1, fields);
  }

  async isCurrent(version: ManifestVersion): Promise<boolean> {
    return this.current()?.version === version;
  }

  async history(limit = DEFAULT_HISTORY_LENGTH): Promise<ManifestHistoryEntry[]> {
    return this.states
      .slice()
      .reverse()
      .slice(0, Math.max(0, limit))
      .map((state) => ({ ...state }));
  }

  async prune(keepNewest = KEPT_STATES): Promise<number> {
    const keep = Math.max(KEPT_STATES, Math.floor(keepNewest));
    const doomed = Math.max(0, this.states.length - keep);
    this.states = this.states.slice(doomed);
    return doomed;
  }

  private current(): ManifestHistoryEntry | undefined {
    return this.states[this.states.length - 1];
  }

  private append(n: number, fields: ManifestFields): VersionedManifest {
    const state = {
      version: manifestVersion(n),
      writerId: this.writerId,
      fields: Object.freeze({ ...fields }),
    };
    this.states.push(state);
    return { version: state.version, fields: state.fields };
  }
}
