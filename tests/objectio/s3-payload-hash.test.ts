import { createHash, createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OFF_THREAD_FROM_BYTES,
  PayloadSha256,
} from '../../src/main/engine/objectio/s3-payload-hash';

async function digestOf(chunks: Uint8Array[], secret?: string | Uint8Array): Promise<string> {
  const hash = new PayloadSha256(secret);
  for (const chunk of chunks) hash.update(chunk);
  return Buffer.from(await hash.digest()).toString('hex');
}

function expected(chunks: Uint8Array[], secret?: string | Uint8Array): string {
  const hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

describe('the S3 client payload hash', () => {
  it('gives the SHA-256 of any body, below and above the off-thread size, in any chunks', async () => {
    const sizes = fc.oneof(
      fc.integer({ min: 0, max: 200 }),
      fc.integer({ min: OFF_THREAD_FROM_BYTES - 2, max: OFF_THREAD_FROM_BYTES + 2 }),
      fc.integer({ min: OFF_THREAD_FROM_BYTES, max: 3 * OFF_THREAD_FROM_BYTES }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(sizes, { minLength: 1, maxLength: 3 }), async (lengths) => {
        const chunks = lengths.map((length) => new Uint8Array(randomBytes(length)));
        expect(await digestOf(chunks)).toBe(expected(chunks));
      }),
      { numRuns: 40 },
    );
  });

  it('is an HMAC when keyed, with a string or a bytes key, whatever the size', async () => {
    const big = new Uint8Array(randomBytes(OFF_THREAD_FROM_BYTES + 10));
    const key = new Uint8Array(randomBytes(32));
    expect(await digestOf([big], 'AWS4secret')).toBe(expected([big], 'AWS4secret'));
    expect(await digestOf([big], key)).toBe(expected([big], key));
  });

  it('starts over after reset', async () => {
    const hash = new PayloadSha256();
    hash.update(new Uint8Array([1, 2, 3]));
    hash.reset();
    const body = new Uint8Array(randomBytes(OFF_THREAD_FROM_BYTES));
    hash.update(body);
    expect(Buffer.from(await hash.digest()).toString('hex')).toBe(expected([body]));
  });
});
