import { describe, expect, it } from 'vitest';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import { CellCorruptError, CellExistsError, ConflictError } from '../../src/main/engine/cas/errors';
import { versionKey } from '../../src/main/engine/cas/version-key';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { ScriptedObjectIo } from './scripted-io';

const CELL = 'root/wal/manifest';
const key = (version: number): string => versionKey(CELL, version);
const bytesOf = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

async function storedBody(io: MemoryObjectIo, version: number): Promise<Record<string, unknown>> {
  const { bytes } = await io.get(key(version));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

/** A cell with versions 1..count, each holding `n` = its version. */
async function cellWithVersions(
  io: ObjectIo,
  count: number,
  writerId = 'builder',
): Promise<CasCell> {
  const cell = new CasCell(io, CELL, { writerId });
  let snapshot = await cell.create({ n: '1' });
  while (snapshot.version < count)
    snapshot = await cell.update(snapshot.version, { n: String(snapshot.version + 1) });
  return cell;
}

async function storedVersions(io: ObjectIo): Promise<number[]> {
  const page = await io.listPage(`${CELL}/`);
  return page.objects.map((o) => Number(o.key.slice(CELL.length + 1, -'.json'.length)));
}

describe('CasCell keys and bodies', () => {
  it('creates version 1, then version + 1, as 20-digit keys holding version, writer, nonce and fields', async () => {
    const io = new MemoryObjectIo();
    const cell = new CasCell(io, CELL, { writerId: 'w1' });
    expect(await cell.create({ a: '1' })).toEqual({
      version: 1,
      writerId: 'w1',
      fields: { a: '1' },
    });
    expect(await cell.update(1, { a: '2' })).toEqual({
      version: 2,
      writerId: 'w1',
      fields: { a: '2' },
    });
    expect(await storedVersions(io)).toEqual([1, 2]);
    const first = await storedBody(io, 1);
    const second = await storedBody(io, 2);
    expect(first).toMatchObject({ version: 1, writerId: 'w1', fields: { a: '1' } });
    expect(typeof first.nonce).toBe('string');
    expect(first.nonce).not.toBe(second.nonce);
  });

  it('reads null from a cell never created', async () => {
    expect(await new CasCell(new MemoryObjectIo(), CELL).read()).toBeNull();
  });

  it('reads the newest version, whoever wrote it', async () => {
    const io = new MemoryObjectIo();
    await cellWithVersions(io, 5, 'a');
    expect(await new CasCell(io, CELL, { writerId: 'b' }).read()).toEqual({
      version: 5,
      writerId: 'a',
      fields: { n: '5' },
    });
  });

  it('reports a body whose version disagrees with its key as corruption', async () => {
    const io = new MemoryObjectIo();
    await cellWithVersions(io, 1);
    await io.putIfAbsent(key(2), bytesOf({ version: 3, writerId: 'x', nonce: 'n', fields: {} }));
    const error = await new CasCell(io, CELL).read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CellCorruptError);
    expect(error).toMatchObject({ code: 'Backend', details: { key: key(2) } });
    expect((error as Error).message).toMatch(/body says version 3, key says 2/);
  });

  it('reports an unparsable body as corruption', async () => {
    const io = new MemoryObjectIo();
    await io.putIfAbsent(key(1), new TextEncoder().encode('{"version":1,'));
    await expect(new CasCell(io, CELL).read()).rejects.toBeInstanceOf(CellCorruptError);
    await io.putIfAbsent(
      key(2),
      bytesOf({ version: 2, writerId: 'x', nonce: 'n', fields: { a: 1 } }),
    );
    await expect(new CasCell(io, CELL).read()).rejects.toBeInstanceOf(CellCorruptError);
  });

  it('ignores keys in the cell folder that are not versions', async () => {
    const io = new MemoryObjectIo();
    for (const foreign of [
      '.DS_Store',
      '99.json',
      '00000000000000000099.json.tmp',
      'tmp/00000000000000000099.json',
    ]) {
      await io.putIfAbsent(`${CELL}/${foreign}`, bytesOf('junk'));
    }
    await io.putIfAbsent(`${CELL}x/00000000000000000099.json`, bytesOf('junk'));
    const cell = new CasCell(io, CELL);
    expect(await cell.read()).toBeNull();
    await cellWithVersions(io, 3);
    expect((await cell.read())?.version).toBe(3);
    expect((await cell.history()).map((s) => s.version)).toEqual([3, 2, 1]);
    expect(await cell.prune(0)).toBe(0);
  });
});

