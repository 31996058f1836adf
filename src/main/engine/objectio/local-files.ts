/**
 * File-system helpers of the local store: an immutable file's ETag, a durable directory entry,
 * a read's buffer, a positioned read, and telling a Node system error from the store's own
 * typed ones.
 */
import { constants as fsConstants, type BigIntStats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isStorageError } from './errors';

/** What an object's metadata is made of, from a `stat` on the pool or on the read thread. */
export type FileStamp = Pick<BigIntStats, 'ino' | 'size' | 'mtimeNs' | 'ctimeNs'>;

/**
 * Stable for an immutable file and free to compute: inode, size, mtime and ctime in
 * nanoseconds. The ctime is there because an mtime can be set back (`touch -d`) after a
 * rewrite in place and a ctime cannot: a file rewritten with its size, inode and mtime kept
 * still gets another ETag, so nothing keyed on it (the local index) serves the old contents.
 */
export function etagOf(stats: FileStamp): string {
  const { ino, size, mtimeNs, ctimeNs } = stats;
  return `${ino.toString(16)}-${size.toString(16)}-${mtimeNs.toString(16)}-${ctimeNs.toString(16)}`;
}

/** Makes a directory's entry list durable (a created or removed name survives a crash). */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A buffer for one read to fill, allocated by the calling thread and not zeroed first: the
 * reader zeroes what its read left unfilled (`zeroUnread`), so nothing the process held before
 * ever shows through, at no cost for a full read.
 */
export function readBuffer(length: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
}

/** Zeroes the bytes of `bytes` past what a read filled; nothing for a full read. */
export function zeroUnread(bytes: Uint8Array, bytesRead: number): void {
  if (bytesRead < bytes.length) bytes.fill(0, bytesRead);
}

export async function readSlice(
  handle: FileHandle,
  start: number,
  length: number,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, start + filled);
    if (bytesRead === 0) break; // The file cannot shrink (objects are immutable); defensive only.
    filled += bytesRead;
  }
  return filled === length ? bytes : bytes.subarray(0, filled);
}

/** Errnos meaning "no object under this key" (a missing file, or a path through a file). */
export const ABSENT_ERRNOS: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR']);

export interface ErrnoError extends Error {
  readonly code: string;
}

/** A Node system error (`code` like 'ENOENT'); our own typed errors carry a `code` too. */
export function isErrno(error: unknown): error is ErrnoError {
  return (
    error instanceof Error &&
    !isStorageError(error) &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

export function describe(error: unknown): string {
  if (isErrno(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
