/**
 * Issue #50's reopen of a local prefix from the index: `wal inspect` keeps the report it judged
 * beside the local index, and a later process whose prefix folders are unchanged prints it
 * again without listing or reading an object - a report equal to a cold inspection's. A key
 * created in the folder (an object appended, a register written) moves its stamp: the next
 * inspection judges again and equals the new cold one. A store without stamps never keeps one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { judgedInspect } from '../../src/main/cli/commands/judged-inspect';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { inspectTarget } from '../../src/main/engine/wal-read/read-side';
import { resolveReadTarget } from '../../src/main/engine/wal-read/target';
import { ObjectIndexStore } from '../../src/main/services/object-index/index-store';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { PREFIX, putChain, putObject, writeRegister } from '../wal/recovery/prefix-builder';
import { CountingLocalIo } from './support/counting-local-io';
import { scratchPaths, withoutDuration } from './support/scratch';

const fresh = scratchPaths('judged-reopen');

const GT_PREFIX = 'datanodes/6/epochs/1';
/** Longer than a file system's timestamp tick (a jiffy, at most 10 ms). */
const TICK_MS = 25;

/** `wal inspect` in a process of its own (the index store of `dataDir` made anew). */
async function inspectAsCli(io: CountingLocalIo | MemoryObjectIo, prefix: string, dataDir: string) {
  const target = await resolveReadTarget(io, prefix);
  if (io instanceof CountingLocalIo) io.reset(); // the format probe's page is no reopen's cost
  return judgedInspect(
    io,
    target,
    () => inspectTarget(io, target),
    () => new ObjectIndexStore(dataDir),
  );
}

describe('wal inspect of a local prefix whose folders did not change', () => {
  it('reopens a GreptimeDB prefix from the judged report: no listing, no read, the cold model', async () => {
    const io = new CountingLocalIo(fresh('gt'), { quietFolderMs: 0 });
    const builder = new GtPrefixBuilder(GT_PREFIX);
    builder.openInstance();
    for (let at = 0; at < 5; at++) builder.append([[makeRegionId(1, 1), [`e${at}`]]]);
    await builder.writeTo(io);
    const dataDir = fresh('data');

    const first = await inspectAsCli(io, GT_PREFIX, dataDir);
    const cold = await inspectTarget(io, await resolveReadTarget(io, GT_PREFIX));
    expect(withoutDuration(first)).toEqual(withoutDuration(cold));

    const target = await resolveReadTarget(io, GT_PREFIX);
    io.reset();
    const reopened = await judgedInspect(
      io,
      target,
      () => Promise.reject(new Error('judged again')),
      () => new ObjectIndexStore(dataDir),
    );
    expect(io.reads).toEqual([]);
    expect(io.listings).toEqual([]);
    expect(withoutDuration(reopened)).toEqual(withoutDuration(cold));

    // An object appended: the folder's stamp moved, so the prefix is judged again. (A file
    // system's clock ticks in milliseconds: the app waits for a quiet folder, the test a tick.)
    await sleep(TICK_MS);
    builder.append([[makeRegionId(1, 1), ['late']]]);
    const whole = new MemoryObjectIo();
    await builder.writeTo(whole);
    const late = [...(await whole.listPage(`${GT_PREFIX}/objects/`)).objects].pop()!;
    await io.putIfAbsent(late.key, (await whole.get(late.key)).bytes);
    const again = await inspectAsCli(io, GT_PREFIX, dataDir);
    const coldAgain = await inspectTarget(io, await resolveReadTarget(io, GT_PREFIX));
    expect(withoutDuration(again)).toEqual(withoutDuration(coldAgain));
    expect(again.listed).toBe(first.listed + 1);
  });

  it('judges a Cairn prefix again once its register changed, even with the same objects', async () => {
    const io = new CountingLocalIo(fresh('cairn'), { quietFolderMs: 0 });
    await putChain(io, 1n, [0n, 1n, 2n]);
    await writeRegister(io, { writerEpoch: 1n });
    const dataDir = fresh('data');
    const first = await inspectAsCli(io, PREFIX, dataDir);
    expect(first.failure).toBeNull();
    io.reset();
    const reopened = await inspectAsCli(io, PREFIX, dataDir);
    expect(io.listings).toEqual([]);
    expect(withoutDuration(reopened)).toEqual(withoutDuration(first));

    await sleep(TICK_MS);
    await writeRegister(io, { writerEpoch: 2n });
    await putObject(io, { seq: 3n, epoch: 2n, link: [2n, 1n] });
    const after = await inspectAsCli(io, PREFIX, dataDir);
    const cold = await inspectTarget(io, await resolveReadTarget(io, PREFIX));
    expect(withoutDuration(after)).toEqual(withoutDuration(cold));
    expect(after.format === 'cairn-v1' && after.register.writerEpoch).toBe(2n);
  });

  it('keeps nothing for a store without folder stamps', async () => {
    const io = new MemoryObjectIo();
    const builder = new GtPrefixBuilder(GT_PREFIX);
    builder.openInstance();
    builder.append([[makeRegionId(1, 1), ['only']]]);
    await builder.writeTo(io);
    const dataDir = fresh('data');
    await inspectAsCli(io, GT_PREFIX, dataDir);
    const store = new ObjectIndexStore(dataDir);
    expect(await store.clear()).toEqual({ files: 0, bytes: 0 });
  });
});
