/**
 * How the local directory's failures read as storage errors: an absent path is NotFound, a
 * passing shortage of descriptors or I/O is Unavailable (worth another try), a refusal is a
 * Backend error naming the errno, a link on the key's path is `KeyCrossesLink`, and a storage
 * error already mapped passes through.
 */
import {
  BackendError,
  isStorageError,
  NotFoundError,
  ObjectTooLargeError,
  UnavailableError,
  type StorageError,
} from './errors';
import { ABSENT_ERRNOS, describe, isErrno } from './local-files';

const TRANSIENT_ERRNOS = new Set(['EIO', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR']);
export const DENIED_ERRNOS = new Set(['EACCES', 'EPERM', 'EROFS']);

export function localStorageError(
  error: unknown,
  key: string,
  endpoint: string,
): StorageError | Error {
  if (isStorageError(error) || error instanceof ObjectTooLargeError) return error;
  if (!isErrno(error)) return error instanceof Error ? error : new Error(String(error));
  // ELOOP: a link where the key's file should be (opened O_NOFOLLOW), or a cycle of links.
  if (error.code === 'ELOOP') return new KeyCrossesLinkError(key, endpoint);
  if (ABSENT_ERRNOS.has(error.code) || error.code === 'EISDIR')
    return new NotFoundError(key, endpoint);
  if (TRANSIENT_ERRNOS.has(error.code))
    return new UnavailableError(key, endpoint, describe(error), { cause: error });
  if (DENIED_ERRNOS.has(error.code))
    return new BackendError(key, endpoint, `access denied (${error.code})`, { cause: error });
  return new BackendError(key, endpoint, describe(error), { cause: error });
}

/**
 * A key whose path under the root crosses a symbolic link (a linked folder on the way, or a
 * link in place of the object): refused, never followed, so the store reads and writes nothing
 * outside its root (`local-confinement.ts`). Terminal, like any refusal: code `Backend`.
 */
export class KeyCrossesLinkError extends BackendError {
  constructor(key: string, endpoint: string) {
    super(key, endpoint, "the key's path crosses a symbolic link, which this store never follows");
  }
}
