/**
 * The only interface that touches storage. One primitive, create-if-absent, carries every
 * protocol above it; nothing here overwrites an object. Callers never assume listing order.
 */
import { checksummedHere, type ChecksummedRead, type ChecksumRequest } from './checksum';
import type { StorageError } from './errors';
import type { LinkShape } from './link/backend-link';

/** Inclusive byte range, or the last `suffix` bytes (the whole object if it is shorter). */
export type ByteRange =
  { readonly start: number; readonly end?: number } | { readonly suffix: number };

export interface ObjectMeta {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  readonly lastModified?: Date;
}

export interface GetResult {
  readonly bytes: Uint8Array;
  readonly etag: string;
  /** Size of the whole object, whatever range was read. */
  readonly size: number;
}

/** What a tail read gives: the last bytes of an object and the size of the whole object. */
export interface TailResult {
  readonly bytes: Uint8Array;
  /** The object's size as the read found it (never the listed size taken on trust). */
  readonly size: number;
}

export interface ListOptions {
  /** Only keys strictly greater than this one (S3 StartAfter). */
  readonly startAfter?: string;
  readonly delimiter?: string;
  /** Keys per page, at most 1,000. */
  readonly pageSize?: number;
  /** Token of the page to fetch, from the previous page's `continuation`. */
  readonly continuation?: string;
}

export interface ListPage {
  readonly objects: readonly ObjectMeta[];
  /** Folders under the prefix when a delimiter is given. */
  readonly commonPrefixes: readonly string[];
  /** Present when more pages follow. */
  readonly continuation?: string;
}

/** What a batch delete did with each of its keys. */
export interface BatchDeleteResult {
  /** Keys deleted, or already absent, in ascending order. */
  readonly deleted: readonly string[];
  /** Keys left in place, ascending, each with why: a typed storage error. */
  readonly failed: readonly { readonly key: string; readonly error: StorageError }[];
}

/** The most keys one `deleteMany` takes: S3 `DeleteObjects`' own limit. */
export const MAX_DELETE_BATCH = 1000;

