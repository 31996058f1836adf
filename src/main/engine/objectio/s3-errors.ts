/**
 * Maps whatever the S3 SDK throws onto the closed set of storage errors (see
 * `notes/real-s3.md`). One pure function, so the table is tested without a server.
 *
 * The one asymmetry: on a conditional create (`If-None-Match: *`, sent without SDK retries)
 * a 5xx, a timeout or a lost response may have applied, so it is `OutcomeUnknown` and the caller
 * reads the key back; only failures that provably never reached the server stay `Unavailable`.
 * Must never map an ambiguous create failure to `AlreadyExists` or `Unavailable`.
 */
import {
  AlreadyExistsError,
  BackendError,
  NotFoundError,
  OutcomeUnknownError,
  UnavailableError,
  type StorageError,
} from './errors';

export type S3Operation =
  'putIfAbsent' | 'get' | 'head' | 'listPage' | 'delete' | 'deleteMany' | 'createBucket';

export interface S3ErrorContext {
  readonly operation: S3Operation;
  /** The key (or prefix, or bucket) the call was about, for the message. */
  readonly key: string;
  readonly endpoint: string;
}

/** What the SDK's errors carry; every field optional because network errors carry none. */
export interface S3ErrorShape {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly $fault?: 'client' | 'server';
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/** The connection was never made: the request cannot have applied. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
/** The connection broke or stalled: the request may or may not have applied. */
const CONNECTION_LOST = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ESOCKETTIMEDOUT',
  'EPROTO',
]);
const TIMEOUT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
]);
const THROTTLING_NAMES = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
]);
const NOT_FOUND_NAMES = new Set(['NoSuchKey', 'NotFound']);
/** A conflicting operation was in flight; the create did not apply and may be retried. */
const CONFLICT_NAMES = new Set(['ConditionalRequestConflict', 'OperationAborted']);

export function storageErrorFromS3(error: unknown, context: S3ErrorContext): StorageError {
  const { key, endpoint } = context;
  const shape = asShape(error);
  const status = shape.$metadata?.httpStatusCode;
  const reason = describeS3Error(shape, status);
  const options = { cause: error };
  const create = context.operation === 'putIfAbsent';

  if (create && (status === 412 || shape.name === 'PreconditionFailed'))
    return new AlreadyExistsError(key, endpoint);
  if (shape.name === 'NoSuchBucket') return new BackendError(key, endpoint, reason, options);
  if (NOT_FOUND_NAMES.has(shape.name ?? '') || status === 404)
    return new NotFoundError(key, endpoint);
  if (create && (status === 409 || CONFLICT_NAMES.has(shape.name ?? '')))
    return new UnavailableError(key, endpoint, reason, options);

  const transient = isTransient(shape, status);
  if (transient === 'never-sent') return new UnavailableError(key, endpoint, reason, options);
  if (transient === 'maybe-applied') {
    return create
      ? new OutcomeUnknownError(key, endpoint, reason, options)
      : new UnavailableError(key, endpoint, reason, options);
  }
  return new BackendError(key, endpoint, reason, options);
}

/** The HTTP status S3 gives each per-key error code of a `DeleteObjects` answer. */
const BATCH_KEY_STATUS: Readonly<Record<string, number>> = {
  InternalError: 500,
  ServiceUnavailable: 503,
  SlowDown: 503,
  AccessDenied: 403,
  NoSuchKey: 404,
};

/**
 * One key's error in a `DeleteObjects` answer (its `Code` and `Message`), mapped as the same
 * failure of a `DeleteObject` of that key would be: `InternalError` and throttling are
 * `Unavailable` (worth another try), `AccessDenied` is `Backend`, `NoSuchKey` is `NotFound`.
 */
export function storageErrorOfBatchKey(
  code: string | undefined,
  message: string | undefined,
  key: string,
  endpoint: string,
): StorageError {
  const status = code === undefined ? undefined : BATCH_KEY_STATUS[code];
  return storageErrorFromS3(
    { name: code, code, message, $metadata: { httpStatusCode: status } },
    { operation: 'delete', key, endpoint },
  );
}

/** 'maybe-applied' for 5xx, throttling, timeouts and broken connections; null when terminal. */
function isTransient(
  shape: S3ErrorShape,
  status: number | undefined,
): 'never-sent' | 'maybe-applied' | null {
  if (shape.code !== undefined && NEVER_SENT.has(shape.code)) return 'never-sent';
  if (status !== undefined && status >= 500) return 'maybe-applied';
  if (status === 429 || THROTTLING_NAMES.has(shape.name ?? '')) return 'maybe-applied';
  if (TIMEOUT_NAMES.has(shape.name ?? '')) return 'maybe-applied';
  if (shape.code !== undefined && CONNECTION_LOST.has(shape.code)) return 'maybe-applied';
  if (status === undefined && shape.$fault === 'server') return 'maybe-applied';
  return null;
}

function describeS3Error(shape: S3ErrorShape, status: number | undefined): string {
  const name = shape.code ?? shape.name ?? 'error';
  // The SDK's message is 'UnknownError' for bodiless responses; the name and status say more.
  const message =
    shape.message && shape.message !== 'UnknownError' && shape.message !== name
      ? `: ${shape.message}`
      : '';
  return status === undefined ? `${name}${message}` : `${name}, HTTP ${status}${message}`;
}

function asShape(error: unknown): S3ErrorShape {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  return error;
}
