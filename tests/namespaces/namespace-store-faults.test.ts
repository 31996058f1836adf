/**
 * Deterministic fault cases of the durable registry: unknown create outcomes (settled on the
 * retry, event announced once), lost compare-and-swaps (re-read and re-decided, the racer's
 * write kept), storage and decoding failures surfacing as typed errors, and pruning.
 */
import { describe, expect, it } from 'vitest';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import {
  ObjectNamespaceStore,
  type ObjectNamespaceStoreOptions,
} from '../../src/main/engine/namespaces/object-namespace-store';
import type { NamespaceRecord } from '../../src/main/engine/namespaces/record';
import { shardLabel } from '../../src/main/engine/namespaces/shard-hash';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { OutcomeUnknownError, UnavailableError } from '../../src/main/engine/objectio/errors';
import type { ByteRange, GetResult, ObjectIo } from '../../src/main/engine/objectio/object-io';
import { tickingClock } from './namespace-store-contract';

const ROOT = 'reg';

function storeOn(
  io: ObjectIo,
  options: Partial<ObjectNamespaceStoreOptions> = {},
): ObjectNamespaceStore {
  return new ObjectNamespaceStore({
    io,
    root: ROOT,
    clock: tickingClock(),
    shardCount: 1,
    ...options,
  });
}

function shardKeys(io: MemoryObjectIo): Promise<string[]> {
  return io
    .listPage(`${ROOT}/namespaces/shards/`)
    .then((page) => page.objects.map((object) => object.key));
}

/** Runs `beforeCreate` once, just before the first create of a shard version reaches storage. */
class RivalFirstIo extends MemoryObjectIo {
  private armed = true;
  constructor(private readonly beforeCreate: () => Promise<unknown>) {
    super();
  }
  override async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    if (this.armed && key.includes('/shards/')) {
      this.armed = false;
      await this.beforeCreate();
    }
    return super.putIfAbsent(key, bytes);
  }
}

/**
 * Once armed: the next shard create applies, its answer is lost (OutcomeUnknown), and the
 * next `failedReads` gets fail too, so the register cannot read the outcome back in time.
 */
class LostCreateIo extends MemoryObjectIo {
  private armed = false;
  private failedReads = 0;
  arm(failedReads: number): void {
    this.armed = true;
    this.failedReads = failedReads;
  }
  override async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    const result = await super.putIfAbsent(key, bytes);
    if (!this.armed || !key.includes('/shards/')) return result;
    this.armed = false;
    throw new OutcomeUnknownError(key, this.endpoint, 'response lost (test)');
  }
  override async get(key: string, range?: ByteRange): Promise<GetResult> {
    if (!this.armed && this.failedReads > 0) {
      this.failedReads--;
      throw new UnavailableError(key, this.endpoint, 'read-back lost (test)');
    }
    return super.get(key, range);
  }
}

