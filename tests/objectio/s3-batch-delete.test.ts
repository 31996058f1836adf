/**
 * S3ObjectIo's batch delete against a scripted server (the client's behaviour only; S3's
 * semantics run in the batch delete contract on the real S3 lane): one DeleteObjects request
 * per attempt with the keys in ascending order, a key failed transiently sent again alone, a
 * key refused for good reported at once, and a failure of the whole request thrown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeScriptedServers, failWith, scriptedS3, type Script } from './scripted-s3';
import { storageFailure } from './object-io-contract';

afterEach(closeScriptedServers);

/** Answers each DeleteObjects with the per-key errors `errorsOf` gives for the n-th request. */
function deleteResult(errorsOf: (n: number) => [key: string, code: string][]): Script {
  let n = 0;
  return (_request, response) => {
    const errors = errorsOf(++n).map(
      ([key, code]) => `<Error><Key>${key}</Key><Code>${code}</Code><Message>m</Message></Error>`,
    );
    response.writeHead(200, { 'content-type': 'application/xml' });
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?><DeleteResult>${errors.join('')}</DeleteResult>`,
    );
  };
}

const keysIn = (body: Buffer): string[] =>
  [...body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]!);

describe('S3ObjectIo.deleteMany', () => {
  it('sends the keys ascending in one request, retries a transient key, reports a refused one', async () => {
    const s3 = await scriptedS3(
      deleteResult((n) =>
        n === 1
          ? [
              ['k/b', 'InternalError'],
              ['k/c', 'AccessDenied'],
            ]
          : [],
      ),
    );
    const result = await s3.io().deleteMany(['k/c', 'k/a', 'k/b']);
    expect(s3.requests).toEqual(['POST', 'POST']);
    expect(keysIn(s3.bodies[0]!)).toEqual(['k/a', 'k/b', 'k/c']);
    expect(keysIn(s3.bodies[1]!)).toEqual(['k/b']);
    expect(result.deleted).toEqual(['k/a', 'k/b']);
    expect(result.failed.map(({ key, error }) => [key, error.code])).toEqual([['k/c', 'Backend']]);
  });

  it('reports a key still failing after its last attempt as Unavailable', async () => {
    const s3 = await scriptedS3(deleteResult(() => [['k/a', 'SlowDown']]));
    const result = await s3.io().deleteMany(['k/a']);
    expect(s3.requests).toHaveLength(3);
    expect(result.failed.map(({ key, error }) => [key, error.code])).toEqual([
      ['k/a', 'Unavailable'],
    ]);
    expect(result.deleted).toEqual([]);
  });

  it('throws a failure of the whole request', async () => {
    const s3 = await scriptedS3(failWith(403, 'AccessDenied'));
    await storageFailure(s3.io().deleteMany(['k/a', 'k/b']), 'Backend', 'k/a');
  });
});
