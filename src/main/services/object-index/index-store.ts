/**
 * The local object index on disk: one plain file per store and prefix in the app data
 * directory (`object-index/`), shared by the desktop app, browser mode and the CLI - all three
 * use the same data directory. A file is read whole when a prefix is first opened in a
 * process and written whole (a temporary file renamed over it, so a reader never sees half a
 * file) when what the process read changed. Bounded on disk: past the budget the files used
 * longest ago are removed (a file's mtime is its last use). A damaged or foreign file is not
 * trusted (index-file decodes it to null) and is rewritten by the next save. Never reads a store.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { budgetFromMib } from '../env-budget';
import {
  decodeIndexFile,
  decodeIndexHeader,
  encodeIndexFile,
  type IndexedObject,
  type IndexHeader,
  type IndexIdentity,
} from './index-file';

export const INDEX_FOLDER = 'object-index';
export const DEFAULT_INDEX_BUDGET_BYTES = 1024 * 1024 * 1024;
const SUFFIX = '.idx';
const REPORT_SUFFIX = '.report';
/** A save writes `<file>.<random>.tmp`, then renames it into place. */
const TEMP_SUFFIX = '.tmp';

/** `CAIRN_INDEX_CACHE_MIB` when set to a positive number, else the default (1 GiB). */
export function indexBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return budgetFromMib(env.CAIRN_INDEX_CACHE_MIB, DEFAULT_INDEX_BUDGET_BYTES);
}

/** One file of the index, for `cairn cache ls`. */
export interface IndexFileInfo {
  readonly file: string;
  readonly bytes: number;
  readonly usedAtMs: number;
  /** Null for a file that is damaged or of another version (the next save replaces it). */
  readonly header: IndexHeader | null;
}

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

export class ObjectIndexStore {
  readonly folder: string;
  /** Saves in progress, for `settled`. */
  private readonly saving = new Set<Promise<void>>();

  constructor(
    dataDir: string,
    readonly budgetBytes = indexBudgetFromEnv(),
  ) {
    this.folder = join(dataDir, INDEX_FOLDER);
  }

  /** The file of a store's prefix: a hash of both (the file itself names them in full). */
  fileOf(identity: Pick<IndexIdentity, 'store' | 'prefix'>): string {
    const digest = createHash('sha256')
      .update(`${identity.store}\n${identity.prefix}`)
      .digest('hex');
    return join(this.folder, `${digest.slice(0, 40)}${SUFFIX}`);
  }

  /** The judged report kept beside the file of a store's prefix (`judged-reports.ts`). */
  reportFileOf(identity: Pick<IndexIdentity, 'store' | 'prefix'>): string {
    return `${this.fileOf(identity).slice(0, -SUFFIX.length)}${REPORT_SUFFIX}`;
  }

  /**
   * The objects kept for `identity`, by key order of sequence; none when there is no file or
   * it cannot be trusted. Marks the file used now.
   */
  async load(identity: IndexIdentity): Promise<IndexedObject[]> {
    const file = this.fileOf(identity);
    const bytes = await this.readBounded(file);
    if (bytes === null) return [];
    const objects = decodeIndexFile(bytes, identity);
    if (objects === null) return [];
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return objects;
  }

  /**
   * The file's bytes; null when there is none, or when it is larger than the whole index may be
   * (a file this app wrote never is: it is not trusted, and not read).
   */
  private async readBounded(file: string): Promise<Uint8Array | null> {
    try {
      if ((await stat(file)).size > this.budgetBytes) return null;
      return await readFile(file);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return null;
      throw error;
    }
  }

  /** Writes `objects` as the file of `identity`, then keeps the folder within its budget. */
  save(identity: IndexIdentity, objects: readonly IndexedObject[]): Promise<void> {
    const saving = this.write(identity, objects);
    this.saving.add(saving);
    const done = (): void => {
      this.saving.delete(saving);
    };
    saving.then(done, done);
    return saving;
  }

  /** Resolves once every save begun so far has ended, written or failed (a bench, a test). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.saving]);
  }

  private async write(identity: IndexIdentity, objects: readonly IndexedObject[]): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const file = this.fileOf(identity);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, encodeIndexFile(identity, objects), { mode: 0o600 });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await this.trim(file);
  }

  /** Every file of the index with what its header says, the most recently used first. */
  async list(): Promise<IndexFileInfo[]> {
    const infos: IndexFileInfo[] = [];
    for (const file of await this.files()) {
      const head = await readHead(file.file);
      if (head !== null) infos.push({ ...file, header: decodeIndexHeader(head) });
    }
    return infos;
  }

  /**
   * Removes every file of the index and the judged report beside each; returns how many index
   * files and the bytes of all.
   */
  async clear(): Promise<{ files: number; bytes: number }> {
    let bytes = 0;
    for (const report of await this.files(REPORT_SUFFIX)) {
      await rm(report.file, { force: true });
      bytes += report.bytes;
    }
    let files = 0;
    for (const file of await this.files()) {
      await rm(file.file, { force: true });
      files += 1;
      bytes += file.bytes;
    }
    // A save's temporary file left by a process that died before its rename.
    for (const name of await this.names(TEMP_SUFFIX)) {
      await rm(join(this.folder, name), { force: true });
      files += 1;
    }
    return { files, bytes };
  }

  /** The folder's names ending in `suffix`; none when there is no folder. */
  private async names(suffix: string): Promise<string[]> {
    try {
      return (await readdir(this.folder)).filter((name) => name.endsWith(suffix));
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return [];
      throw error;
    }
  }

  /** Removes the files used longest ago until the folder fits its budget; never `keep`. */
  private async trim(keep: string): Promise<void> {
    const infos = await this.files();
    let total = infos.reduce((sum, info) => sum + info.bytes, 0);
    for (const info of [...infos].reverse()) {
      if (total <= this.budgetBytes) return;
      if (info.file === keep) continue;
      await rm(info.file, { force: true });
      total -= info.bytes;
    }
  }

  /** The index's files with their sizes and last use, the most recently used first. */
  private async files(suffix = SUFFIX): Promise<Array<Omit<IndexFileInfo, 'header'>>> {
    const names = await this.names(suffix);
    const files: Array<Omit<IndexFileInfo, 'header'>> = [];
    for (const name of names) {
      const file = join(this.folder, name);
      try {
        const stats = await stat(file);
        if (!stats.isFile()) continue; // Not a file this store wrote (a folder by the name).
        files.push({ file, bytes: stats.size, usedAtMs: stats.mtimeMs });
      } catch (error) {
        if (!isErrno(error, 'ENOENT')) throw error;
      }
    }
    return files.sort((a, b) => b.usedAtMs - a.usedAtMs);
  }
}

/** Bytes a header takes at most (magic, version, format, two names of up to 32 KiB). */
const HEAD_BYTES = 64 * 1024;

/** The first bytes of `file` (its header), or null when it is gone. */
async function readHead(file: string): Promise<Uint8Array | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
  try {
    const buffer = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
