/**
 * The per-prefix read model: opened once, then refreshed by listing only after the highest
 * known key and reading only new objects, on the embedded store and on radosgw. After every
 * change (new objects of a later writer, GC below a raised boundary, GreptimeDB's reclaim, an
 * object replaced by hand) the refreshed model shows exactly what a model opened from scratch
 * shows; an unchanged prefix costs no object read at all. Models past the memory budget are
 * evicted least recently used first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ByteRange, ListOptions, ObjectIo } from '../../src/main/engine/objectio/object-io';
import { FULL_LISTING_EVERY } from '../../src/main/engine/wal/recovery';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { runLoad } from '../../src/main/services/wal/load-generator';
import { PrefixModel } from '../../src/main/services/wal/read-model/prefix-model';
import { ReadModels } from '../../src/main/services/wal/read-model/read-models';
import {
  inspectViewOfSnapshot,
  objectListsOfSnapshot,
  regionRowsOfSnapshot,
} from '../../src/main/services/wal/read-model/snapshot-views';
import { locatePrefix, type Located } from '../../src/main/services/wal/wal-locate';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { s3Lane } from '../support/s3';

const CAIRN = walPrefix('wal', 3n, 1);
const GT = 'datanodes/4/epochs/2';
const R1 = makeRegionId(1, 1);

/** Every request, by kind, so a test can tell what a refresh cost. */
class CountingIo implements ObjectIo {
  readonly requests: Array<{ kind: 'list' | 'get' | 'head'; key: string }> = [];
  constructor(private readonly inner: ObjectIo) {}
  get endpoint(): string {
    return this.inner.endpoint;
  }
  putIfAbsent(key: string, bytes: Uint8Array) {
    return this.inner.putIfAbsent(key, bytes);
  }
  get(key: string, range?: ByteRange) {
    this.requests.push({ kind: 'get', key });
    return this.inner.get(key, range);
  }
  head(key: string) {
    this.requests.push({ kind: 'head', key });
    return this.inner.head(key);
  }
  listPage(prefix: string, options?: ListOptions) {
    this.requests.push({ kind: 'list', key: prefix });
    return this.inner.listPage(prefix, options);
  }
  async *list(prefix: string, options?: Omit<ListOptions, 'continuation'>) {
    let continuation: string | undefined;
    do {
      const page = await this.listPage(prefix, { ...options, continuation });
      yield page;
      continuation = page.continuation;
    } while (continuation !== undefined);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  /** Requests since `mark` that read an object of a WAL prefix. */
  objectReadsSince(mark: number): string[] {
    return this.requests
      .slice(mark)
      .filter((r) => r.kind === 'get' && r.key.includes('/objects/'))
      .map((r) => r.key);
  }
}

async function append(io: ObjectIo, count: number): Promise<ObjectStoreLogStore> {
  const store = await ObjectStoreLogStore.open(io, {
    root: 'wal',
    nodeId: 3n,
    generation: 1,
    flushIntervalMs: 10,
  });
  const report = await runLoad(store, { regions: 2, writers: 1, count, size: 32 }, () => undefined);
  if (report.failed > 0) throw new Error(`${report.failed} appends failed`);
  return store;
}

async function located(io: ObjectIo, prefix: string): Promise<Located> {
  return locatePrefix(io, '', 'test', prefix);
}

/** What the views show, without the fields that say when or how long. */
async function viewsOf(model: PrefixModel) {
  const snapshot = await model.read(0);
  const inspect = inspectViewOfSnapshot(snapshot, false);
  const {
    durationMs: _duration,
    readAtMs: _readAt,
    registerAgeMs: _age,
    registerFresh: _fresh,
    ...stable
  } = inspect;
  return {
    inspect: stable,
    objects: objectListsOfSnapshot(snapshot),
    regions: regionRowsOfSnapshot(snapshot),
  };
}

/** The refreshed model shows what a model opened from scratch shows. */
async function expectSameAsFresh(io: ObjectIo, model: PrefixModel): Promise<void> {
  const fresh = new PrefixModel(await located(io, model.located.prefix));
  expect(await viewsOf(model)).toEqual(await viewsOf(fresh));
}

type Backend = { name: string; make: () => Promise<ObjectIo>; cleanup: () => Promise<void> };

const lane = s3Lane();
const dirs: string[] = [];
const backends: Backend[] = [
  {
    name: 'embedded directory',
    make: async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'cairn-read-model-'));
      dirs.push(dir);
      return new LocalObjectIo(dir);
    },
    cleanup: async () => {
      await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  },
];
if (lane !== null)
  backends.push({
    name: 'radosgw',
    make: () => lane.makeIo('read-model'),
    cleanup: async () => undefined,
  });
