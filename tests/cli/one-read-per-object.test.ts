/**
 * Issue #50's "one read per object, one open per command": every request for an object's bytes
 * is counted through an instrumented face of the real local store.
 * - `wal verify` reads each object once, and what it read is what an open needs: the next
 *   command (a new process, the local index loaded from disk) reads no object, and its report
 *   equals a cold one's.
 * - `wal obsolete` (an open before the epoch, the writer's open, its collection) then `wal gc`
 *   (a check before the epoch and the writer's open) read each object at most once in all.
 * - The index is keyed by the store's identity: the same directory named two ways shares it,
 *   another directory with the same prefix never does.
 */
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/main/cli/commands/wal-gc';
import { obsoleteAction } from '../../src/main/cli/commands/wal-write';
import { CommandIndex } from '../../src/main/cli/commands/command-index';
import { objectsFolder } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import {
  inspectTarget,
  openTargetReadOnly,
  verifyTarget,
} from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import { ObjectIndexStore } from '../../src/main/services/object-index/index-store';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { CONFIG, PREFIX, putChain, REGION_A, writeRegister } from '../wal/recovery/prefix-builder';
import { CountingLocalIo } from './support/counting-local-io';
import { scratchPaths, withoutDuration } from './support/scratch';

const fresh = scratchPaths('one-read');

const GT_PREFIX = 'datanodes/5/epochs/1';
const OBJECTS = 6;

async function cairnPrefix(store: string): Promise<CountingLocalIo> {
  const io = new CountingLocalIo(store);
  await putChain(
    io,
    1n,
    Array.from({ length: OBJECTS }, (_, at) => BigInt(at)),
  );
  await writeRegister(io, { writerEpoch: 1n });
  io.reset();
  return io;
}

async function gtPrefix(store: string): Promise<CountingLocalIo> {
  const io = new CountingLocalIo(store);
  const builder = new GtPrefixBuilder(GT_PREFIX);
  builder.openInstance();
  for (let at = 0; at < OBJECTS - 1; at++) builder.append([[makeRegionId(1, 1), [`e${at}`]]]);
  await builder.writeTo(io);
  io.reset();
  return io;
}

/** Keys of the prefix's objects now. */
async function objectKeys(io: CountingLocalIo, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of io.list(objectsFolder(prefix)))
    for (const object of page.objects) keys.push(object.key);
  return keys;
}

/** A command's index in a process of its own: the store of `dataDir` loaded anew. */
function indexOf(
  io: CountingLocalIo,
  prefix: string,
  format: 'cairn-v1' | 'greptimedb-v1',
  dataDir: string,
) {
  return CommandIndex.open(io, prefix, format, true, () => new ObjectIndexStore(dataDir));
}

describe.each([
  ['cairn-v1', PREFIX, cairnPrefix],
  ['greptimedb-v1', GT_PREFIX, gtPrefix],
] as const)('wal verify of a %s prefix', (format, prefix, make) => {
  it('reads each object once, and the next command reads none', async () => {
    const io = await make(fresh('verify'));
    const dataDir = fresh('data');
    const target = await resolveReadTarget(io, prefix);
    expect(target.format).toBe(format);
    const keys = await objectKeys(io, prefix);
    io.reset();

    const index = await indexOf(io, prefix, format, dataDir);
    const report = await verifyTarget(io, target, undefined, index.scanOf(format));
    await index.done();
    expect(report.checked).toBe(keys.length);
    expect(report.damaged).toBe(0);
    expect(keys.map((key) => io.readsOf(key))).toEqual(keys.map(() => 1));
    expect(io.reads).toHaveLength(keys.length);

    io.reset();
    const next = await indexOf(io, prefix, format, dataDir);
    const recalled = await inspectTarget(io, target, next.scanOf(format));
    await next.done();
    expect(io.reads.filter((key) => keys.includes(key))).toEqual([]);
    const cold = await inspectTarget(io, target);
    expect(withoutDuration(recalled)).toEqual(withoutDuration(cold));

    // `wal replay`'s open recalls too: only the entries it replays are read.
    io.reset();
    const replaying = await indexOf(io, prefix, format, dataDir);
    const log = await openTargetReadOnly(io, target, replaying.scanOf(format));
    await replaying.done();
    expect(io.reads.filter((key) => keys.includes(key))).toEqual([]);
    expect([...log.catalog.objects()].length).toBeGreaterThan(0);
  });
});