describe('CasCell reads under concurrent writers and pruning', () => {
  it('climbs past versions created after its listing', async () => {
    const memory = new MemoryObjectIo();
    const writer = await cellWithVersions(memory, 2);
    const io = new ScriptedObjectIo(memory);
    io.afterNextList(async () => {
      await writer.update(2, { n: '3' });
      await writer.update(3, { n: '4' });
    });
    expect(await new CasCell(io, CELL).read()).toMatchObject({ version: 4, fields: { n: '4' } });
    expect(io.calls.filter((c) => c.startsWith('listPage'))).toHaveLength(1);
  });

  it('starts again when a listed version was pruned before it was fetched', async () => {
    const memory = new MemoryObjectIo();
    const writer = await cellWithVersions(memory, 3);
    const io = new ScriptedObjectIo(memory);
    io.afterNextList(async () => {
      let version = 3;
      while (version < 30)
        version = (await writer.update(version, { n: String(version + 1) })).version;
      await writer.prune();
    });
    expect(await new CasCell(io, CELL).read()).toMatchObject({ version: 30, fields: { n: '30' } });
    expect(io.calls.filter((c) => c.startsWith('listPage'))).toHaveLength(2);
    expect(io.calls).toContain(`get ${key(3)}`);
  });
});

describe('CasCell compare-and-swap', () => {
  it('refuses a second create and an update from a stale version', async () => {
    const io = new MemoryObjectIo();
    const a = new CasCell(io, CELL);
    const b = new CasCell(io, CELL);
    await a.create({ x: '1' });
    await expect(b.create({ x: '2' })).rejects.toBeInstanceOf(CellExistsError);
    await b.update(1, { x: '3' });
    const conflict = await a.update(1, { x: '4' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ code: 'Conflict', details: { cell: CELL, version: 1 } });
    expect((await a.read())?.fields).toEqual({ x: '3' });
  });

  it('refuses an update of a cell never created, leaving nothing behind', async () => {
    const io = new MemoryObjectIo();
    await expect(new CasCell(io, CELL).update(1, { x: '1' })).rejects.toBeInstanceOf(ConflictError);
    expect(io.size).toBe(0);
  });

  it('refuses versions no cell can hold', async () => {
    const cell = new CasCell(new MemoryObjectIo(), CELL);
    await expect(cell.update(0, {})).rejects.toMatchObject({ code: 'InvalidVersion' });
    await expect(cell.isCurrent(1.5)).rejects.toMatchObject({ code: 'InvalidVersion' });
  });

  it('runs one operation at a time per instance, in call order', async () => {
    const memory = new MemoryObjectIo();
    const io = new ScriptedObjectIo(memory);
    const cell = new CasCell(io, CELL);
    const results = await Promise.all([
      cell.create({ n: '1' }),
      cell.update(1, { n: '2' }),
      cell.read(),
      cell.update(2, { n: '3' }),
    ]);
    expect(results.map((r) => r?.version)).toEqual([1, 2, 2, 3]);
  });

  it('tells whether a version is current', async () => {
    const io = new MemoryObjectIo();
    const cell = await cellWithVersions(io, 20);
    expect(await cell.isCurrent(20)).toBe(true);
    expect(await cell.isCurrent(19)).toBe(false);
    expect(await cell.isCurrent(21)).toBe(false);
    await cell.prune();
    expect(await cell.isCurrent(2)).toBe(false);
  });

  it('passes storage errors through and stays usable', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const cell = new CasCell(io, CELL);
    await cell.create({ n: '1' });
    io.inject({ op: 'putIfAbsent', kind: 'unavailable', count: 1 });
    await expect(cell.update(1, { n: '2' })).rejects.toMatchObject({ code: 'Unavailable' });
    io.inject({ op: 'listPage', kind: 'backend', count: 1 });
    await expect(cell.read()).rejects.toMatchObject({ code: 'Backend' });
    expect(await cell.update(1, { n: '2' })).toMatchObject({ version: 2 });
  });
});

