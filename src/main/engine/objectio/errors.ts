/**
 * The closed set of storage errors. Every backend maps its failures onto exactly these, so
 * protocols above decide on one meaning per clash. Messages name the key and the endpoint.
 */
import { CairnError } from '../errors';

export type StorageErrorCode =
  'AlreadyExists' | 'NotFound' | 'Unavailable' | 'OutcomeUnknown' | 'Backend';

export abstract class StorageError extends CairnError {
  abstract override readonly code: StorageErrorCode;
  constructor(
    code: StorageErrorCode,
    readonly key: string,
    readonly endpoint: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(code, `${reason}: ${key} at ${endpoint}`, { key, endpoint }, options);
  }
}

/** A create-if-absent found the key taken. */
export class AlreadyExistsError extends StorageError {
  override readonly code = 'AlreadyExists' as const;
  constructor(key: string, endpoint: string) {
    super('AlreadyExists', key, endpoint, 'object already exists');
  }
}

export class NotFoundError extends StorageError {
  override readonly code = 'NotFound' as const;
  constructor(key: string, endpoint: string) {
    super('NotFound', key, endpoint, 'object not found');
  }
}

/** Transient: throttling, 5xx, timeouts, resets. The same call may succeed later. */
export class UnavailableError extends StorageError {
  override readonly code = 'Unavailable' as const;
  constructor(key: string, endpoint: string, reason: string, options?: { cause?: unknown }) {
    super('Unavailable', key, endpoint, `storage unavailable (${reason})`, options);
  }
}

/** A create whose response was lost or was a 5xx: it may have applied. Read the key back. */
export class OutcomeUnknownError extends StorageError {
  override readonly code = 'OutcomeUnknown' as const;
  constructor(key: string, endpoint: string, reason: string, options?: { cause?: unknown }) {
    super('OutcomeUnknown', key, endpoint, `outcome of create unknown (${reason})`, options);
  }
}

/** Terminal: access denied, no such bucket, bad request, bad range. */
export class BackendError extends StorageError {
  override readonly code = 'Backend' as const;
  constructor(key: string, endpoint: string, reason: string, options?: { cause?: unknown }) {
    super('Backend', key, endpoint, `storage error (${reason})`, options);
  }
}

export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof StorageError && (code === undefined || error.code === code);
}

/**
 * A read that would return more bytes than one call may hold (`MAX_GET_BYTES`), refused before
 * anything is allocated: the caller reads the object in ranges instead. Not a storage failure
 * (the object is there), so it is outside the closed set above.
 */
export class ObjectTooLargeError extends CairnError {
  constructor(
    readonly key: string,
    readonly endpoint: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      'ObjectTooLarge',
      `reading ${bytes} bytes at once exceeds the limit of ${limit}: ${key} at ${endpoint}`,
      { key, endpoint, bytes, limit },
    );
  }
}
