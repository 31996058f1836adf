/**
 * The create-if-absent probe: passes on every real backend, refuses writers on a store that
 * overwrites or denies creates (which can still be browsed), and leaves no probe key behind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStorageError } from '../../src/main/engine/objectio/errors';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import {
  assertWritable,
  CreateIfAbsentNotEnforcedError,
  PROBE_PREFIX,
  probeCreateIfAbsent,
  ReadOnlyStoreError,
} from '../../src/main/engine/objectio/probe';
import { s3Lane } from '../support/s3';
import { allPages } from './object-io-contract';

const lane = s3Lane();
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
  await lane?.dispose();
});

const backends: ReadonlyArray<[string, () => Promise<ObjectIo>]> = [
  ['memory', async () => new MemoryObjectIo()],
  [
    'local directory',
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'cairn-probe-'));
      roots.push(root);
      return new LocalObjectIo(root);
    },
  ],
  ...(lane === null
    ? []
    : [['S3', () => lane.makeIo('probe')] as [string, () => Promise<ObjectIo>]]),
];

const probeKeys = async (io: ObjectIo): Promise<string[]> =>
  (await allPages(io, PROBE_PREFIX)).flatMap((page) => page.objects.map((object) => object.key));

describe('probeCreateIfAbsent', () => {
  for (const [name, makeIo] of backends) {
    it(`finds create-if-absent enforced on ${name} and removes its key`, async () => {
      const io = await makeIo();
      const result = await probeCreateIfAbsent(io);
      expect({ enforced: result.enforced, writable: result.writable }).toEqual({
        enforced: true,
        writable: true,
      });
      expect(await probeKeys(io)).toEqual([]);
      await expect(assertWritable(io)).resolves.toMatchObject({ enforced: true });
    });
  }

  it('finds it not enforced on a store whose creates overwrite, and assertWritable refuses the writer', async () => {
    const inner = new MemoryObjectIo('s3://lax at http://lax.example');
    const overwriting = new FaultyObjectIo(inner, { ignoreCreateIfAbsent: true });
    const result = await probeCreateIfAbsent(overwriting);
    expect({ enforced: result.enforced, writable: result.writable }).toEqual({
      enforced: false,
      writable: true,
    });
    const error = await assertWritable(overwriting).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(CreateIfAbsentNotEnforcedError);
    expect((error as CreateIfAbsentNotEnforcedError).code).toBe('CreateIfAbsentNotEnforced');
    expect((error as Error).message).toContain('s3://lax at http://lax.example');
    expect((error as Error).message).toContain('read-only');
    expect(await probeKeys(inner)).toEqual([]);
  });

  it('reports a store that denies creates as not writable; assertWritable says it is read-only', async () => {
    const inner = new MemoryObjectIo();
    const readOnly = new FaultyObjectIo(inner);
    readOnly.inject({ op: 'putIfAbsent', kind: 'backend' }); // what AccessDenied maps to
    const result = await probeCreateIfAbsent(readOnly);
    expect({ enforced: result.enforced, writable: result.writable }).toEqual({
      enforced: false,
      writable: false,
    });
    const error = await assertWritable(readOnly).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ReadOnlyStoreError);
    expect((error as ReadOnlyStoreError).code).toBe('ReadOnlyStore');
    expect((error as Error).message).toContain('read-only');
    expect(inner.size).toBe(0);
  });

  it('throws when the store is unavailable: the probe then proves nothing', async () => {
    const faulty = new FaultyObjectIo(new MemoryObjectIo());
    faulty.inject({ op: 'putIfAbsent', kind: 'unavailable', count: 1 });
    const error = await probeCreateIfAbsent(faulty).catch((failure: unknown) => failure);
    expect(isStorageError(error, 'Unavailable')).toBe(true);
  });

  for (const lostCreate of ['first', 'second'] as const) {
    it(`sees through a lost response on the ${lostCreate} create`, async () => {
      const inner = new MemoryObjectIo();
      const faulty = new FaultyObjectIo(inner);
      // Rules fire in injection order: a no-op delay takes the first create when the second is lost.
      if (lostCreate === 'second')
        faulty.inject({ op: 'putIfAbsent', kind: 'delay', delayMs: 0, count: 1 });
      faulty.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
      const result = await probeCreateIfAbsent(faulty);
      expect({ enforced: result.enforced, writable: result.writable }).toEqual({
        enforced: true,
        writable: true,
      });
      expect(faulty.fired).toBe(lostCreate === 'second' ? 2 : 1);
      expect(inner.size).toBe(0);
    });
  }

  it('sees an overwrite even when the overwriting create lost its response', async () => {
    const inner = new MemoryObjectIo();
    const overwriting = new FaultyObjectIo(inner, { ignoreCreateIfAbsent: true });
    overwriting.inject({
      op: 'putIfAbsent',
      key: new RegExp(`^${PROBE_PREFIX}`),
      kind: 'apply-then-lose',
      count: 2,
    });
    const result = await probeCreateIfAbsent(overwriting);
    expect({ enforced: result.enforced, writable: result.writable }).toEqual({
      enforced: false,
      writable: true,
    });
  });
});
