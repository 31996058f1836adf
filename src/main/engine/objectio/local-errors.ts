/**
 * How the local directory's failures read as storage errors: an absent path is NotFound, a
 * passing shortage of descriptors or I/O is Unavailable (worth another try), a refusal is a
 * Backend error naming the errno, and a storage error already mapped passes through.
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
  if (ABSENT_ERRNOS.has(error.code) || error.code === 'EISDIR')
    return new NotFoundError(key, endpoint);
  if (TRANSIENT_ERRNOS.has(error.code))
    return new UnavailableError(key, endpoint, describe(error), { cause: error });
  if (DENIED_ERRNOS.has(error.code))
    return new BackendError(key, endpoint, `access denied (${error.code})`, { cause: error });
  return new BackendError(key, endpoint, describe(error), { cause: error });
}
