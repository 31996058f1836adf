/**
 * FaultyObjectIo: each fault kind on each operation, rule counts, key patterns, `fired`,
 * `clear`, and the store that ignores create-if-absent.
 */
import { describe, expect, it } from 'vitest';
import {
  FaultyObjectIo,
  type FaultKind,
  type FaultOp,
} from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { StorageErrorCode } from '../../src/main/engine/objectio/errors';
import { bytesOf, storageFailure } from './object-io-contract';

async function seeded(): Promise<{ inner: MemoryObjectIo; faulty: FaultyObjectIo }> {
  const inner = new MemoryObjectIo();
  await inner.putIfAbsent('seed/k', bytesOf('seed bytes'));
  return { inner, faulty: new FaultyObjectIo(inner) };
}

/** Each operation on a key that suits it: creates on a new key, the rest on the seeded one. */
const calls: Record<FaultOp, (io: FaultyObjectIo) => Promise<unknown>> = {
  putIfAbsent: (io) => io.putIfAbsent('seed/new', bytesOf('new bytes')),
  get: (io) => io.get('seed/k'),
  head: (io) => io.head('seed/k'),
  listPage: (io) => io.listPage('seed/'),
  delete: (io) => io.delete('seed/k'),
  deleteMany: (io) => io.deleteMany(['seed/k']),
};

/** What the inner store holds afterwards: did the call apply? */
async function applied(op: FaultOp, inner: MemoryObjectIo): Promise<boolean> {
  if (op === 'putIfAbsent')
    return inner.head('seed/new').then(
      () => true,
      () => false,
    );
  if (op === 'delete' || op === 'deleteMany')
    return inner.head('seed/k').then(
      () => false,
      () => true,
    );
  return false; // Reads change nothing.
}

// The failure matrix: kind x op -> the error the caller sees and whether the store changed.
const matrix: ReadonlyArray<[FaultKind, FaultOp, StorageErrorCode, boolean]> = [
  ['unavailable', 'putIfAbsent', 'Unavailable', false],
  ['unavailable', 'get', 'Unavailable', false],
  ['unavailable', 'head', 'Unavailable', false],
  ['unavailable', 'listPage', 'Unavailable', false],
  ['unavailable', 'delete', 'Unavailable', false],
  ['backend', 'putIfAbsent', 'Backend', false],
  ['backend', 'get', 'Backend', false],
  ['backend', 'delete', 'Backend', false],
  ['apply-then-lose', 'putIfAbsent', 'OutcomeUnknown', true],
  ['apply-then-5xx', 'putIfAbsent', 'OutcomeUnknown', true],
  ['apply-then-lose', 'delete', 'Unavailable', true],
  ['apply-then-5xx', 'delete', 'Unavailable', true],
  ['apply-then-lose', 'get', 'Unavailable', false],
  ['unavailable', 'deleteMany', 'Unavailable', false],
  ['apply-then-lose', 'deleteMany', 'Unavailable', true],
];

