/**
 * `S3ObjectIo`: ObjectIo on any S3 that honours `If-None-Match: *` (AWS, MinIO, radosgw).
 *
 * Owns the translation of ObjectIo calls into S3 requests and of their failures into storage
 * errors; the SDK runs them on the process's S3 thread (`S3Thread`), off the thread that hosts
 * the engine. Each store has two clients there: reads, lists, heads and deletes use the SDK's
 * standard retries; the conditional create is sent once (`maxAttempts: 1`), because a retried
 * create that had applied comes back 412 and would look like someone else's (the caller reads
 * back on `OutcomeUnknown` instead).
 * Each client's HTTP agent keeps up to `S3_MAX_SOCKETS` sockets: the ceiling the store's I/O
 * controller may climb to (`link`), so no request it grants waits inside the SDK for a socket.
 * Batch deletes are one `DeleteObjects` request per batch, keys in ascending order; a key the
 * store failed transiently is sent again in a smaller batch, up to `BATCH_DELETE_ATTEMPTS`.
 * Credentials come from the SDK's default chain or a named profile unless given explicitly;
 * this module never stores or logs a secret.
 */
import type { _Object } from '@aws-sdk/client-s3';
import { setTimeout as sleep } from 'node:timers/promises';
import { batchResult, checkedDeleteBatch } from './batch-delete';
import { checksummedHere, type ChecksummedRead, type ChecksumRequest } from './checksum';
import { BackendError, isStorageError, ObjectTooLargeError, type StorageError } from './errors';
import type { LinkShape } from './link/backend-link';
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
} from './object-io';
import { storageErrorFromS3, storageErrorOfBatchKey, type S3Operation } from './s3-errors';
import { sharedS3Thread, type S3Thread, type S3ThreadClientConfig } from './s3-thread';

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface S3ObjectIoConfig {
  readonly bucket: string;
  /** Default 'us-east-1'. */
  readonly region?: string;
  /** e.g. 'http://127.0.0.1:7480'; AWS's regional endpoint when absent. */
  readonly endpoint?: string;
  readonly forcePathStyle?: boolean;
  /** A named profile from the shared config files (SSO included). */
  readonly profile?: string;
  /** Explicit keys (tests); otherwise the SDK's default credential chain. */
  readonly credentials?: S3Credentials;
  /** Longest a request and its response may take; default 60 s. A full radosgw hangs writes. */
  readonly requestTimeoutMs?: number;
}

export const DEFAULT_S3_REGION = 'us-east-1';
export const DEFAULT_S3_REQUEST_TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * Sockets each client's agent keeps (the SDK's default is 50): at a 50 ms round trip a store
 * answering ~1,000 requests a second wants 50-100 in flight, and the controller climbs past
 * 64 only where the answers still come back unstretched.
 */
export const S3_MAX_SOCKETS = 128;
/** Sends of a batch delete's keys that the store failed transiently (the first included). */
const BATCH_DELETE_ATTEMPTS = 3;
const BATCH_DELETE_BACKOFF_MS = 100;

export class S3ObjectIo implements ObjectIo {
  readonly endpoint: string;
  readonly bucket: string;
  readonly link: LinkShape = { remote: true, maxInFlight: S3_MAX_SOCKETS };
  private readonly thread: S3Thread;
  /** This store's clients on the thread. */
  private readonly client: number;

  constructor(config: S3ObjectIoConfig, thread: S3Thread = sharedS3Thread()) {
    this.bucket = config.bucket;
    this.endpoint = s3EndpointLabel(config);
    this.thread = thread;
    this.client = thread.open(clientConfigOf(config));
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    const input = {
      Bucket: this.bucket,
      Key: key,
      Body: bytes,
      ContentLength: bytes.length,
      IfNoneMatch: '*',
    };
    const response = await this.thread
      .send(this.client, 'PutObject', input, { once: true })
      .catch(this.failed('putIfAbsent', key));
    return { etag: unquote(response.ETag) };
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    return (await this.getObject(key, range)).got;
  }

  /**
   * The ranged `get`'s bytes (what `readRange` falls back to) with the checksum taken on the S3
   * thread as the body arrives, not on the engine's; its answer and errors are the `get`'s.
   */
  async readRangeChecksummed(
    key: string,
    start: number,
    length: number,
    checksum: ChecksumRequest,
  ): Promise<ChecksummedRead> {
    const { got, sum } = await this.getObject(key, { start, end: start + length - 1 }, checksum);
    return sum === undefined
      ? checksummedHere(got.bytes, checksum)
      : { bytes: got.bytes, checksum: sum };
  }