describe('unknown outcomes', () => {
  it('a mint whose create applied but whose answer and read-back were lost is created, once, on retry', async () => {
    const io = new LostCreateIo();
    const created: string[] = [];
    const store = storeOn(io, { onCreated: (record) => created.push(record.name) });
    await store.registerNamespace('seed', 'minted');

    io.arm(1);
    await expect(store.registerNamespace('lost', 'explicit')).rejects.toMatchObject({
      code: 'Backend',
      details: { namespace: 'lost', shard: 0, storageCode: 'Unavailable' },
    });
    expect(created).toEqual(['seed']);
    expect(await shardKeys(io)).toHaveLength(2);

    expect(await store.registerNamespace('lost', 'explicit')).toBe('created');
    expect(created).toEqual(['seed', 'lost']);
    expect(await store.registerNamespace('lost', 'explicit')).toBe('touched');
    expect((await store.listNamespaces()).map((record) => [record.name, record.origin])).toEqual([
      ['seed', 'minted'],
      ['lost', 'explicit'],
    ]);
  });

  it('a settled mint is announced by whichever operation of the store reads the shard next', async () => {
    const io = new LostCreateIo();
    const created: string[] = [];
    const store = storeOn(io, { onCreated: (record) => created.push(record.name) });
    await store.registerNamespace('seed', 'minted');
    io.arm(1);
    await expect(store.registerNamespace('lost', 'minted')).rejects.toMatchObject({
      code: 'Backend',
    });
    expect(await store.deprecateNamespace('seed')).toMatchObject({ state: 'deprecated' });
    expect(created).toEqual(['seed', 'lost']);
    // The proof is remembered for the name: its caller's retry is still owed `created`.
    expect(await store.registerNamespace('lost', 'minted')).toBe('created');
    expect(await store.registerNamespace('lost', 'minted')).toBe('touched');
    expect(created).toEqual(['seed', 'lost']);
  });

  it("two names' unknown mints on one shard are remembered per name: each created once, then touched", async () => {
    const io = new LostCreateIo();
    const created: string[] = [];
    const store = storeOn(io, { onCreated: (record) => created.push(record.name) });
    await store.registerNamespace('seed', 'minted');
    io.arm(1);
    await expect(store.registerNamespace('x', 'minted')).rejects.toMatchObject({
      code: 'Backend',
      details: { namespace: 'x', shard: 0 },
    });
    // y's read settles (and announces) x's mint; y's own create is then left unknown.
    io.arm(1);
    await expect(store.registerNamespace('y', 'minted')).rejects.toMatchObject({
      code: 'Backend',
      details: { namespace: 'y', shard: 0 },
    });
    expect(created).toEqual(['seed', 'x']);
    expect(await store.registerNamespace('y', 'minted')).toBe('created');
    expect(await store.registerNamespace('x', 'minted')).toBe('created');
    expect(await store.registerNamespace('x', 'minted')).toBe('touched');
    expect(await store.registerNamespace('y', 'minted')).toBe('touched');
    expect(created).toEqual(['seed', 'x', 'y']);
    expect((await store.listNamespaces()).map((r) => r.name).sort()).toEqual(['seed', 'x', 'y']);
  });

  it('a mint that never applied is simply created on retry', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const created: string[] = [];
    const store = storeOn(io, { onCreated: (record) => created.push(record.name) });
    await store.registerNamespace('seed', 'minted');
    io.inject({ op: 'putIfAbsent', key: /shards/, kind: 'unavailable', count: 1 });
    await expect(store.registerNamespace('n', 'minted')).rejects.toMatchObject({ code: 'Backend' });
    expect(await store.registerNamespace('n', 'minted')).toBe('created');
    expect(created).toEqual(['seed', 'n']);
  });

  it('a lost response alone is settled inside the register: one answer, one record', async () => {
    const inner = new MemoryObjectIo();
    const io = new FaultyObjectIo(inner);
    const store = storeOn(io);
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 2 });
    expect(await store.registerNamespace('n', 'minted')).toBe('created');
    expect(await shardKeys(inner)).toHaveLength(1);
    expect(await store.listNamespaces()).toHaveLength(1);
  });

  it('a retry that settles a lost mint and then fails itself leaves the next retry answering created', async () => {
    // The model test's counterexample, replayed: the create of `a` applies but its answer
    // and read-back are lost (call 1); call 2 reads the shard, which proves the version ours,
    // then its touch fails before applying; call 3 must still answer `created`.
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const created: string[] = [];
    const store = storeOn(io, { shardCount: 2, onCreated: (found) => created.push(found.name) });
    expect(await store.putNamespace(record('b'))).toBe('created');
    expect([await store.shardOf('a'), await store.shardOf('b')]).toEqual([0, 1]);
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    io.inject({ op: 'get', kind: 'unavailable', count: 1 });
    io.inject({ op: 'putIfAbsent', kind: 'unavailable', count: 1 });

    const lost = {
      code: 'Backend',
      details: { namespace: 'a', shard: 0, storageCode: 'Unavailable' },
    };
    await expect(store.putNamespace(record('a'))).rejects.toMatchObject(lost);
    expect(created).toEqual(['b']);
    await expect(store.putNamespace(record('a'))).rejects.toMatchObject(lost);
    expect(created).toEqual(['b', 'a']);
    expect(io.fired).toBe(3);

    expect(await store.putNamespace(record('a'))).toBe('created');
    expect(await store.putNamespace(record('a'))).toBe('touched');
    expect(created).toEqual(['b', 'a']);
  });

  it('a placement that failed after applying converges on retry without a second write', async () => {
    const io = new LostCreateIo();
    const store = storeOn(io);
    await store.registerNamespace('p', 'minted');
    io.arm(1);
    await expect(store.setNamespacePlacement('p', { tier: 'cold' })).rejects.toMatchObject({
      code: 'Backend',
    });
    expect(await shardKeys(io)).toHaveLength(2);
    expect(await store.setNamespacePlacement('p', { tier: 'cold' })).toMatchObject({
      placement: { tier: 'cold' },
    });
    expect(await shardKeys(io)).toHaveLength(2);
  });
});