describe('FaultyObjectIo', () => {
  for (const [kind, op, code, changed] of matrix) {
    it(`${kind} on ${op} fails with ${code}${changed ? ' after applying' : ' without applying'}`, async () => {
      const { inner, faulty } = await seeded();
      faulty.inject({ op, kind, count: 1 });
      await storageFailure(calls[op](faulty), code, 'seed/');
      expect(await applied(op, inner)).toBe(changed);
      await calls[op](faulty).catch(() => undefined); // count 1: the rule is spent
      expect(faulty.fired).toBe(1);
    });
  }

  it('applies delete rules to a batch key by key, reporting each failure and throwing none', async () => {
    const { inner, faulty } = await seeded();
    await inner.putIfAbsent('seed/a', bytesOf('a'));
    await inner.putIfAbsent('seed/b', bytesOf('b'));
    faulty.inject({ op: 'delete', key: /seed\/a$/, kind: 'unavailable' });
    faulty.inject({ op: 'delete', key: /seed\/b$/, kind: 'apply-then-lose' });
    const result = await faulty.deleteMany(['seed/k', 'seed/b', 'seed/a', 'seed/absent']);
    expect(result.deleted).toEqual(['seed/absent', 'seed/k']);
    expect(result.failed.map(({ key, error }) => [key, error.code])).toEqual([
      ['seed/a', 'Unavailable'],
      ['seed/b', 'Unavailable'],
    ]);
    expect(
      (await inner.list('seed/')[Symbol.asyncIterator]().next()).value?.objects.map(
        (o: { key: string }) => o.key,
      ),
    ).toEqual(['seed/a']);
  });

  it('apply-then-lose on a create that the store refused still reports OutcomeUnknown', async () => {
    const { faulty } = await seeded();
    faulty.inject({ op: 'putIfAbsent', kind: 'apply-then-lose' });
    await storageFailure(
      faulty.putIfAbsent('seed/k', bytesOf('other')),
      'OutcomeUnknown',
      'seed/k',
    );
    expect(Buffer.from((await faulty.get('seed/k')).bytes).toString()).toBe('seed bytes');
  });

  it('delay passes the call through with its result', async () => {
    const { faulty } = await seeded();
    faulty.inject({ op: 'get', kind: 'delay', delayMs: 5 });
    expect(Buffer.from((await faulty.get('seed/k')).bytes).toString()).toBe('seed bytes');
    await storageFailure(faulty.get('seed/absent'), 'NotFound', 'seed/absent');
    expect(faulty.fired).toBe(2);
  });

  it('corrupt flips a byte of a get, keeps size and ETag, and never matches other operations', async () => {
    const { inner, faulty } = await seeded();
    faulty.inject({ op: 'any', kind: 'corrupt', count: 1 });
    expect((await faulty.head('seed/k')).size).toBe(10);
    expect(faulty.fired).toBe(0);
    const clean = await inner.get('seed/k');
    const damaged = await faulty.get('seed/k');
    const differing = [...damaged.bytes].filter((byte, i) => byte !== clean.bytes[i]);
    expect(differing).toHaveLength(1);
    expect({ size: damaged.size, etag: damaged.etag, length: damaged.bytes.length }).toEqual({
      size: clean.size,
      etag: clean.etag,
      length: 10,
    });
    expect(Buffer.from((await inner.get('seed/k')).bytes).toString()).toBe('seed bytes'); // the store is intact
    expect(faulty.fired).toBe(1);
  });

  it('consumes a rule by its count, then passes calls through', async () => {
    const { faulty } = await seeded();
    faulty.inject({ op: 'get', kind: 'unavailable', count: 3 });
    for (let i = 0; i < 3; i++) await storageFailure(faulty.get('seed/k'), 'Unavailable', 'seed/k');
    expect((await faulty.get('seed/k')).size).toBe(10);
    expect(faulty.fired).toBe(3);
  });

  it('fires an unlimited rule on every matching call until cleared', async () => {
    const { faulty } = await seeded();
    faulty.inject({ op: 'any', kind: 'unavailable' });
    for (const op of Object.keys(calls) as FaultOp[])
      await storageFailure(calls[op](faulty), 'Unavailable');
    expect(faulty.fired).toBe(6);
    faulty.clear();
    expect((await faulty.get('seed/k')).size).toBe(10);
    expect(faulty.fired).toBe(6);
  });

  it('matches only keys the pattern accepts (global patterns included) and only the named operation', async () => {
    const { faulty } = await seeded();
    await faulty.putIfAbsent('wal/0001', bytesOf('w'));
    faulty.inject({ op: 'get', key: /^wal\//g, kind: 'backend' });
    await storageFailure(faulty.get('wal/0001'), 'Backend', 'wal/0001');
    await storageFailure(faulty.get('wal/0001'), 'Backend', 'wal/0001'); // lastIndex does not leak
    expect((await faulty.get('seed/k')).size).toBe(10);
    expect((await faulty.head('wal/0001')).size).toBe(1);
    expect(faulty.fired).toBe(2);
  });

  it('uses the first live matching rule, in injection order', async () => {
    const { faulty } = await seeded();
    faulty.inject({ op: 'get', kind: 'backend', count: 1 });
    faulty.inject({ op: 'get', kind: 'unavailable', count: 1 });
    await storageFailure(faulty.get('seed/k'), 'Backend');
    await storageFailure(faulty.get('seed/k'), 'Unavailable');
    expect((await faulty.get('seed/k')).size).toBe(10);
  });

  it('lists through listPage, so list pages see the faults too', async () => {
    const { faulty } = await seeded();
    faulty.inject({ op: 'listPage', kind: 'unavailable', count: 1 });
    const pages = faulty.list('seed/')[Symbol.asyncIterator]();
    await storageFailure(pages.next(), 'Unavailable', 'seed/');
    const retried = faulty.list('seed/')[Symbol.asyncIterator]();
    expect(
      (await retried.next()).value?.objects.map((object: { key: string }) => object.key),
    ).toEqual(['seed/k']);
    expect(faulty.endpoint).toBe('memory');
  });

  it('with ignoreCreateIfAbsent, creates overwrite and never fail with AlreadyExists', async () => {
    const inner = new MemoryObjectIo();
    const overwriting = new FaultyObjectIo(inner, { ignoreCreateIfAbsent: true });
    await overwriting.putIfAbsent('o/k', bytesOf('first'));
    await overwriting.putIfAbsent('o/k', bytesOf('second'));
    expect(Buffer.from((await inner.get('o/k')).bytes).toString()).toBe('second');
  });
});