  private async getObject(
    key: string,
    range?: ByteRange,
    checksum?: ChecksumRequest,
  ): Promise<{ got: GetResult; sum?: number }> {
    const header = rangeHeaderOf(range);
    if (header === null) throw new BackendError(key, this.endpoint, 'invalid range');
    const input = { Bucket: this.bucket, Key: key, Range: header };
    const response = await this.thread
      .send(this.client, 'GetObject', input, { maxBodyBytes: MAX_GET_BYTES, checksum })
      .catch(this.failed('get', key));
    const length = response.ContentLength ?? 0;
    // Refused before the body was read: the thread dropped the stream, ending the transfer.
    if (length > MAX_GET_BYTES)
      throw new ObjectTooLargeError(key, this.endpoint, length, MAX_GET_BYTES);
    const bytes = response.body ?? new Uint8Array(0);
    const got = {
      bytes,
      etag: unquote(response.ETag),
      size: totalSizeOf(response.ContentRange) ?? bytes.length,
    };
    return { got, sum: response.body === undefined ? undefined : response.checksum };
  }

  async head(key: string): Promise<ObjectMeta> {
    const response = await this.thread
      .send(this.client, 'HeadObject', { Bucket: this.bucket, Key: key })
      .catch(this.failed('head', key));
    return {
      key,
      size: response.ContentLength ?? 0,
      etag: unquote(response.ETag),
      lastModified: response.LastModified,
    };
  }

