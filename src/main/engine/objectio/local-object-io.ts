/**
 * `LocalObjectIo`, the embedded default: key `a/b/c` is the file `<root>/a/b/c`.
 *
 * Owns the mapping of ObjectIo's contract onto a local POSIX directory:
 * - create-if-absent = write + fsync a temp file in `<root>/.cairn-tmp/`, then `link()` it into
 *   place. `link()` fails atomically with EEXIST when the name is taken, so several processes
 *   can share one root with no lock files; the directory is fsynced so the name survives a crash.
 *   The folders a store made are remembered, so the next create into them skips `mkdir`; one
 *   that another program removed is made again on the same create's second try.
 * - listing walks only the directories that can hold keys under the prefix, in key order,
 *   and stops once a page is full (`LocalListing`); a page's objects are stat'ed on the read
 *   thread once it runs.
 * - a tail read from a listed size (`readTail`, recovery's read of every object) skips the
 *   stat, and a long scan of them runs on a thread of its own (`LocalReadThread`). A read of a
 *   span the caller located (`readRange`, replay's read of a segment) skips it too.
 *
 * Must never overwrite a file, follow a symlink while walking, or hand out a key that does not
 * round-trip. It needs a filesystem where `link()` is atomic (not NFS / SMB / exFAT): the
 * create-if-absent probe runs before a writer opens.
 */