describe('wal obsolete then wal gc', () => {
  it('read each object at most once in all, and none after a verify', async () => {
    for (const verifiedFirst of [false, true]) {
      const io = await cairnPrefix(fresh('obsolete'));
      const dataDir = fresh('data');
      const before = await objectKeys(io, PREFIX);
      if (verifiedFirst) {
        const index = await indexOf(io, PREFIX, 'cairn-v1', dataDir);
        const target = await resolveReadTarget(io, PREFIX);
        await verifyTarget(io, target, undefined, index.scanOf('cairn-v1'));
        await index.done();
        io.reset();
      }
      const obsoleting = await indexOf(io, PREFIX, 'cairn-v1', dataDir);
      await obsoleteAction(io, CONFIG, obsoleting, {
        region: String(REGION_A),
        to: '3:1',
        takeOver: true,
        json: true,
        dataDir,
      }).finally(() => obsoleting.done());
      const collecting = await indexOf(io, PREFIX, 'cairn-v1', dataDir);
      const { report } = await collect(io, CONFIG, collecting, true).finally(() =>
        collecting.done(),
      );
      expect(report.failure).toBeNull();
      // Each WAL object read at most once by the two commands (four opens between them); the
      // register is read as each open and each write needs it.
      const read = new Set(io.reads.filter((key) => key.startsWith(objectsFolder(PREFIX))));
      expect([...read].map((key) => io.readsOf(key))).toEqual([...read].map(() => 1));
      if (verifiedFirst) expect(io.reads.filter((key) => before.includes(key))).toEqual([]);
      else expect(before.filter((key) => !read.has(key))).toEqual([]);
    }
  });
});

describe('the local index of a command run with ad-hoc store flags', () => {
  it('is keyed by the store: the same directory named two ways shares it, another never does', async () => {
    const storeA = fresh('store-a');
    const io = await gtPrefix(storeA);
    const dataDir = fresh('data');
    const target = await resolveReadTarget(io, GT_PREFIX);
    const filled = await indexOf(io, GT_PREFIX, 'greptimedb-v1', dataDir);
    await verifyTarget(io, target, undefined, filled.scanOf('greptimedb-v1'));
    await filled.done();
    const keys = await objectKeys(io, GT_PREFIX);

    // The same directory, spelt relative and with a trailing slash: the same store.
    const sameStore = new CountingLocalIo(`${relative(process.cwd(), storeA)}/`);
    const same = await indexOf(sameStore, GT_PREFIX, 'greptimedb-v1', dataDir);
    await inspectTarget(sameStore, target, same.scanOf('greptimedb-v1'));
    expect(sameStore.reads.filter((key) => keys.includes(key))).toEqual([]);

    // A copy elsewhere: the same keys, another store - it recalls nothing and reads every object.
    const storeB = fresh('store-b');
    cpSync(storeA, storeB, { recursive: true });
    const other = new CountingLocalIo(storeB);
    const index = await indexOf(other, GT_PREFIX, 'greptimedb-v1', dataDir);
    await inspectTarget(other, target, index.scanOf('greptimedb-v1'));
    await index.done();
    for (const key of keys) expect(other.readsOf(key)).toBeGreaterThan(0);
    expect(
      readdirSync(join(dataDir, 'object-index')).filter((f) => f.endsWith('.idx')),
    ).toHaveLength(2);
  });
});
