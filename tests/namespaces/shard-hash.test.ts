import { describe, expect, it } from 'vitest';
import { fnv1a64, shardLabel, shardOfName } from '../../src/main/engine/namespaces/shard-hash';

describe('FNV-1a 64', () => {
  it.each([
    ['', 0xcbf29ce484222325n],
    ['a', 0xaf63dc4c8601ec8cn],
    ['foobar', 0x85944171f73967e8n],
  ])('hashes %j to the published vector', (text, expected) => {
    expect(fnv1a64(text)).toBe(expected);
  });

  it('hashes UTF-8 bytes, not UTF-16 code units', () => {
    // "é" is two UTF-8 bytes: hashing them in turn from the basis must give the same value.
    const prime = 0x100000001b3n;
    const mask = (1n << 64n) - 1n;
    const step = (hash: bigint, byte: number): bigint => ((hash ^ BigInt(byte)) * prime) & mask;
    expect(fnv1a64('é')).toBe(step(step(0xcbf29ce484222325n, 0xc3), 0xa9));
  });

  it('maps a name to hash mod count', () => {
    expect(shardOfName('foobar', 16)).toBe(Number(0x85944171f73967e8n % 16n));
    expect(shardOfName('foobar', 7)).toBe(Number(0x85944171f73967e8n % 7n));
    expect(shardOfName('anything', 1)).toBe(0);
  });

  it('labels shards with at least two digits', () => {
    expect([0, 7, 15, 123].map(shardLabel)).toEqual(['00', '07', '15', '123']);
  });
});
