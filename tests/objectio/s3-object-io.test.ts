/**
 * S3ObjectIo beyond the contract: the error mapping table (pure), range headers, the retry
 * policy (a conditional create is sent once; reads are retried) proven against a tiny HTTP
 * server that counts requests, and terminal errors from the real S3 lane.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { StorageErrorCode } from '../../src/main/engine/objectio/errors';
import { storageErrorFromS3, type S3Operation } from '../../src/main/engine/objectio/s3-errors';
import {
  createBucketIfMissing,
  rangeHeaderOf,
  S3ObjectIo,
  s3EndpointLabel,
} from '../../src/main/engine/objectio/s3-object-io';
import { freshBucketName, s3Lane } from '../support/s3';
import { bytesOf, storageFailure } from './object-io-contract';
import { closeScriptedServers, failWith, scriptedS3 } from './scripted-s3';

/** An error shaped like the SDK's: service errors carry a name, $fault and an HTTP status. */
function serviceError(name: string, status: number): Error {
  return Object.assign(new Error('UnknownError'), {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  });
}
const networkError = (code: string): Error =>
  Object.assign(new Error(`${code} happened`), { code });
const timeoutError = (): Error =>
  Object.assign(new Error('socket timed out'), { name: 'TimeoutError' });

describe('storageErrorFromS3', () => {
  const rows: ReadonlyArray<[string, S3Operation, Error, StorageErrorCode]> = [
    [
      '412 on a conditional create',
      'putIfAbsent',
      serviceError('PreconditionFailed', 412),
      'AlreadyExists',
    ],
    [
      '500 on a conditional create (radosgw under contention)',
      'putIfAbsent',
      serviceError('InternalError', 500),
      'OutcomeUnknown',
    ],
    [
      '503 SlowDown on a conditional create',
      'putIfAbsent',
      serviceError('SlowDown', 503),
      'OutcomeUnknown',
    ],
    ['a timeout on a conditional create', 'putIfAbsent', timeoutError(), 'OutcomeUnknown'],
    [
      'a reset socket on a conditional create',
      'putIfAbsent',
      networkError('ECONNRESET'),
      'OutcomeUnknown',
    ],
    [
      'a refused connection on a conditional create',
      'putIfAbsent',
      networkError('ECONNREFUSED'),
      'Unavailable',
    ],
    [
      '409 ConditionalRequestConflict on a create',
      'putIfAbsent',
      serviceError('ConditionalRequestConflict', 409),
      'Unavailable',
    ],
    ['403 on a create', 'putIfAbsent', serviceError('AccessDenied', 403), 'Backend'],
    ['NoSuchBucket on a create', 'putIfAbsent', serviceError('NoSuchBucket', 404), 'Backend'],
    ['500 on a get', 'get', serviceError('InternalError', 500), 'Unavailable'],
    ['503 SlowDown on a list', 'listPage', serviceError('SlowDown', 503), 'Unavailable'],
    ['429 on a head', 'head', serviceError('TooManyRequests', 429), 'Unavailable'],
    ['a timeout on a get', 'get', timeoutError(), 'Unavailable'],
    ['a reset socket on a delete', 'delete', networkError('ECONNRESET'), 'Unavailable'],
    ['a refused connection on a get', 'get', networkError('ECONNREFUSED'), 'Unavailable'],
    ['a 400 RequestTimeout on a get', 'get', serviceError('RequestTimeout', 400), 'Unavailable'],
    ['NoSuchKey on a get', 'get', serviceError('NoSuchKey', 404), 'NotFound'],
    ['NotFound on a head', 'head', serviceError('NotFound', 404), 'NotFound'],
    ['NoSuchBucket on a get', 'get', serviceError('NoSuchBucket', 404), 'Backend'],
    ['NoSuchBucket on a list', 'listPage', serviceError('NoSuchBucket', 404), 'Backend'],
    ['403 on a get', 'get', serviceError('AccessDenied', 403), 'Backend'],
    [
      'InvalidAccessKeyId on a list',
      'listPage',
      serviceError('InvalidAccessKeyId', 403),
      'Backend',
    ],
    ['400 on a delete', 'delete', serviceError('InvalidArgument', 400), 'Backend'],
    ['416 on a get', 'get', serviceError('InvalidRange', 416), 'Backend'],
    ['412 on a get (not a create)', 'get', serviceError('PreconditionFailed', 412), 'Backend'],
    [
      'a credentials error',
      'get',
      Object.assign(new Error('Could not load credentials'), { name: 'CredentialsProviderError' }),
      'Backend',
    ],
  ];
  for (const [label, operation, error, code] of rows) {
    it(`maps ${label} to ${code}`, () => {
      const mapped = storageErrorFromS3(error, {
        operation,
        key: 'wal/0001',
        endpoint: 's3://b at http://h:1',
      });
      expect(mapped.code).toBe(code);
      expect(mapped.message).toContain('wal/0001');
      expect(mapped.message).toContain('s3://b at http://h:1');
    });
  }

  it('names the S3 error code and status instead of the SDK\'s "UnknownError"', () => {
    const mapped = storageErrorFromS3(serviceError('AccessDenied', 403), {
      operation: 'get',
      key: 'k',
      endpoint: 'e',
    });
    expect(mapped.message).toContain('AccessDenied, HTTP 403');
    expect(mapped.message).not.toContain('UnknownError');
  });
});