describe('CasCell unknown outcomes', () => {
  it('succeeds when the lost create is found holding its own nonce', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const cell = new CasCell(io, CELL, { writerId: 'w' });
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    expect(await cell.create({ n: '1' })).toEqual({
      version: 1,
      writerId: 'w',
      fields: { n: '1' },
    });
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    expect(await cell.update(1, { n: '2' })).toMatchObject({ version: 2, fields: { n: '2' } });
    expect(io.fired).toBe(2);
    expect(cell.lastWrittenVersion).toBe(2);
  });

  it('loses when the version is found holding another nonce, even of the same writer id', async () => {
    const memory = new MemoryObjectIo();
    const io = new ScriptedObjectIo(memory);
    const mine = new CasCell(io, CELL, { writerId: 'shared' });
    const theirs = new CasCell(memory, CELL, { writerId: 'shared' });
    io.loseCreateOf(key(1), async () => void (await theirs.create({ who: 'them' })));
    await expect(mine.create({ who: 'me' })).rejects.toBeInstanceOf(CellExistsError);
    io.loseCreateOf(key(2), async () => void (await theirs.update(1, { who: 'them' })));
    await expect(mine.update(1, { who: 'me' })).rejects.toBeInstanceOf(ConflictError);
    expect(await mine.read()).toMatchObject({ version: 2, fields: { who: 'them' } });
  });

  it('reports a lost create that never applied as Unavailable, and the retry applies once', async () => {
    const io = new ScriptedObjectIo(new MemoryObjectIo());
    const cell = await cellWithVersions(io, 1);
    io.loseCreateOf(key(2));
    await expect(cell.update(1, { n: '2' })).rejects.toMatchObject({
      code: 'Unavailable',
      details: { key: key(2) },
    });
    expect(await cell.update(1, { n: '2' })).toMatchObject({ version: 2 });
    expect(await cell.read()).toMatchObject({ version: 2, fields: { n: '2' } });
  });

  it('keeps an unreadable outcome pending and resolves it before the next operation', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const cell = new CasCell(io, CELL);
    await cell.create({ n: '1' });
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    io.inject({ op: 'get', key: /00000000000000000002\.json$/, kind: 'unavailable', count: 2 });
    await expect(cell.update(1, { n: '2' })).rejects.toMatchObject({
      code: 'Unavailable',
      details: { key: key(2) },
    });
    expect(cell.lastWrittenVersion).toBe(1);
    // The next operation first tries to learn the outcome; still unreadable, so it fails too.
    await expect(cell.read()).rejects.toMatchObject({ code: 'Unavailable' });
    // Now readable: the update had applied, and the cell knows it before reading.
    expect(await cell.isCurrent(2)).toBe(true);
    expect(cell.lastWrittenVersion).toBe(2);
    await expect(cell.update(1, { n: '2' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('answers an as-is retry of a pending create that had applied with its result, applying it once', async () => {
    const memory = new MemoryObjectIo();
    const io = new FaultyObjectIo(memory);
    const cell = new CasCell(io, CELL);
    await cell.create({ n: '1' });
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    io.inject({ op: 'get', kind: 'unavailable', count: 1 });
    await expect(cell.update(1, { n: '2' })).rejects.toMatchObject({ code: 'Unavailable' });
    expect(await cell.update(1, { n: '2' })).toMatchObject({ version: 2, fields: { n: '2' } });
    expect(await storedVersions(memory)).toEqual([1, 2]);
    // A different update from the same base is not the same operation: it lost.
    io.inject({ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 });
    io.inject({ op: 'get', kind: 'unavailable', count: 1 });
    await expect(cell.update(2, { n: '3' })).rejects.toMatchObject({ code: 'Unavailable' });
    await expect(cell.update(2, { n: 'other' })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('CasCell pruning', () => {
  it('deletes strictly ascending, one at a time, never the newest 16', async () => {
    const memory = new MemoryObjectIo();
    const io = new ScriptedObjectIo(memory);
    const cell = new CasCell(io, CELL);
    let version = (await cell.create({ n: '1' })).version;
    while (version < 40) version = (await cell.update(version, { n: String(version + 1) })).version;
    expect(await cell.prune(3)).toBe(24);
    const deleted = io.calls
      .filter((c) => c.startsWith('delete '))
      .map((c) => c.slice('delete '.length));
    expect(deleted).toEqual(Array.from({ length: 24 }, (_, i) => key(i + 1)));
    expect(io.maxDeletesInFlight).toBe(1);
    expect(await storedVersions(memory)).toEqual(Array.from({ length: 16 }, (_, i) => i + 25));
    expect(await cell.prune()).toBe(0);
    expect((await cell.read())?.version).toBe(40);
  });

  it('keeps more than 16 when asked', async () => {
    const io = new MemoryObjectIo();
    const cell = await cellWithVersions(io, 30);
    expect(await cell.prune(20)).toBe(10);
    expect(await storedVersions(io)).toHaveLength(20);
  });

  it('lists the versions still stored, newest first', async () => {
    const io = new MemoryObjectIo();
    const cell = await cellWithVersions(io, 20, 'h');
    await cell.prune();
    const history = await cell.history(3);
    expect(history).toEqual(
      [18, 19, 20].reverse().map((v) => ({ version: v, writerId: 'h', fields: { n: String(v) } })),
    );
    expect(await cell.history()).toHaveLength(16);
  });

  it('gives Conflict to a stale updater whose base is already pruned, creating nothing', async () => {
    const memory = new MemoryObjectIo();
    const io = new ScriptedObjectIo(memory);
    const stale = new CasCell(io, CELL);
    await stale.create({ n: '1' });
    const writer = new CasCell(memory, CELL);
    let version = 1;
    while (version < 20)
      version = (await writer.update(version, { n: String(version + 1) })).version;
    await writer.prune();
    await expect(stale.update(1, { n: 'stale' })).rejects.toBeInstanceOf(ConflictError);
    expect(io.calls.filter((c) => c.startsWith('putIfAbsent'))).toEqual([`putIfAbsent ${key(1)}`]);
  });

  it('gives Conflict to a stale updater whose base is pruned under its create, and removes the version it recreated', async () => {
    const memory = new MemoryObjectIo();
    const io = new ScriptedObjectIo(memory);
    const stale = new CasCell(io, CELL);
    await stale.create({ n: '1' });
    const writer = new CasCell(memory, CELL);
    let version = 1;
    while (version < 20)
      version = (await writer.update(version, { n: String(version + 1) })).version;
    io.beforeNextCreate(async () => void (await writer.prune()));
    await expect(stale.update(1, { n: 'stale' })).rejects.toBeInstanceOf(ConflictError);
    // Version 2 was recreated (pruning had freed its key), then removed again.
    expect(io.calls).toContain(`putIfAbsent ${key(2)}`);
    expect(io.calls).toContain(`delete ${key(2)}`);
    expect(await storedVersions(memory)).toEqual(Array.from({ length: 16 }, (_, i) => i + 5));
    expect(await writer.isCurrent(20)).toBe(true);
    expect((await stale.read())?.version).toBe(20);
  });

  it('gives AlreadyExists to a stale creator after version 1 was pruned, and removes the recreated version', async () => {
    const io = new MemoryObjectIo();
    const writer = await cellWithVersions(io, 20);
    await writer.prune();
    await expect(new CasCell(io, CELL).create({ n: 'late' })).rejects.toBeInstanceOf(
      CellExistsError,
    );
    expect(await storedVersions(io)).toEqual(Array.from({ length: 16 }, (_, i) => i + 5));
  });
});
