/**
 * The local object index (issue #40): a prefix opened again in a new process (new read
 * models, the same data directory) reads only objects it has not seen - the listing still
 * decides what exists: an object deleted between the two opens is gone, one rewritten is read
 * again, a new one is read - and shows what a cold open shows. A damaged or foreign index file
 * is not trusted (every object read again) and is rewritten; the index stays within its
 * budget, the files used longest ago removed first. Both formats, on a local directory.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ByteRange, GetResult, ObjectIo } from '../../src/main/engine/objectio/object-io';
import { objectKey, seqOfAnyObjectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { ObjectIndexStore } from '../../src/main/services/object-index/index-store';
import { prefixIndexesIn } from '../../src/main/services/object-index/prefix-indexes';
import type { PrefixSnapshot } from '../../src/main/services/wal/read-model/prefix-model';
import { ReadModels } from '../../src/main/services/wal/read-model/read-models';
import { locatePrefix } from '../../src/main/services/wal/wal-locate';
import { gtChainObject } from '../greptimedb/gt-encoder';
import { objectBytes } from '../wal/recovery/prefix-builder';

const OBJECTS = 12;
const GT = 'datanodes/2/epochs/1';
const CAIRN = walPrefix('wal', 5n, 0);
const R1 = makeRegionId(1, 1);

/** The 8-byte read that tells a prefix's format (one per open, not the recovery's reads). */
function isMagicRead(range: ByteRange | undefined): boolean {
  return range !== undefined && 'start' in range && range.start === 0 && range.end === 7;
}

/** A local store that counts which objects recovery read (any range but the format's magic). */
class CountingReads extends LocalObjectIo {
  readonly reads: bigint[] = [];
  override async get(key: string, range?: ByteRange): Promise<GetResult> {
    const seq = seqOfAnyObjectKey(key);
    if (seq !== null && !isMagicRead(range)) this.reads.push(seq);
    return super.get(key, range);
  }
  override readTail(
    key: string,
    suffix: number,
    listedSize: number,
  ): ReturnType<LocalObjectIo['readTail']> {
    const seq = seqOfAnyObjectKey(key);
    if (seq !== null) this.reads.push(seq);
    return super.readTail(key, suffix, listedSize);
  }
  /** Objects read since the last call, each once, ascending. */
  take(): bigint[] {
    const read = [...new Set(this.reads.splice(0))];
    return read.sort((a, b) => (a < b ? -1 : 1));
  }
}

interface Format {
  readonly name: string;
  readonly prefix: string;
  bytes(seq: bigint, payload: number): Uint8Array;
}

const FORMATS: readonly Format[] = [
  {
    name: 'GreptimeDB',
    prefix: GT,
    bytes: (seq, payload) => gtChainObject(seq, R1, new Uint8Array(payload)),
  },
  {
    name: 'Cairn',
    prefix: CAIRN,
    bytes: (seq, payload) =>
      objectBytes({
        seq,
        epoch: 1n,
        link: seq === 0n ? null : [seq - 1n, 1n],
        entryBytes: payload,
      }),
  },
];

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(hint: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `cairn-index-${hint}-`));
  made.push(dir);
  return dir;
}

/** One process's read models over the index in `dataDir` (none when null). */
function processOf(dataDir: string | null) {
  const store = dataDir === null ? null : new ObjectIndexStore(dataDir);
  const models = new ReadModels(undefined, store === null ? undefined : prefixIndexesIn(store));
  return {
    store,
    async open(io: ObjectIo, prefix: string): Promise<PrefixSnapshot> {
      const snapshot = await models.read(await locatePrefix(io, '', 'c', prefix), 0);
      await store?.settled();
      return snapshot;
    },
  };
}

/** What the views show of a snapshot, the fields an index could get wrong. */
function shown(snapshot: PrefixSnapshot) {
  const report = snapshot.format === 'greptimedb-v1' ? snapshot.report : snapshot.inspected.report;
  return {
    listed: report.listed,
    tip: report.tip?.seq ?? null,
    chain: report.chain.map((o) => [o.seq, o.size]),
    orphans: report.orphans.map((o) => o.seq),
    regions: report.regions.map((r) => [r.regionId, r.entries, r.bytes]),
    failure: report.failure?.code ?? null,
  };
}