describe('S3 range headers and endpoint labels', () => {
  it('turns ranges into HTTP Range headers and refuses malformed ones', () => {
    expect(rangeHeaderOf(undefined)).toBeUndefined();
    expect(rangeHeaderOf({ start: 2, end: 5 })).toBe('bytes=2-5');
    expect(rangeHeaderOf({ start: 7 })).toBe('bytes=7-');
    expect(rangeHeaderOf({ suffix: 3 })).toBe('bytes=-3');
    for (const bad of [
      { suffix: 0 },
      { suffix: -1 },
      { start: -1 },
      { start: 5, end: 2 },
      { start: 1.5 },
      { start: Number.NaN },
    ]) {
      expect(rangeHeaderOf(bad)).toBeNull();
    }
  });

  it('labels the endpoint as s3://bucket at the address', () => {
    expect(s3EndpointLabel({ bucket: 'b', endpoint: 'http://127.0.0.1:7480' })).toBe(
      's3://b at http://127.0.0.1:7480',
    );
    expect(s3EndpointLabel({ bucket: 'b', region: 'eu-west-1' })).toBe(
      's3://b at https://s3.eu-west-1.amazonaws.com',
    );
    expect(
      new S3ObjectIo({
        bucket: 'b',
        endpoint: 'http://h:1',
        credentials: { accessKeyId: 'a', secretAccessKey: 's' },
      }).endpoint,
    ).toBe('s3://b at http://h:1');
  });
});

afterEach(closeScriptedServers);

describe('S3ObjectIo retry policy', () => {
  it('sends a conditional create once: a 500 is OutcomeUnknown, never retried into a false 412', async () => {
    const s3 = await scriptedS3(failWith(500, 'InternalError'));
    await storageFailure(s3.io().putIfAbsent('k', bytesOf('x')), 'OutcomeUnknown', 'k');
    expect(s3.requests).toEqual(['PUT']);
  });

  it('sends a conditional create once when the connection drops before the answer', async () => {
    const s3 = await scriptedS3((request) => request.socket.destroy());
    await storageFailure(s3.io().putIfAbsent('k', bytesOf('x')), 'OutcomeUnknown', 'k');
    expect(s3.requests).toEqual(['PUT']);
  });

  it('gives up on a store that never answers: OutcomeUnknown for a create, Unavailable for a read', async () => {
    const s3 = await scriptedS3(() => undefined); // holds every request open
    const io = s3.io({ requestTimeoutMs: 150 });
    await storageFailure(io.putIfAbsent('k', bytesOf('x')), 'OutcomeUnknown', 'k');
    expect(s3.requests).toEqual(['PUT']);
    await storageFailure(io.head('k'), 'Unavailable', 'k');
    io.destroy();
  });

  it('retries reads on 500, then reports Unavailable', async () => {
    const s3 = await scriptedS3(failWith(500, 'InternalError'));
    await storageFailure(s3.io().get('k'), 'Unavailable', 'k');
    expect(s3.requests).toEqual(['GET', 'GET', 'GET']);
  });

  it('does not retry a terminal 403', async () => {
    const s3 = await scriptedS3(failWith(403, 'AccessDenied'));
    await storageFailure(s3.io().delete('k'), 'Backend', 'k');
    expect(s3.requests).toEqual(['DELETE']);
  });

  it('reports a refused connection as Unavailable, even for a create', async () => {
    const s3 = await scriptedS3(failWith(500, 'InternalError'));
    const io = s3.io();
    await s3.close();
    await storageFailure(io.putIfAbsent('k', bytesOf('x')), 'Unavailable', 'k');
  });
});

const lane = s3Lane();
describe.skipIf(!lane)('S3ObjectIo on a real S3: terminal errors', () => {
  afterAll(() => lane?.dispose());

  it('reports a missing bucket as Backend (NotFound for head, which gets no error body)', async () => {
    const io = new S3ObjectIo({ ...lane!.settings, bucket: freshBucketName('missing') });
    await storageFailure(io.get('k'), 'Backend', 'k');
    await storageFailure(io.putIfAbsent('k', bytesOf('x')), 'Backend', 'k');
    await storageFailure(io.listPage('p/'), 'Backend', 'p/');
    await storageFailure(io.head('k'), 'NotFound', 'k');
    io.destroy();
  });

  it('reports wrong credentials as Backend', async () => {
    const io = await lane!.makeIo('creds');
    const intruder = new S3ObjectIo({
      ...lane!.settings,
      bucket: io.bucket,
      credentials: { accessKeyId: 'nobody', secretAccessKey: 'wrong' },
    });
    await storageFailure(intruder.putIfAbsent('k', bytesOf('x')), 'Backend', 'k');
    await storageFailure(intruder.get('k'), 'Backend', 'k');
    await storageFailure(io.get('k'), 'NotFound', 'k');
    intruder.destroy();
  });

  it('creates a bucket idempotently', async () => {
    const config = { ...lane!.settings, bucket: freshBucketName('idem') };
    await createBucketIfMissing(config);
    await createBucketIfMissing(config);
    const io = new S3ObjectIo(config);
    await io.putIfAbsent('k', bytesOf('x'));
    expect((await io.head('k')).size).toBe(1);
    io.destroy();
  });
});
