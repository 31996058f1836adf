/**
 * Create-if-absent on a local directory: write and fsync a temp file in `<root>/.cairn-tmp/`,
 * then `link()` it into place. `link()` fails atomically with EEXIST when the name is taken, so
 * several processes can share one root with no lock files; the folder is fsynced so the name
 * survives a crash. A create that fails before its link changed nothing (never OutcomeUnknown);
 * one whose link may have applied is OutcomeUnknown, and the caller reads the key back.
 *
 * The folders a store made (or found in place) are remembered, so the next create into them
 * skips `mkdir`: two of a create's round trips to libuv's pool, each a dispatch on the engine's
 * thread. One that another program removed is made again on the same create's second try.
 * A folder is remembered only once it was found reached through no link (`LocalConfinement`):
 * `mkdir` and `link()` follow links on the way, so a create under a linked folder is refused
 * before anything is made or linked.
 */
import { randomUUID } from 'node:crypto';
import { link, lstat, mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import {
  AlreadyExistsError,
  BackendError,
  OutcomeUnknownError,
  UnavailableError,
  type StorageError,
} from './errors';
import { DENIED_ERRNOS, localStorageError } from './local-errors';
import { ABSENT_ERRNOS, describe, etagOf, isErrno, syncDir } from './local-files';
import { LOCAL_TEMP_DIR } from './local-keys';
import type { LocalConfinement } from './local-confinement';

const PARENT_IS_OBJECT = 'a parent folder of the key is an object';
/** Folders a store remembers as in place, at most: a store's WAL writes into a handful. */
const DIRS_KEPT = 1024;

export class LocalCreates {
  private readonly tempDir: string;
  /** Folders made or found in place for a create; forgotten when a create finds one gone. */
  private readonly dirsMade = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly endpoint: string,
    private readonly confinement: LocalConfinement,
  ) {
    this.tempDir = path.join(root, LOCAL_TEMP_DIR);
  }

  /** Creates `key` (the file `target`) with `bytes` unless it exists: `AlreadyExists` otherwise. */
  async create(key: string, target: string, bytes: Uint8Array): Promise<{ etag: string }> {
    try {
      return await this.createOnce(key, target, bytes);
    } catch (error) {
      // A folder removed by another program since this store made it (remembered, so not made
      // again): the failed try forgot every folder (`createError`), so this one makes them.
      if (!folderVanished(error)) throw error;
      return this.createOnce(key, target, bytes);
    }
  }

  /**
   * One try: the temp file written and synced, linked into place, its folder synced. The ETag
   * is taken last, through the file's open handle, once the temp name is gone: it holds the
   * ctime, which the link and the temp's unlink both change (local-files.ts, `etagOf`).
   */
  private async createOnce(
    key: string,
    target: string,
    bytes: Uint8Array,
  ): Promise<{ etag: string }> {
    const temp = path.join(this.tempDir, `${randomUUID()}.tmp`);
    let handle: FileHandle | null = null;
    let tempGone = false;
    try {
      handle = await this.writeTemp(key, temp, bytes);
      await this.ensureDir(key, path.dirname(target));
      await this.linkIntoPlace(key, temp, target);
      tempGone = await unlink(temp).then(
        () => true,
        () => false,
      );
      return { etag: etagOf(await handle.stat({ bigint: true })) };
    } finally {
      await handle?.close().catch(() => undefined);
      // Once: a second unlink of a name already gone was one more trip to libuv's pool (and
      // a wake of its thread) in every create, the WAL's serial appends' included.
      if (!tempGone) await unlink(temp).catch(() => undefined);
    }
  }

  /** Writes and fsyncs the temp file; the handle stays open for the ETag (see createOnce). */
  private async writeTemp(key: string, temp: string, bytes: Uint8Array): Promise<FileHandle> {
    try {
      await this.ensureDir(key, this.tempDir);
      const handle = await open(temp, 'wx');
      try {
        await writeWhole(handle, bytes);
        await handle.sync();
        return handle;
      } catch (error) {
        await handle.close();
        throw error;
      }
    } catch (error) {
      throw this.createError(error, key);
    }
  }

  private async linkIntoPlace(key: string, temp: string, target: string): Promise<void> {
    try {
      await link(temp, target);
    } catch (error) {
      if (isErrno(error) && error.code === 'EEXIST') throw await this.takenError(key, target);
      // Anything but a clean refusal may have left the name linked: the caller reads back.
      if (isErrno(error) && (ABSENT_ERRNOS.has(error.code) || DENIED_ERRNOS.has(error.code))) {
        throw this.createError(error, key);
      }
      throw new OutcomeUnknownError(key, this.endpoint, describe(error), { cause: error });
    }
    try {
      await syncDir(path.dirname(target));
    } catch (error) {
      // The name is linked but maybe not durable; only a read-back can settle what the caller sees.
      throw new OutcomeUnknownError(
        key,
        this.endpoint,
        `directory fsync failed: ${describe(error)}`,
        { cause: error },
      );
    }
  }

  /** EEXIST means AlreadyExists only when an object holds the name, not a folder of objects. */
  private async takenError(key: string, target: string): Promise<StorageError> {
    const stats = await lstat(target).catch(() => null);
    if (stats !== null && stats.isDirectory()) {
      return new BackendError(key, this.endpoint, 'the key is a folder of other objects');
    }
    return new AlreadyExistsError(key, this.endpoint);
  }

  /** Creates `dir` and fsyncs every parent whose entry list changed, so the path is durable. */
  private async ensureDir(key: string, dir: string): Promise<void> {
    if (this.dirsMade.has(dir)) return;
    try {
      // Before mkdir: a linked folder on the way would have it make folders outside the root.
      await this.confinement.checkFolder(key, path.relative(this.root, dir));
      const firstCreated = await mkdir(dir, { recursive: true });
      if (firstCreated !== undefined) {
        for (let at = dir; ; at = path.dirname(at)) {
          await syncDir(path.dirname(at));
          if (at === firstCreated || at === this.root) break;
        }
      }
      if (this.dirsMade.size >= DIRS_KEPT) this.dirsMade.clear();
      this.dirsMade.add(dir);
    } catch (error) {
      // mkdir reports a file in the way as EEXIST (the last component) or ENOTDIR (an earlier one).
      if (isErrno(error) && error.code === 'EEXIST')
        throw new BackendError(key, this.endpoint, PARENT_IS_OBJECT);
      throw this.createError(error, key);
    }
  }

  /** A create that failed before its link() applied: nothing changed, so never OutcomeUnknown. */
  private createError(error: unknown, key: string): StorageError | Error {
    if (isErrno(error) && error.code === 'ENOTDIR') {
      return new BackendError(key, this.endpoint, PARENT_IS_OBJECT);
    }
    if (isErrno(error) && error.code === 'ENOENT') {
      // Only another program removing folders under the root does this; trying again is safe,
      // and makes the folders again.
      this.dirsMade.clear();
      return new UnavailableError(
        key,
        this.endpoint,
        `a folder vanished during the create (${describe(error)})`,
        { cause: error },
      );
    }
    return localStorageError(error, key, this.endpoint);
  }
}

/** A try that failed because a folder it relied on was gone (`createError`'s ENOENT). */
function folderVanished(error: unknown): boolean {
  return error instanceof UnavailableError && isErrno(error.cause) && error.cause.code === 'ENOENT';
}

/**
 * All of `bytes` into a file just opened, from its start, in as few writes as the kernel takes
 * (`writeFile` cuts a body into 512 KiB writes: two pool round trips for a 1 MiB object).
 */
async function writeWhole(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at, at);
    if (bytesWritten <= 0) throw new Error(`a write made no progress at byte ${at}`);
    at += bytesWritten;
  }
}