describe.each(FORMATS)('the local index of a $name prefix', (format) => {
  async function storeOf(): Promise<CountingReads> {
    const io = new CountingReads(await tempDir('store'));
    for (let at = 0; at < OBJECTS; at++)
      await io.putIfAbsent(objectKey(format.prefix, BigInt(at)), format.bytes(BigInt(at), 4));
    return io;
  }

  it('reopens reading only objects it has not seen: deleted gone, rewritten and new read', async () => {
    const io = await storeOf();
    const dataDir = await tempDir('data');
    await processOf(dataDir).open(io, format.prefix);
    expect(io.take()).toHaveLength(OBJECTS);

    // Another process reads it again, unchanged: no object read at all.
    expect(shown(await processOf(dataDir).open(io, format.prefix))).toEqual(
      shown(await processOf(null).open(io, format.prefix)),
    );
    io.take();
    const again = processOf(dataDir);
    await again.open(io, format.prefix);
    expect(io.take()).toEqual([]);

    // Between two opens: the tip deleted, an object rewritten (other bytes), a new one added.
    await io.delete(objectKey(format.prefix, 11n));
    await io.delete(objectKey(format.prefix, 4n));
    await io.putIfAbsent(objectKey(format.prefix, 4n), format.bytes(4n, 40));
    await io.putIfAbsent(objectKey(format.prefix, 12n), format.bytes(12n, 4));
    const reopened = await processOf(dataDir).open(io, format.prefix);
    expect(io.take()).toEqual([4n, 12n]);
    const cold = await processOf(null).open(io, format.prefix);
    io.take();
    expect(shown(reopened)).toEqual(shown(cold));
    expect(shown(reopened).chain.map(([seq]) => seq)).not.toContain(11n);
  });

  it('never trusts a damaged or foreign index file, and rewrites it', async () => {
    const io = await storeOf();
    const dataDir = await tempDir('data');
    const first = processOf(dataDir);
    await first.open(io, format.prefix);
    io.take();
    const file = first.store!.fileOf({ store: io.endpoint, prefix: format.prefix });
    const bytes = await readFile(file);

    // One byte flipped in the middle: the CRC fails, every object is read, the file rewritten.
    const damaged = Buffer.from(bytes);
    damaged[damaged.length >> 1]! ^= 0xff;
    await writeFile(file, damaged);
    const afterDamage = await processOf(dataDir).open(io, format.prefix);
    expect(io.take()).toHaveLength(OBJECTS);
    expect(shown(afterDamage)).toEqual(shown(await processOf(null).open(io, format.prefix)));
    io.take();
    await processOf(dataDir).open(io, format.prefix);
    expect(io.take()).toEqual([]);

    // A sound file written for another store, put where this store's file goes: not trusted.
    const other = new CountingReads(await tempDir('other'));
    for (let at = 0; at < OBJECTS; at++)
      await other.putIfAbsent(objectKey(format.prefix, BigInt(at)), format.bytes(BigInt(at), 4));
    const elsewhere = processOf(dataDir);
    await elsewhere.open(other, format.prefix);
    await writeFile(
      file,
      await readFile(elsewhere.store!.fileOf({ store: other.endpoint, prefix: format.prefix })),
    );
    await processOf(dataDir).open(io, format.prefix);
    expect(io.take()).toHaveLength(OBJECTS);
  });
});

describe('the index on disk', () => {
  it('stays within its budget, removing the files used longest ago first', async () => {
    const dataDir = await tempDir('budget');
    const objects = [
      {
        seq: 1n,
        size: 100,
        etag: 'e',
        epoch: 1n,
        link: null,
        reclaimBoundary: 0n,
        writerInstance: null,
        segments: [],
      },
    ];
    const sizing = new ObjectIndexStore(dataDir);
    await sizing.save({ store: 's', prefix: 'z', format: 'cairn-v1' }, objects);
    const one = (await sizing.list())[0]!.bytes;
    await sizing.clear();
    const store = new ObjectIndexStore(dataDir, one * 2 + 10);
    for (const prefix of ['a', 'b', 'c']) {
      await store.save({ store: 's', prefix, format: 'cairn-v1' }, objects);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Saving 'c' removed 'a', the file used longest ago.
    expect((await store.list()).map((file) => file.header?.prefix)).toEqual(['c', 'b']);
    const reused = new ObjectIndexStore(dataDir, one * 2 + 10);
    await reused.load({ store: 's', prefix: 'b', format: 'cairn-v1' });
    await reused.save({ store: 's', prefix: 'd', format: 'cairn-v1' }, objects);
    expect((await reused.list()).map((file) => file.header?.prefix).sort()).toEqual(['b', 'd']);
    expect(await reused.clear()).toEqual({ files: 2, bytes: one * 2 });
  });
});