describe('lost compare-and-swaps', () => {
  it('re-read and re-decide: the racer that slipped in keeps its write', async () => {
    const io = new RivalFirstIo(() => rival.putNamespace(record('rival')));
    const rival = storeOn(io, { clock: tickingClock(10) });
    const store = storeOn(io, { clock: tickingClock(500) });
    expect(await store.registerNamespace('mine', 'minted')).toBe('created');
    expect((await store.listNamespaces()).map((found) => found.name)).toEqual(['rival', 'mine']);
  });

  it('a racer that minted the same name first makes this call a touch', async () => {
    const io = new RivalFirstIo(() => rival.registerNamespace('same', 'explicit'));
    const rival = storeOn(io);
    const created: string[] = [];
    const store = storeOn(io, { onCreated: (found) => created.push(found.name) });
    expect(await store.registerNamespace('same', 'minted')).toBe('touched');
    expect(created).toEqual([]);
    expect((await store.getNamespace('same'))!.origin).toBe('explicit');
  });

  it('gives up with ShardContended when every attempt loses, having written nothing of its own', async () => {
    const io = new RivalFirstIo(() => rival.registerNamespace('rival', 'minted'));
    const rival = storeOn(io);
    const store = storeOn(io, { maxAttempts: 1 });
    await expect(store.registerNamespace('mine', 'minted')).rejects.toMatchObject({
      code: 'ShardContended',
      details: { namespace: 'mine', shard: 0, attempts: 1 },
    });
    expect((await store.listNamespaces()).map((found) => found.name)).toEqual(['rival']);
  });
});

describe('typed failures', () => {
  it('storage failures surface as Backend naming namespace and shard, nothing written', async () => {
    const inner = new MemoryObjectIo();
    const io = new FaultyObjectIo(inner);
    const store = storeOn(io);
    await store.registerNamespace('a', 'minted');
    const before = inner.size;
    io.inject({ op: 'listPage', kind: 'backend', count: 1 });
    await expect(store.deprecateNamespace('a')).rejects.toMatchObject({
      code: 'Backend',
      details: { namespace: 'a', shard: 0, storageCode: 'Backend' },
    });
    expect(inner.size).toBe(before);
    io.inject({ op: 'any', kind: 'unavailable', count: 1 });
    await expect(store.listNamespaces()).rejects.toMatchObject({
      code: 'Backend',
      details: { namespace: null },
    });
  });

  it('a shard holding a record that breaks the rules is a Serialization error naming the shard', async () => {
    const io = new MemoryObjectIo();
    const store = storeOn(io);
    await store.registerNamespace('a', 'minted');
    const cell = new CasCell(io, `${ROOT}/namespaces/shards/${shardLabel(0)}`);
    const snapshot = (await cell.read())!;
    await cell.update(snapshot.version, { ...snapshot.fields, 'ns:a': '{"name":"a"}' });
    await expect(store.getNamespace('a')).rejects.toMatchObject({
      code: 'Serialization',
      details: { namespace: 'a', shard: 0 },
    });
    await expect(store.listNamespaces()).rejects.toMatchObject({ code: 'Serialization' });
    await expect(store.registerNamespace('a', 'minted')).rejects.toMatchObject({
      code: 'Serialization',
    });
  });

  it('a meta cell with an unknown hash is refused, never guessed', async () => {
    const io = new MemoryObjectIo();
    await new CasCell(io, `${ROOT}/namespaces/meta`).create({ hash: 'crc32', shardCount: '16' });
    await expect(storeOn(io).getNamespace('a')).rejects.toMatchObject({ code: 'Serialization' });
  });
});

describe('pruning by the owner', () => {
  it('keeps the newest versions and every record', async () => {
    const io = new MemoryObjectIo();
    const store = storeOn(io, { pruneEvery: 8 });
    for (let round = 0; round < 40; round++)
      await store.registerNamespace(`n${round % 5}`, 'minted');
    const versions = await shardKeys(io);
    expect(versions.length).toBeLessThanOrEqual(16 + 8);
    expect(versions.at(-1)).toMatch(/00000000000000000040\.json$/);
    expect((await store.listNamespaces()).map((found) => found.name)).toEqual([
      'n0',
      'n1',
      'n2',
      'n3',
      'n4',
    ]);
  });
});

function record(name: string): NamespaceRecord {
  return {
    name,
    origin: 'explicit',
    createdAt: 1,
    lastSeen: 1,
    config: {},
    state: 'active',
    placement: null,
  };
}