  async listPage(prefix: string, options: ListOptions = {}): Promise<ListPage> {
    const input = {
      Bucket: this.bucket,
      Prefix: prefix === '' ? undefined : prefix,
      StartAfter: options.startAfter === '' ? undefined : options.startAfter,
      Delimiter: options.delimiter === '' ? undefined : options.delimiter,
      ContinuationToken: options.continuation,
      MaxKeys: Math.min(Math.max(1, options.pageSize ?? MAX_LIST_PAGE), MAX_LIST_PAGE),
    };
    const response = await this.thread
      .send(this.client, 'ListObjectsV2', input)
      .catch(this.failed('listPage', prefix));
    return {
      objects: (response.Contents ?? []).map(metaOfListed),
      commonPrefixes: (response.CommonPrefixes ?? []).flatMap((common) =>
        common.Prefix === undefined ? [] : [common.Prefix],
      ),
      continuation: response.IsTruncated === true ? response.NextContinuationToken : undefined,
    };
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  async delete(key: string): Promise<void> {
    await this.thread
      .send(this.client, 'DeleteObject', { Bucket: this.bucket, Key: key })
      .catch(this.failed('delete', key));
  }

  /**
   * One `DeleteObjects` (quiet: only failures answered) per attempt; keys that failed
   * transiently (`Unavailable`: InternalError, SlowDown) go again after a pause, the others are
   * reported at once. A key S3 says is not there was deleted already.
   */
  async deleteMany(keys: readonly string[]): Promise<BatchDeleteResult> {
    const ascending = checkedDeleteBatch(this.endpoint, keys);
    const failed = new Map<string, StorageError>();
    let pending = ascending;
    for (let attempt = 1; pending.length > 0; attempt++) {
      for (const key of pending) failed.delete(key);
      const errors = await this.deleteObjects(pending);
      pending = [];
      for (const [key, error] of errors) {
        if (isStorageError(error, 'NotFound')) continue;
        failed.set(key, error);
        if (isStorageError(error, 'Unavailable') && attempt < BATCH_DELETE_ATTEMPTS)
          pending.push(key);
      }
      if (pending.length > 0) await sleep(BATCH_DELETE_BACKOFF_MS * attempt);
    }
    return batchResult(ascending, failed);
  }

  /** The per-key errors of one `DeleteObjects` of `keys` (ascending); empty when all went. */
  private async deleteObjects(keys: readonly string[]): Promise<Map<string, StorageError>> {
    const input = {
      Bucket: this.bucket,
      Delete: { Objects: keys.map((key) => ({ Key: key })), Quiet: true },
    };
    const response = await this.thread
      .send(this.client, 'DeleteObjects', input)
      .catch(this.failed('deleteMany', keys[0] ?? ''));
    const errors = new Map<string, StorageError>();
    for (const error of response.Errors ?? []) {
      if (error.Key === undefined) continue;
      errors.set(
        error.Key,
        storageErrorOfBatchKey(error.Code, error.Message, error.Key, this.endpoint),
      );
    }
    return errors;
  }

  /** Closes the clients' sockets; the instance is unusable afterwards. */
  destroy(): void {
    this.thread.close(this.client);
  }

  private failed(operation: S3Operation, key: string): (error: unknown) => never {
    return (error) => {
      throw storageErrorFromS3(error, { operation, key, endpoint: this.endpoint });
    };
  }
}

/** Creates the bucket unless it exists and is ours (tests, and the connection "test"). */
export async function createBucketIfMissing(
  config: S3ObjectIoConfig,
  thread: S3Thread = sharedS3Thread(),
): Promise<void> {
  const client = thread.open(clientConfigOf(config));
  try {
    await thread.send(client, 'CreateBucket', { Bucket: config.bucket });
  } catch (error) {
    if (error instanceof Error && error.name === 'BucketAlreadyOwnedByYou') return;
    throw storageErrorFromS3(error, {
      operation: 'createBucket',
      key: config.bucket,
      endpoint: s3EndpointLabel(config),
    });
  } finally {
    thread.close(client);
  }
}

/** `s3://bucket at http://host:port`, for messages. */
export function s3EndpointLabel(
  config: Pick<S3ObjectIoConfig, 'bucket' | 'endpoint' | 'region'>,
): string {
  const region = config.region ?? DEFAULT_S3_REGION;
  return `s3://${config.bucket} at ${config.endpoint ?? `https://s3.${region}.amazonaws.com`}`;
}

function clientConfigOf(config: S3ObjectIoConfig): S3ThreadClientConfig {
  return {
    region: config.region ?? DEFAULT_S3_REGION,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    profile: config.profile,
    credentials: config.credentials,
    // The SDK's default streaming checksum gets 411 MissingContentLength from radosgw.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The SDK resolves a command's middleware stack once per command class, not per request:
    // nothing here changes a stack after the first request, and a GET's CPU on the S3 thread
    // fell 20-30% (2,000 GETs: 1.8-2.5 s warm, 3.7-3.9 s on a new thread, against 2.3-3.2 and
    // 4.9-5.3 without; docs/benchmarks.md).
    cacheMiddleware: true,
    // Without a timeout a store that stalls (a full OSD) hangs callers forever; a timed-out
    // create becomes OutcomeUnknown, a timed-out read Unavailable.
    requestHandler: {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      requestTimeout: config.requestTimeoutMs ?? DEFAULT_S3_REQUEST_TIMEOUT_MS,
      throwOnRequestTimeout: true,
      httpAgent: { maxSockets: S3_MAX_SOCKETS },
      httpsAgent: { maxSockets: S3_MAX_SOCKETS },
    },
  };
}

/**
 * The HTTP Range header for a range, or null when the range is malformed. Malformed ranges are
 * refused here because servers disagree on them (radosgw returns the whole object for
 * `bytes=-0`, AWS ignores `bytes=5-2`), and ObjectIo promises one meaning on every backend.
 */
export function rangeHeaderOf(range: ByteRange | undefined): string | null | undefined {
  if (range === undefined) return undefined;
  if ('suffix' in range)
    return isCount(range.suffix) && range.suffix > 0 ? `bytes=-${range.suffix}` : null;
  if (!isCount(range.start)) return null;
  if (range.end === undefined) return `bytes=${range.start}-`;
  return isCount(range.end) && range.end >= range.start
    ? `bytes=${range.start}-${range.end}`
    : null;
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** The object's full size from `bytes a-b/total`, absent for a whole-object read. */
function totalSizeOf(contentRange: string | undefined): number | undefined {
  const total = contentRange?.split('/')[1];
  return total === undefined || total === '*' ? undefined : Number(total);
}

function metaOfListed(object: _Object): ObjectMeta {
  return {
    key: object.Key ?? '',
    size: object.Size ?? 0,
    etag: unquote(object.ETag),
    lastModified: object.LastModified,
  };
}

/** S3 quotes ETags; ObjectIo hands them out bare (and `If-Match` wants them bare on radosgw). */
function unquote(etag: string | undefined): string {
  return (etag ?? '').replace(/^"(.*)"$/, '$1');
}