afterAll(() => lane?.dispose());

describe.each(backends)('the read model of a prefix on $name', (backend) => {
  afterEach(() => backend.cleanup());

  it('refreshes an unchanged Cairn prefix without reading one object', async () => {
    const io = new CountingIo(await backend.make());
    await (await append(io, 40)).stop();
    const model = new PrefixModel(await located(io, CAIRN));
    let mark = io.requests.length;
    const first = await model.read(0);
    const chain = first.format === 'cairn-v1' ? first.inspected.report.chain : [];
    expect(chain.length).toBeGreaterThan(1);
    expect(io.objectReadsSince(mark).length).toBeGreaterThanOrEqual(chain.length);

    mark = io.requests.length;
    const again = await model.read(0);
    expect(io.objectReadsSince(mark)).toEqual([]);
    // The one-key check of the lowest object and one page after the highest.
    const objectListings = io.requests
      .slice(mark)
      .filter((r) => r.kind === 'list' && r.key.endsWith('/objects/'));
    expect(objectListings).toHaveLength(2);
    // Besides them only the register cell's listing (its newest version): three requests.
    expect(io.requests.slice(mark).map((r) => [r.kind, r.key.split('/').at(-2)])).toEqual([
      ['list', 'manifest'],
      ['list', 'objects'],
      ['list', 'objects'],
    ]);
    expect(again.wholeListings).toBe(1);
    expect(again.readAtMs).toBeGreaterThanOrEqual(first.readAtMs);
    await expectSameAsFresh(io, model);
  });

  it('reads only the objects a later writer added, and shows what a fresh open shows', async () => {
    const io = new CountingIo(await backend.make());
    await (await append(io, 20)).stop();
    const model = new PrefixModel(await located(io, CAIRN));
    const before = await model.read(0);
    const known = new Set(
      before.format === 'cairn-v1' ? before.inspected.report.chain.map((o) => o.key) : [],
    );
    await (await append(io, 30)).stop();
    const mark = io.requests.length;
    const after = await model.read(0);
    const read = io.objectReadsSince(mark);
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((key) => known.has(key))).toEqual([]);
    expect(after.format === 'cairn-v1' && after.inspected.report.register.writerEpoch).toBe(2n);
    await expectSameAsFresh(io, model);
  });

  it('drops what GC collected below the raised boundary without reading it again', async () => {
    const io = new CountingIo(await backend.make());
    const writer = await append(io, 40);
    const model = new PrefixModel(await located(io, CAIRN));
    const first = await model.read(0);
    const chain = first.format === 'cairn-v1' ? first.inspected.report.chain.map((o) => o.key) : [];
    for (const region of [makeRegionId(1, 1), makeRegionId(1, 2)])
      await writer.obsoleteAll({ prefix: CAIRN, regionId: region }, region);
    await writer.gc();
    await writer.stop();
    const present = new Set<string>();
    for await (const page of io.list(`${CAIRN}/objects/`))
      for (const o of page.objects) present.add(o.key);
    const collected = chain.filter((key) => !present.has(key));
    expect(collected.length).toBeGreaterThan(0);
    const mark = io.requests.length;
    const after = await model.read(0);
    expect(io.objectReadsSince(mark).filter((key) => collected.includes(key))).toEqual([]);
    const keys = after.format === 'cairn-v1' ? after.inspected.report.chain.map((o) => o.key) : [];
    expect(keys.filter((key) => collected.includes(key))).toEqual([]);
    await expectSameAsFresh(io, model);
  });

  it('catches an object replaced by hand at the next whole listing', async () => {
    const io = new CountingIo(await backend.make());
    await (await append(io, 20)).stop();
    const model = new PrefixModel(await located(io, CAIRN));
    const first = await model.read(0);
    const victim =
      first.format === 'cairn-v1' ? first.inspected.report.chain.at(-1)?.key : undefined;
    expect(victim).toBeDefined();
    const bytes = (await io.get(victim as string)).bytes.slice();
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0xff;
    await io.delete(victim as string);
    await io.putIfAbsent(victim as string, bytes);
    for (let scan = 1; scan < FULL_LISTING_EVERY; scan++) await model.read(0);
    const caught = await model.read(0);
    expect(caught.wholeListings).toBe(2);
    const failure = caught.format === 'cairn-v1' ? caught.inspected.report.failure : null;
    expect(failure).toMatchObject({ code: 'CorruptObject', key: victim });
    await expectSameAsFresh(io, model);
  });

  it('follows a GreptimeDB prefix: new objects read alone, reclaimed ones dropped', async () => {
    const io = new CountingIo(await backend.make());
    const builder = new GtPrefixBuilder(GT);
    builder.openInstance();
    builder.append([[R1, ['a', 'bb']]]);
    builder.append([[R1, ['ccc']]]);
    await builder.writeTo(io);
    const model = new PrefixModel(await located(io, GT));
    const first = await model.read(0);
    expect(first.format === 'greptimedb-v1' && first.report.chain.length).toBe(3);

    const written = new Set(builder.objects.keys());
    builder.flushBelow(3n);
    builder.append([[R1, ['dddd']]]);
    builder.append([[R1, ['eeeee']]]);
    await builder.writeTo(io, (spec) => !written.has(spec.seq));
    let mark = io.requests.length;
    const grown = await model.read(0);
    expect(io.objectReadsSince(mark).sort()).toEqual([objectKey(GT, 3n), objectKey(GT, 4n)]);
    expect(grown.format === 'greptimedb-v1' && grown.report.reclaimBoundary).toBe(3n);
    await expectSameAsFresh(io, model);

    // GreptimeDB deletes what its reclaim boundary left behind, oldest first.
    for (const seq of [0n, 1n, 2n]) await io.delete(objectKey(GT, seq));
    mark = io.requests.length;
    const reclaimed = await model.read(0);
    expect(io.objectReadsSince(mark)).toEqual([]);
    expect(reclaimed.wholeListings).toBe(2);
    expect(reclaimed.format === 'greptimedb-v1' && reclaimed.report.listed).toBe(2);
    await expectSameAsFresh(io, model);
  });
});

