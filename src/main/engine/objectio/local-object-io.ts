/**
 * `LocalObjectIo`, the embedded default: key `a/b/c` is the file `<root>/a/b/c`.
 *
 * Owns the mapping of ObjectIo's contract onto a local POSIX directory:
 * - create-if-absent = a synced temp file `link()`ed into place, which fails atomically when the
 *   name is taken (`LocalCreates`);
 * - listing walks only the directories that can hold keys under the prefix, in key order,
 *   and stops once a page is full (`LocalListing`); a page's objects are stat'ed on the read
 *   thread once it runs.
 * - a delete unlinks its keys side by side, each relative to its folder opened without following
 *   a link, and syncs each folder once (`unlinkAll`);
 * - a tail read from a listed size (`readTail`, recovery's read of every object) skips the
 *   stat, and a long scan of them runs on a thread of its own (`LocalReadThread`). A read of a
 *   span the caller located (`readRange`, replay's read of a segment) skips it too.
 *
 * Must never overwrite a file, follow a symlink below the root (a key whose path crosses one is
 * refused by every call: `LocalConfinement`), or hand out a key that does not round-trip. It needs a filesystem where `link()` is atomic (not NFS / SMB / exFAT): the
 * create-if-absent probe runs before a writer opens.
 */
import { close as closeFd, open as openFd, read as readFd, type BigIntStats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { asStorageError, checkedDeleteBatch } from './batch-delete';
import { resolveRange } from './byte-range';
import { checksummedHere, type ChecksummedRead, type ChecksumRequest } from './checksum';
import { BackendError, NotFoundError, ObjectTooLargeError, type StorageError } from './errors';
import { LOCAL_LINK } from './link/backend-link';
import { unlinkAll, type LocalDeleteTarget } from './local-deletes';
import {
  MAX_GET_BYTES,
  type BatchDeleteResult,
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
import { LocalCreates } from './local-create';
import { KeyCrossesLinkError, localStorageError } from './local-errors';
import { LocalConfinement, parentOf, PROC_FD_DIR } from './local-confinement';
import { LOCAL_READ_FLAGS, LocalReadThread, type FileRead } from './local-read-thread';
import {
  ABSENT_ERRNOS,
  etagOf,
  isErrno,
  readBuffer,
  readSlice,
  zeroUnread,
  type FileStamp,
} from './local-files';
import { isValidDirKey, keyProblem } from './local-keys';
import { listSortedPage } from './sorted-listing';
import { LocalListing } from './local-listing';
import { SortedDirs } from './local-sorted-dirs';

export { keyProblem, LOCAL_TEMP_DIR } from './local-keys';

/** The process's read thread, shared by every local store (started on first heavy use). */
let sharedReadThread: LocalReadThread | null = null;

export interface LocalObjectIoOptions {
  /** Where tail and located reads run: the process's shared thread by default; null: libuv's pool only. */
  readonly readThread?: LocalReadThread | null;
  /** The folders' sorted names kept between listings (tests pass one with a short settle). */
  readonly sortedDirs?: SortedDirs;
  /** How long a folder must have been unchanged before it has a stamp (tests: 0). */
  readonly quietFolderMs?: number;
}

/** How long a folder must have been unchanged before it has a stamp (`folderStamp`). */
export const QUIET_FOLDER_MS = 2000;

export class LocalObjectIo implements ObjectIo {
  readonly endpoint: string;
  readonly link = LOCAL_LINK;
  private readonly root: string;
  private readonly readThread: LocalReadThread | null;
  private readonly listing: LocalListing;
  private readonly creates: LocalCreates;
  private readonly confinement: LocalConfinement;
  private readonly quietFolderMs: number;

  constructor(rootDir: string, options: LocalObjectIoOptions = {}) {
    this.root = path.resolve(rootDir);
    this.endpoint = this.root;
    this.quietFolderMs = options.quietFolderMs ?? QUIET_FOLDER_MS;
    this.confinement = new LocalConfinement(this.root, this.endpoint);
    this.creates = new LocalCreates(this.root, this.endpoint, this.confinement);
    this.listing = new LocalListing(
      this.root,
      options.sortedDirs ?? new SortedDirs(),
      (error, dirKey) => this.storageError(error, dirKey),
      this.confinement,
    );
    this.readThread =
      options.readThread === undefined
        ? (sharedReadThread ??= new LocalReadThread())
        : options.readThread;
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.creates.create(key, this.pathOf(key), bytes);
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    const file = this.pathOf(key);
    const handle = await this.openObject(key, file);
    try {
      await this.confinement.checkOpened(key, handle.fd);
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
    const threaded = this.threadRead(key, file, start, length + 1);
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
    const threaded = this.threadRead(key, file, start, length, checksum);
    const read = threaded === null ? onPool() : threaded.then((done) => done ?? onPool());
    return read.then((done) => (done.bytesRead === length ? done : viaGet()));
  }

  /**
   * The read thread's read of `key`, which it makes only where it can check the file it opened
   * is the key's (`LocalConfinement`); null: read on the pool.
   */
  private threadRead(
    key: string,
    file: string,
    start: number,
    length: number,
    checksum?: ChecksumRequest,
  ): Promise<FileRead | null> | null {
    const expect = PROC_FD_DIR === null ? null : this.confinement.expectedPath(key);
    if (expect === null) return null;
    return this.readThread?.read(file, start, length, checksum, expect) ?? null;
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
        if (openError !== null) return reject(this.storageError(openError, key));
        const refuse = (error: unknown): void =>
          closeFd(fd, () => reject(this.storageError(error, key)));
        this.confinement.checkOpened(key, fd).then(() => {
          const bytes = readBuffer(length);
          readFd(fd, bytes, 0, length, start, (readError, bytesRead) => {
            // A failed close changes nothing read (`get` ignores it too).
            closeFd(fd, () => {
              if (readError !== null) return reject(this.storageError(readError, key));
              zeroUnread(bytes, bytesRead);
              resolve({ bytes, bytesRead });
            });
          });
        }, refuse);
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
    const result = await unlinkAll([key], this.deleteTarget());
    const failed = result.failed[0];
    if (failed !== undefined) throw failed.error;
  }

  deleteMany(keys: readonly string[]): Promise<BatchDeleteResult> {
    return unlinkAll(checkedDeleteBatch(this.endpoint, keys), this.deleteTarget());
  }

  /** What the local deletes need of this store (`local-deletes.ts`). */
  private deleteTarget(): LocalDeleteTarget {
    return {
      root: this.root,
      endpoint: this.endpoint,
      fileOf: (key) => this.pathOf(key),
      storageError: (error, key) =>
        asStorageError(this.storageError(error, key), key, this.endpoint),
      checkFolder: (key, folderKey) => this.confinement.checkFolder(key, folderKey),
    };
  }

  // --- reads ---------------------------------------------------------------------------------

  private async openObject(key: string, file: string): Promise<FileHandle> {
    try {
      return await open(file, LOCAL_READ_FLAGS);
    } catch (error) {
      throw this.storageError(error, key);
    }
  }

  /**
   * The object's metadata, or null when no regular file holds the key. A link in its place is
   * refused, except for a key a listing walked (`listed`): the walk shows no link, so one that
   * appeared since is simply not an object, as a file gone since is.
   */
  private async metaOf(key: string, listed = false): Promise<ObjectMeta | null> {
    const file = this.pathOf(key);
    let stats: BigIntStats;
    try {
      // A listed key's folders were walked without following a link.
      if (!listed) await this.confinement.checkFolder(key, parentOf(key));
      stats = await lstat(file, { bigint: true });
    } catch (error) {
      if (isErrno(error) && ABSENT_ERRNOS.has(error.code)) return null;
      throw this.storageError(error, key);
    }
    if (stats.isSymbolicLink() && !listed) throw new KeyCrossesLinkError(key, this.endpoint);
    return stats.isFile() ? metaFrom(key, stats) : null;
  }

  /** `metaOf` for a key a listing walked: on the read thread when it runs, else on the pool. */
  private listedMeta(key: string): Promise<ObjectMeta | null> {
    const threaded = this.readThread?.stat(path.join(this.root, key)) ?? null;
    if (threaded === null) return this.metaOf(key, true);
    return threaded.then((stats) => {
      if (stats === null) return this.metaOf(key, true); // Gone, or an error only the pool maps.
      return stats.isFile ? metaFrom(key, stats) : null;
    });
  }

  /**
   * The folder's device, inode and change times (ns): a key created, deleted or renamed in it
   * moves its mtime. A folder changed in the last `QUIET_FOLDER_MS` has none yet: a file
   * system's clock ticks coarser than a nanosecond, and a create in the same tick would not
   * move it. A symbolic link is not followed (`lstat`), as keys never cross one.
   */
  async folderStamp(folderKey: string): Promise<string | null> {
    if (!folderKey.endsWith('/') || !isValidDirKey(folderKey)) return null;
    try {
      const stats = await lstat(path.join(this.root, folderKey), { bigint: true });
      if (!stats.isDirectory()) return null;
      const changedNs = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs;
      if (Date.now() - Number(changedNs / 1_000_000n) < this.quietFolderMs) return null;
      return `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw this.storageError(error, folderKey);
    }
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
    return localStorageError(error, key, this.endpoint);
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