export interface ObjectIo {
  /** Where the objects live, for messages: a directory path or `s3://bucket at endpoint`. */
  readonly endpoint: string;
  /**
   * What the backend says of its link, for its I/O controller (`link/link-shape.ts`): absent,
   * it is taken for a local one.
   */
  readonly link?: LinkShape;
  /**
   * Create `key` with `bytes` unless it exists: `AlreadyExists` otherwise. Once it has created
   * the object it keeps no reference to `bytes`: the WAL writer encodes later objects into the
   * same buffer.
   */
  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }>;
  get(key: string, range?: ByteRange): Promise<GetResult>;
  head(key: string): Promise<ObjectMeta>;
  /** One page of keys under `prefix`, in key order. */
  listPage(prefix: string, options?: ListOptions): Promise<ListPage>;
  /** Every page under `prefix`, fetched one at a time. */
  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage>;
  /** Delete `key`; deleting an absent key succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Optional: deletes up to `MAX_DELETE_BATCH` keys at once - one request on S3
   * (`DeleteObjects`, keys in ascending order), unlinks side by side on a local directory. An
   * absent key counts as deleted; a key the store did not delete is reported in `failed` with
   * its typed error (after the backend's own retries of a transient one), never thrown. A
   * failure of the whole request throws, as `delete` would; a batch over the limit is a
   * `Backend` error and deletes nothing. Callers go through `deleteKeys`, which falls back to
   * `delete` key by key.
   */
  deleteMany?(keys: readonly string[]): Promise<BatchDeleteResult>;
  /**
   * Optional: `get(key, { suffix })` less the ETag, for a key a listing just reported with
   * `listedSize` bytes - what recovery reads of every object. A backend that saves work with
   * the size implements it (the local directory skips the stat: one open, one read, one
   * close); its answer and its errors are those of the `get`, an object that changed since
   * the listing included. Callers go through `readTail`, which falls back to `get`.
   */
  readTail?(key: string, suffix: number, listedSize: number): Promise<TailResult>;
  /**
   * Optional: a stamp of the folder `folderKey` (`a/b/`) that changes whenever a key directly
   * in it is created, deleted or renamed - a local directory's identity and change times, one
   * `stat`; null when the folder is absent. A store without folders (S3) has none: callers go
   * through `folderStampOf`, which answers null.
   */
  folderStamp?(folderKey: string): Promise<string | null>;
  /**
   * Optional: the bytes of `get(key, { start, end: start + length - 1 })` less the ETag and
   * size, for a span the caller knows the object holds - a segment its catalog located, what
   * replay reads. A backend that saves work implements it (the local directory skips the stat
   * and the file handle: one open, one read, one close); its answer and its errors are those of
   * the `get`. Callers go through `readRange`, which falls back to `get`.
   */
  readRange?(key: string, start: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: `readRange`'s bytes with the checksum `checksum` asks for, taken where the bytes
   * were read (the local directory's read thread), not on the caller's thread. Its answer and
   * errors are those of `readRange`. Callers go through `readRangeChecksummed`, which falls
   * back to `readRange` and takes the sum itself.
   */
  readRangeChecksummed?(
    key: string,
    start: number,
    length: number,
    checksum: ChecksumRequest,
  ): Promise<ChecksummedRead>;
  /**
   * Optional: releases what the backend holds open for this store (an S3 store's clients and
   * their sockets); every call made afterwards fails. A backend that holds nothing omits it.
   */
  destroy?(): void;
}

/** The last `suffix` bytes of a listed object, and its size: `io.readTail`, else a `get`. */
export function readTail(
  io: ObjectIo,
  key: string,
  suffix: number,
  listedSize: number,
): Promise<TailResult> {
  return io.readTail !== undefined ? io.readTail(key, suffix, listedSize) : io.get(key, { suffix });
}

/** The `length` bytes of `key` from `start` (fewer past the object's end): `io.readRange`, else a `get`. */
export async function readRange(
  io: ObjectIo,
  key: string,
  start: number,
  length: number,
): Promise<Uint8Array> {
  if (io.readRange !== undefined) return io.readRange(key, start, length);
  return (await io.get(key, { start, end: start + length - 1 })).bytes;
}

/** `readRange` and the checksum `checksum` asks for: `io.readRangeChecksummed`, else taken here. */
export async function readRangeChecksummed(
  io: ObjectIo,
  key: string,
  start: number,
  length: number,
  checksum: ChecksumRequest,
): Promise<ChecksummedRead> {
  if (io.readRangeChecksummed !== undefined)
    return io.readRangeChecksummed(key, start, length, checksum);
  return checksummedHere(await readRange(io, key, start, length), checksum);
}

export const MAX_LIST_PAGE = 1000;

/**
 * The most bytes one `get` returns; a larger range or whole object is `ObjectTooLarge`, refused
 * before any allocation (a store may hold an object of any size; this process must not try to
 * hold it at once). Whole-object readers of unbounded objects read ranges (`readRanges`).
 */
export const MAX_GET_BYTES = 256 * 1024 * 1024;

/** The paging loop every backend's `list` shares. */
export async function* pagesOf(
  io: Pick<ObjectIo, 'listPage'>,
  prefix: string,
  options: Omit<ListOptions, 'continuation'> = {},
): AsyncIterable<ListPage> {
  let continuation: string | undefined;
  do {
    const page = await io.listPage(prefix, { ...options, continuation });
    yield page;
    continuation = page.continuation;
  } while (continuation !== undefined);
}

/** Every object under `prefix` (no delimiter), page after page. */
export async function* objectsUnder(
  io: ObjectIo,
  prefix: string,
  startAfter?: string,
): AsyncIterable<ObjectMeta> {
  for await (const page of io.list(prefix, { startAfter })) yield* page.objects;
}

/** `io`'s stamp of `folderKey` (see `ObjectIo.folderStamp`); null where the store keeps none. */
export async function folderStampOf(io: ObjectIo, folderKey: string): Promise<string | null> {
  return (await io.folderStamp?.(folderKey)) ?? null;
}