import { randomUUID } from 'node:crypto';
import { close as closeFd, open as openFd, read as readFd, type BigIntStats } from 'node:fs';
import { link, lstat, mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { resolveRange } from './byte-range';
import { checksummedHere, type ChecksummedRead, type ChecksumRequest } from './checksum';
import {
  AlreadyExistsError,
  BackendError,
  NotFoundError,
  OutcomeUnknownError,
  UnavailableError,
  isStorageError,
  ObjectTooLargeError,
  type StorageError,
} from './errors';
import {
  MAX_GET_BYTES,
  pagesOf,
  MAX_LIST_PAGE,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type ObjectMeta,
  type TailResult,
} from './object-io';
import { LOCAL_READ_FLAGS, LocalReadThread, type FileRead } from './local-read-thread';
import {
  ABSENT_ERRNOS,
  describe,
  etagOf,
  isErrno,
  readBuffer,
  readSlice,
  syncDir,
  zeroUnread,
  type FileStamp,
} from './local-files';
import { keyProblem, LOCAL_TEMP_DIR } from './local-keys';
import { listSortedPage } from './sorted-listing';
import { LocalListing } from './local-listing';
import { SortedDirs } from './local-sorted-dirs';

export { keyProblem, LOCAL_TEMP_DIR } from './local-keys';

const TRANSIENT_ERRNOS = new Set(['EIO', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR']);
const DENIED_ERRNOS = new Set(['EACCES', 'EPERM', 'EROFS']);
const PARENT_IS_OBJECT = 'a parent folder of the key is an object';
/** Folders a store remembers as in place, at most: a store's WAL writes into a handful. */
const DIRS_KEPT = 1024;

/** The process's read thread, shared by every local store (started on first heavy use). */
let sharedReadThread: LocalReadThread | null = null;

export interface LocalObjectIoOptions {
  /** Where tail and located reads run: the process's shared thread by default; null: libuv's pool only. */
  readonly readThread?: LocalReadThread | null;
  /** The folders' sorted names kept between listings (tests pass one with a short settle). */
  readonly sortedDirs?: SortedDirs;
}

export class LocalObjectIo implements ObjectIo {
  readonly endpoint: string;
  private readonly root: string;
  private readonly tempDir: string;
  private readonly readThread: LocalReadThread | null;
  private readonly listing: LocalListing;
  /**
   * Folders this store made or found in place for a create: the next create into one skips
   * its `mkdir` (two of a create's round trips to libuv's pool, each one main-thread dispatch).
   * Forgotten when a create finds a folder gone.
   */
  private readonly dirsMade = new Set<string>();

  constructor(rootDir: string, options: LocalObjectIoOptions = {}) {
    this.root = path.resolve(rootDir);
    this.endpoint = this.root;
    this.tempDir = path.join(this.root, LOCAL_TEMP_DIR);
    this.listing = new LocalListing(
      this.root,
      options.sortedDirs ?? new SortedDirs(),
      (error, dirKey) => this.storageError(error, dirKey),
    );
    this.readThread =
      options.readThread === undefined
        ? (sharedReadThread ??= new LocalReadThread())
        : options.readThread;
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    try {
      return await this.createOnce(key, bytes);
    } catch (error) {
      // A folder removed by another program since this store made it (remembered, so not made
      // again): the failed try forgot every folder (`createError`), so this one makes them.
      if (!(
        error instanceof UnavailableError &&
        isErrno(error.cause) &&
        error.cause.code === 'ENOENT'
      ))
        throw error;
      return this.createOnce(key, bytes);
    }
  }

  /** One create: the temp file written and synced, linked into place, its folder synced. */
  private async createOnce(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    const target = this.pathOf(key);
    const temp = path.join(this.tempDir, `${randomUUID()}.tmp`);
    try {
      const etag = await this.writeTemp(key, temp, bytes);
      await this.ensureDir(key, path.dirname(target));
      await this.linkIntoPlace(key, temp, target);
      return { etag };
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    const file = this.pathOf(key);
    const handle = await this.openObject(key, file);
    try {
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile()) throw new NotFoundError(key, this.endpoint);
      const size = Number(stats.size);
      const slice = resolveRange(size, range);
      if (slice === null) throw new BackendError(key, this.endpoint, 'range not satisfiable');
      if (slice.end - slice.start > MAX_GET_BYTES)
        throw new ObjectTooLargeError(key, this.endpoint, slice.end - slice.start, MAX_GET_BYTES);
      const bytes = await readSlice(handle, slice.start, slice.end - slice.start);
      return { bytes, etag: etagOf(stats), size };
    } catch (error) {
      throw this.storageError(error, key);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /**
   * `get(key, { suffix })` from the listed size, with no stat: one open, one read of the window
   * and one byte more, one close. A read ending exactly at the listed size proves the size: a
   * longer object fills the extra byte, a shorter one reads short. Any other outcome, or a
   * listed size with no byte to read, takes the full `get` (the object changed since the
   * listing, or was never readable): its answer and typed errors are the contract. A scan of
   * many objects reads on the read thread (`LocalReadThread`), a few on libuv's pool.
   */
  readTail(key: string, suffix: number, listedSize: number): Promise<TailResult> {
    if (!(listedSize > 0 && suffix > 0 && suffix <= MAX_GET_BYTES))
      return this.get(key, { suffix });
    const problem = keyProblem(key);
    if (problem !== null) return Promise.reject(this.invalidKey(key, problem));
    const file = path.join(this.root, key);
    const start = Math.max(0, listedSize - suffix);
    const length = listedSize - start;
    const threaded = this.readThread?.read(file, start, length + 1) ?? null;
    if (threaded === null) return this.poolTail(key, file, start, length, suffix);
    return threaded.then((read) => {
      if (read === null) return this.poolTail(key, file, start, length, suffix);
      if (read.bytesRead !== length) return this.get(key, { suffix });
      return { bytes: read.bytes.subarray(0, length), size: listedSize };
    });
  }

  /**
   * `get(key, { start, end })`'s bytes for a span the caller knows the object holds: one open,
   * one read, one close, no stat - on the read thread once it runs (replay's segments: one
   * message a read instead of three pool round trips), else on libuv's pool. A read the thread
   * could not make is made on the pool, where errors are mapped. A read that comes back short
   * (the object is shorter than the caller believed), or a span `get` would refuse, takes the
   * full `get`: its answer and typed errors are the contract.
   */
  readRange(key: string, start: number, length: number): Promise<Uint8Array> {
    return this.readLocated(key, start, length).then((read) => read.bytes);
  }

  /**
   * `readRange`, and the checksum taken on the read thread right after its read, while the
   * bytes are in that core's cache; taken here when the read was made on the pool or the
   * thread could not take it.
   */
  readRangeChecksummed(
    key: string,
    start: number,
    length: number,
    checksum: ChecksumRequest,
  ): Promise<ChecksummedRead> {
    return this.readLocated(key, start, length, checksum).then((read) =>
      read.checksum === undefined
        ? checksummedHere(read.bytes, checksum)
        : { bytes: read.bytes, checksum: read.checksum },
    );
  }

  /** What `readRange` reads, with the thread's checksum when it took one. */
  private readLocated(
    key: string,
    start: number,
    length: number,
    checksum?: ChecksumRequest,
  ): Promise<{ bytes: Uint8Array; checksum?: number }> {
    const viaGet = (): Promise<{ bytes: Uint8Array }> =>
      this.get(key, { start, end: start + length - 1 });
    const plain = Number.isSafeInteger(start) && start >= 0 && Number.isSafeInteger(length);
    if (!(plain && length > 0 && length <= MAX_GET_BYTES)) return viaGet();
    const problem = keyProblem(key);
    if (problem !== null) return Promise.reject(this.invalidKey(key, problem));
    const file = path.join(this.root, key);
    const onPool = (): Promise<FileRead> => this.readSpan(key, file, start, length);
    const threaded = this.readThread?.read(file, start, length, checksum) ?? null;
    const read = threaded === null ? onPool() : threaded.then((done) => done ?? onPool());
    return read.then((done) => (done.bytesRead === length ? done : viaGet()));
  }

  /** `readTail` on libuv's pool: the window and one byte more, which proves the size. */
  private poolTail(
    key: string,
    file: string,
    start: number,
    length: number,
    suffix: number,
  ): Promise<TailResult> {
    return this.readSpan(key, file, start, length + 1).then((read) =>
      read.bytesRead === length
        ? { bytes: read.bytes.subarray(0, length), size: start + length }
        : this.get(key, { suffix }),
    );
  }

  /** Up to `length` bytes of `file` from `start`, with callbacks: no file handle, no promise per step. */
  private readSpan(key: string, file: string, start: number, length: number): Promise<FileRead> {
    return new Promise((resolve, reject) => {
      openFd(file, LOCAL_READ_FLAGS, (openError, fd) => {
        if (openError !== null) return reject(this.openError(openError, key));
        const bytes = readBuffer(length);
        readFd(fd, bytes, 0, length, start, (readError, bytesRead) => {
          // A failed close changes nothing read (`get` ignores it too).
          closeFd(fd, () => {
            if (readError !== null) return reject(this.storageError(readError, key));
            zeroUnread(bytes, bytesRead);
            resolve({ bytes, bytesRead });
          });
        });
      });
    });
  }

  async head(key: string): Promise<ObjectMeta> {
    const meta = await this.metaOf(key);
    if (meta === null) throw new NotFoundError(key, this.endpoint);
    return meta;
  }

  async listPage(prefix: string, options: ListOptions = {}): Promise<ListPage> {
    const after = options.continuation ?? options.startAfter;
    const pageSize = Math.min(Math.max(1, options.pageSize ?? MAX_LIST_PAGE), MAX_LIST_PAGE);
    const keys = await this.listing.keysForPage(prefix, after, options.delimiter, pageSize);
    // Stat only the keys the page shows; listSortedPage wants its metadata synchronously.
    const page = listSortedPage(keys, (key) => ({ key, size: 0, etag: '' }), prefix, {
      ...options,
      pageSize,
    });
    const metas = await Promise.all(page.objects.map((object) => this.listedMeta(object.key)));
    // A key deleted between the walk and the stat is simply gone, as on S3.
    return { ...page, objects: metas.filter((meta): meta is ObjectMeta => meta !== null) };
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    try {
      await unlink(file);
    } catch (error) {
      if (isErrno(error) && (ABSENT_ERRNOS.has(error.code) || error.code === 'EISDIR')) return;
      throw this.storageError(error, key);
    }
    await syncDir(path.dirname(file)).catch((error: unknown) => {
      throw this.storageError(error, key);
    });
  }

  // --- create-if-absent steps --------------------------------------------------------------

  /** Writes and fsyncs the temp file; its ETag is final, since link() keeps inode, size, mtime. */
  private async writeTemp(key: string, temp: string, bytes: Uint8Array): Promise<string> {
    try {
      await this.ensureDir(key, this.tempDir);
      const handle = await open(temp, 'wx');
      try {
        await writeWhole(handle, bytes);
        await handle.sync();
        return etagOf(await handle.stat({ bigint: true }));
      } finally {
        await handle.close();
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
    return this.storageError(error, key);
  }

  // --- reads ---------------------------------------------------------------------------------

  private async openObject(key: string, file: string): Promise<FileHandle> {
    try {
      return await open(file, LOCAL_READ_FLAGS);
    } catch (error) {
      throw this.openError(error, key);
    }
  }

  private openError(error: unknown, key: string): StorageError | Error {
    // ELOOP: the key names a symlink, which this store never creates nor shows.
    if (isErrno(error) && error.code === 'ELOOP') return new NotFoundError(key, this.endpoint);
    return this.storageError(error, key);
  }

  /** The object's metadata, or null when no regular file holds the key. */
  private async metaOf(key: string): Promise<ObjectMeta | null> {
    const file = this.pathOf(key);
    let stats: BigIntStats;
    try {
      stats = await lstat(file, { bigint: true });
    } catch (error) {
      if (isErrno(error) && ABSENT_ERRNOS.has(error.code)) return null;
      throw this.storageError(error, key);
    }
    return stats.isFile() ? metaFrom(key, stats) : null;
  }

  /** `metaOf` for a key a listing walked: on the read thread when it runs, else on the pool. */
  private listedMeta(key: string): Promise<ObjectMeta | null> {
    const threaded = this.readThread?.stat(path.join(this.root, key)) ?? null;
    if (threaded === null) return this.metaOf(key);
    return threaded.then((stats) => {
      if (stats === null) return this.metaOf(key); // Gone, or an error only the pool maps.
      return stats.isFile ? metaFrom(key, stats) : null;
    });
  }

  // --- keys and errors -------------------------------------------------------------------------

  private pathOf(key: string): string {
    const problem = keyProblem(key);
    if (problem !== null) throw this.invalidKey(key, problem);
    return path.join(this.root, key);
  }

  private invalidKey(key: string, problem: string): BackendError {
    return new BackendError(key, this.endpoint, `invalid key: ${problem}`);
  }

  private storageError(error: unknown, key: string): StorageError | Error {
    if (isStorageError(error) || error instanceof ObjectTooLargeError) return error;
    if (!isErrno(error)) return error instanceof Error ? error : new Error(String(error));
    if (ABSENT_ERRNOS.has(error.code) || error.code === 'EISDIR')
      return new NotFoundError(key, this.endpoint);
    if (TRANSIENT_ERRNOS.has(error.code))
      return new UnavailableError(key, this.endpoint, describe(error), { cause: error });
    if (DENIED_ERRNOS.has(error.code))
      return new BackendError(key, this.endpoint, `access denied (${error.code})`, {
        cause: error,
      });
    return new BackendError(key, this.endpoint, describe(error), { cause: error });
  }
}

function metaFrom(key: string, stats: FileStamp): ObjectMeta {
  return {
    key,
    size: Number(stats.size),
    etag: etagOf(stats),
    lastModified: new Date(Number(stats.mtimeNs / NS_PER_MS)),
  };
}

const NS_PER_MS = 1_000_000n;

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
