/**
 * The default ManifestStore: the register as a CasCell at `<prefix>/manifest`, so it runs
 * the same on a local directory and on any S3 honouring create-if-absent. Owns only the
 * translation between the cell and the ManifestStore face; every consistency decision
 * (and every retry decision) stays in the cell, which never applies an update twice.
 */
import { CasCell } from '../cas/cas-cell';
import type { CellSnapshot } from '../cas/cell-snapshot';
import type { ObjectIo } from '../objectio/object-io';
import {
  DEFAULT_MAX_DIRECTORY_BYTES,
  manifestVersion,
  type ManifestFields,
  type ManifestHistoryEntry,
  type ManifestStore,
  type ManifestVersion,
  type VersionedManifest,
} from './manifest-store';

export interface CellManifestStoreOptions {
  /** Recorded in every state this store writes; default: a random id. */
  writerId?: string;
  maxDirectoryBytes?: number;
}

/** The register's cell under a WAL prefix (`''` for a WAL at the bucket root). */
export function manifestCellOf(prefix: string): string {
  const base = prefix.replace(/\/+$/, '');
  return base === '' ? 'manifest' : `${base}/manifest`;
}

export class CellManifestStore implements ManifestStore {
  readonly cell: CasCell;
  private readonly directoryBudget: number;

  constructor(io: ObjectIo, prefix: string, options: CellManifestStoreOptions = {}) {
    this.cell = new CasCell(io, manifestCellOf(prefix), { writerId: options.writerId });
    this.directoryBudget = options.maxDirectoryBytes ?? DEFAULT_MAX_DIRECTORY_BYTES;
  }

  maxDirectoryBytes(): number {
    return this.directoryBudget;
  }

  async read(): Promise<VersionedManifest | null> {
    const snapshot = await this.cell.read();
    return snapshot === null ? null : versioned(snapshot);
  }

  async create(fields: ManifestFields): Promise<VersionedManifest> {
    return versioned(await this.cell.create(fields));
  }

  async update(version: ManifestVersion, fields: ManifestFields): Promise<VersionedManifest> {
    return versioned(await this.cell.update(version, fields));
  }

  isCurrent(version: ManifestVersion): Promise<boolean> {
    return this.cell.isCurrent(version);
  }

  async history(limit?: number): Promise<ManifestHistoryEntry[]> {
    return (await this.cell.history(limit)).map((snapshot) => ({
      ...versioned(snapshot),
      writerId: snapshot.writerId,
    }));
  }

  prune(keepNewest?: number): Promise<number> {
    return this.cell.prune(keepNewest);
  }
}

function versioned(snapshot: CellSnapshot): VersionedManifest {
  return { version: manifestVersion(snapshot.version), fields: snapshot.fields };
}