describe('the read models of many prefixes', () => {
  it('evict the least recently used beyond the budget, never the one just read', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cairn-read-models-'));
    try {
      const io = new CountingIo(new LocalObjectIo(dir));
      await (await append(io, 10)).stop();
      const builder = new GtPrefixBuilder(GT);
      builder.openInstance();
      builder.append([[R1, ['a']]]);
      await builder.writeTo(io);
      const models = new ReadModels(1);
      await models.read(await located(io, CAIRN), 0);
      expect(models.stats()).toMatchObject({ models: 1, evicted: 0, budgetBytes: 1 });
      await models.read(await located(io, GT), 0);
      expect(models.stats()).toMatchObject({ models: 1, evicted: 1 });
      const reopened = await models.read(await located(io, CAIRN), 0);
      expect(reopened.wholeListings).toBe(1);
      expect(models.stats()).toMatchObject({ models: 1, evicted: 2 });

      // The same connection and prefix on another store (an edited connection): a new model.
      const elsewhere = await mkdtemp(path.join(tmpdir(), 'cairn-read-models-other-'));
      try {
        const other = new LocalObjectIo(elsewhere);
        const moved = await models.read(await located(other, CAIRN), 0);
        expect(moved.format === 'cairn-v1' && moved.inspected.report.chain).toEqual([]);
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }

      const roomy = new ReadModels();
      await roomy.read(await located(io, CAIRN), 0);
      await roomy.read(await located(io, GT), 0);
      const stats = roomy.stats();
      expect(stats).toMatchObject({ models: 2, evicted: 0, budgetBytes: 256 * 1024 * 1024 });
      expect(stats.bytes).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
