/**
 * What the local directory backend adds to the contract: its temp files stay invisible, keys
 * map one-to-one onto paths, symlinks are never followed while listing, several processes race
 * safely on one root, and its listing walk pages exactly like the in-memory S3 model.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crc32, crc32c } from '@node-rs/crc32';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_TEMP_DIR, LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { KeyCrossesLinkError } from '../../src/main/engine/objectio/local-errors';
import { LocalReadThread } from '../../src/main/engine/objectio/local-read-thread';
import { SortedDirs } from '../../src/main/engine/objectio/local-sorted-dirs';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ListOptions, ObjectIo } from '../../src/main/engine/objectio/object-io';
import { allPages, bytesOf, createAll, storageFailure } from './object-io-contract';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

async function freshRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'cairn-local-'));
  roots.push(root);
  return root;
}

/** A store whose reads run on a read thread of its own, started (after one read of `warm/up`). */
async function threaded(root: string): Promise<{ io: LocalObjectIo; thread: LocalReadThread }> {
  const thread = new LocalReadThread(1);
  const io = new LocalObjectIo(root, { readThread: thread });
  await io.putIfAbsent('warm/up', bytesOf('warm'));
  expect(Buffer.from((await io.readTail('warm/up', 64, 4)).bytes).toString()).toBe('warm');
  await expect.poll(() => thread.running, { timeout: 10_000 }).toBe(true);
  return { io, thread };
}

const keysOf = async (io: ObjectIo, prefix: string, options?: ListOptions): Promise<string[]> =>
  (await allPages(io, prefix, options)).flatMap((page) => [
    ...page.objects.map((object) => object.key),
    ...page.commonPrefixes,
  ]);

describe('LocalObjectIo', () => {
  it('stores key a/b/c as the file <root>/a/b/c and leaves no temp file behind', async () => {
    const root = await freshRoot();
    const io = new LocalObjectIo(root);
    await io.putIfAbsent('a/b/c', bytesOf('abc'));
    await storageFailure(io.putIfAbsent('a/b/c', bytesOf('again')), 'AlreadyExists', 'a/b/c');
    expect(await readdir(path.join(root, 'a/b'))).toEqual(['c']);
    expect(await readdir(path.join(root, LOCAL_TEMP_DIR))).toEqual([]);
    expect(io.endpoint).toBe(root);
  });

  it('makes folders removed by another program since its last create again, and creates', async () => {
    const root = await freshRoot();
    const io = new LocalObjectIo(root);
    await io.putIfAbsent('f/a/one', bytesOf('first'));
    // The store remembers both folders it made; another program removes them.
    await rm(path.join(root, 'f'), { recursive: true });
    await rm(path.join(root, LOCAL_TEMP_DIR), { recursive: true });
    const { etag } = await io.putIfAbsent('f/a/two', bytesOf('second'));
    expect((await io.head('f/a/two')).etag).toBe(etag);
    expect(Buffer.from((await io.get('f/a/two')).bytes).toString()).toBe('second');
    await rm(path.join(root, 'f', 'a'), { recursive: true });
    await io.putIfAbsent('f/a/three', bytesOf('third'));
    const [page] = await allPages(io, 'f/');
    expect(page!.objects.map((object) => object.key)).toEqual(['f/a/three']);
    expect(await readdir(path.join(root, LOCAL_TEMP_DIR))).toEqual([]);
  });

  it('never lists temp files, even one left behind by a crash', async () => {
    const root = await freshRoot();
    const io = new LocalObjectIo(root);
    await io.putIfAbsent('k/1', bytesOf('one'));
    await writeFile(path.join(root, LOCAL_TEMP_DIR, 'crashed-writer.tmp'), 'half written');
    expect(await keysOf(io, '')).toEqual(['k/1']);
    expect(await keysOf(io, '', { delimiter: '/' })).toEqual(['k/']);
    expect(await keysOf(io, '.')).toEqual([]);
    expect(await keysOf(io, `${LOCAL_TEMP_DIR}/`)).toEqual([]);
    await storageFailure(io.get(`${LOCAL_TEMP_DIR}/crashed-writer.tmp`), 'Backend', LOCAL_TEMP_DIR);
  });

  it('rejects keys that do not map one-to-one onto a relative path, naming the key', async () => {
    const io = new LocalObjectIo(await freshRoot());
    const invalid = [
      '',
      '/abs',
      'a//b',
      'a/../b',
      '..',
      'a/',
      'a/./b',
      'nul\0byte',
      `${LOCAL_TEMP_DIR}/x`,
    ];
    for (const key of invalid) {
      for (const call of [
        io.putIfAbsent(key, bytesOf('x')),
        io.get(key),
        io.readTail(key, 64, 10),
        io.readRange(key, 0, 10),
        io.head(key),
        io.delete(key),
      ]) {
        const error = await storageFailure(call, 'Backend', key);
        expect(error.message).toContain('invalid key');
      }
    }
    expect(await keysOf(io, '')).toEqual([]);
  });

  it('refuses an object name that is a folder of objects, or a folder under an object', async () => {
    const io = new LocalObjectIo(await freshRoot());
    await io.putIfAbsent('f/a/b', bytesOf('deep'));
    const asFolder = await storageFailure(io.putIfAbsent('f/a', bytesOf('x')), 'Backend', 'f/a');
    expect(asFolder.message).toContain('folder');
    await storageFailure(io.putIfAbsent('f/a/b/c', bytesOf('x')), 'Backend', 'f/a/b/c');
    await storageFailure(io.get('f/a'), 'NotFound', 'f/a');
    await storageFailure(io.head('f/a'), 'NotFound', 'f/a');
    await storageFailure(io.get('f/a/b/c'), 'NotFound', 'f/a/b/c');
    await io.delete('f/a');
    await io.delete('f/a/b/c');
    expect(Buffer.from((await io.get('f/a/b')).bytes).toString()).toBe('deep');
  });

  it('never follows symlinks: neither listed nor readable', async () => {
    const root = await freshRoot();
    const outside = await freshRoot();
    await writeFile(path.join(outside, 'secret'), 'outside the store');
    const io = new LocalObjectIo(root);
    await io.putIfAbsent('s/real', bytesOf('real'));
    await symlink(outside, path.join(root, 's', 'linked-dir'));
    await symlink(path.join(outside, 'secret'), path.join(root, 's', 'linked-file'));
    expect(await keysOf(io, '')).toEqual(['s/real']);
    expect(await keysOf(io, 's/', { delimiter: '/' })).toEqual(['s/real']);
    for (const read of [
      () => io.get('s/linked-file'),
      () => io.readTail('s/linked-file', 64, 17),
      () => io.readRange('s/linked-file', 0, 4),
      () => io.head('s/linked-file'),
    ])
      expect(await storageFailure(read(), 'Backend', 's/linked-file')).toBeInstanceOf(
        KeyCrossesLinkError,
      );
  });

  // Issue #38's reproduction: with `etcl -> <a folder outside>` in a store, an explicit key
  // through the link returned the outside file and a listing of `etcl/` listed the outside folder.
  it('refuses every call on a key whose path crosses a linked folder, and changes nothing outside', async () => {
    const root = await freshRoot();
    const outside = await freshRoot();
    await writeFile(path.join(outside, 'hostname'), 'outside the store');
    await mkdir(path.join(outside, 'sub'));
    await writeFile(path.join(outside, 'sub', 'deep'), 'deeper outside');
    const pooled = new LocalObjectIo(root, { readThread: null });
    await pooled.putIfAbsent('inside/k', bytesOf('inside'));
    await symlink(outside, path.join(root, 'etcl'));
    await symlink(outside, path.join(root, 'inside', 'linked'));
    const { io: threadedIo, thread } = await threaded(root);
    for (const io of [pooled, threadedIo]) {
      for (const key of ['etcl/hostname', 'etcl/sub/deep', 'inside/linked/hostname']) {
        for (const call of [
          () => io.get(key),
          () => io.get(key, { start: 0, end: 3 }),
          () => io.readTail(key, 8, 17),
          () => io.readRange(key, 0, 4),
          () => io.head(key),
          () => io.putIfAbsent(key.replace(/[^/]+$/, 'new'), bytesOf('x')),
          () => io.delete(key),
        ])
          expect(
            await storageFailure(call(), 'Backend', key.replace(/\/[^/]+$/, '')),
          ).toBeInstanceOf(KeyCrossesLinkError);
      }
      for (const prefix of ['etcl/', 'etcl/sub/', 'inside/linked/'])
        expect(await storageFailure(io.listPage(prefix), 'Backend', prefix)).toBeInstanceOf(
          KeyCrossesLinkError,
        );
      // The link itself is never shown; the store's own objects read as before.
      expect(await keysOf(io, '')).toEqual(['inside/k', 'warm/up']);
      expect(Buffer.from((await io.get('inside/k')).bytes).toString()).toBe('inside');
    }
    expect(thread.running).toBe(true);
    expect((await readdir(outside)).sort()).toEqual(['hostname', 'sub']);
    expect(await readdir(path.join(outside, 'sub'))).toEqual(['deep']);
    await thread.stop();
  });

  it('reads a tail from the listed size, and reads a file changed since the listing as it is now', async () => {
    const root = await freshRoot();
    const io = new LocalObjectIo(root);
    const body = 'x'.repeat(100_000) + 'THE-END';
    await io.putIfAbsent('t/big', bytesOf(body));
    const [page] = await allPages(io, 't/');
    const listed = page!.objects[0]!;
    const tail = await io.readTail('t/big', 64 * 1024, listed.size);
    expect({ size: tail.size, length: tail.bytes.length }).toEqual({
      size: body.length,
      length: 64 * 1024,
    });
    expect(Buffer.from(tail.bytes).toString().endsWith('THE-END')).toBe(true);
    // Only another program can change a file in place (objects are immutable here): the read
    // must still give the file's last bytes and its size now, never the listed size.
    await appendFile(path.join(root, 't/big'), '+MORE');
    const grown = await io.readTail('t/big', 16, listed.size);
    expect({ text: Buffer.from(grown.bytes).toString(), size: grown.size }).toEqual({
      text: 'x'.repeat(4) + 'THE-END+MORE',
      size: body.length + 5,
    });
    await writeFile(path.join(root, 't/big'), 'short');
    const shrunk = await io.readTail('t/big', 16, listed.size);
    expect({ text: Buffer.from(shrunk.bytes).toString(), size: shrunk.size }).toEqual({
      text: 'short',
      size: 5,
    });
  });

  it('answers a tail read of a folder of objects with NotFound', async () => {
    const io = new LocalObjectIo(await freshRoot());
    await io.putIfAbsent('d/inner/k', bytesOf('x'));
    await storageFailure(io.readTail('d/inner', 64, 4096), 'NotFound', 'd/inner');
    await storageFailure(io.readRange('d/inner', 0, 4096), 'NotFound', 'd/inner');
  });

  it('reads a located span with no stat, and a file shorter than the caller believed as get does', async () => {
    const root = await freshRoot();
    const io = new LocalObjectIo(root);
    const body = 'x'.repeat(100_000) + 'THE-END';
    await io.putIfAbsent('r/big', bytesOf(body));
    const span = await io.readRange('r/big', 100_000 - 2, 9);
    expect(Buffer.from(span).toString()).toBe('xxTHE-END');
    // Only another program can shorten a file (objects are immutable here): the short read
    // falls back to the ranged get, which gives what is there, or refuses a start past the end.
    await writeFile(path.join(root, 'r/big'), 'short');
    expect(Buffer.from(await io.readRange('r/big', 2, 9)).toString()).toBe('ort');
    await storageFailure(io.readRange('r/big', 100_000, 7), 'Backend', 'r/big');
  });

  /**
   * The bytes of a tail's buffer past the tail: the one byte more the read asked for (it proves
   * the size) and found no data for. The buffer is not zeroed when allocated, so the reader must
   * zero it; fresh memory may be zero anyway, so local-files.test.ts pins the zeroing itself on
   * a buffer known to be dirty.
   */
  function unreadBytesOf(tail: Uint8Array): number[] {
    return [...new Uint8Array(tail.buffer, tail.byteOffset + tail.length)];
  }

  describe('reads on the read thread', () => {
    /** A store whose tail reads go to a thread of its own, started by its first read. */
    it('reads each object its own tail, many at once, as the pool does', async () => {
      const root = await freshRoot();
      const { io, thread } = await threaded(root);
      const keys = Array.from({ length: 100 }, (_, i) => `m/${String(i).padStart(3, '0')}`);
      await createAll(io, keys);
      const big = 'y'.repeat(70_000) + 'TAIL';
      await io.putIfAbsent('m/big', bytesOf(big));
      const before = thread.answered;
      const tails = await Promise.all(keys.map((key) => io.readTail(key, 2, key.length)));
      expect(thread.answered - before).toBe(keys.length);
      expect(tails.map((tail) => [Buffer.from(tail.bytes).toString(), tail.size])).toEqual(
        keys.map((key) => [key.slice(-2), key.length]),
      );
      const bigTail = await io.readTail('m/big', 64 * 1024, big.length);
      expect({ length: bigTail.bytes.length, size: bigTail.size }).toEqual({
        length: 64 * 1024,
        size: big.length,
      });
      expect(Buffer.from(bigTail.bytes).toString().endsWith('TAIL')).toBe(true);
      expect(unreadBytesOf(bigTail.bytes)).toEqual([0]);
      const onPool = await new LocalObjectIo(root, { readThread: null }).readTail(
        'm/big',
        64 * 1024,
        big.length,
      );
      expect(unreadBytesOf(onPool.bytes)).toEqual([0]);
      expect(thread.running).toBe(true);
      await thread.stop();
    });

    it('reads located spans on the thread, many at once, with the bytes the pool reads', async () => {
      const root = await freshRoot();
      const { io, thread } = await threaded(root);
      const bodies = Array.from(
        { length: 40 },
        (_, i) => `${String(i).padStart(2, '0')}:${'z'.repeat(5000 + i)}#`,
      );
      await Promise.all(bodies.map((body, i) => io.putIfAbsent(`s/${i}`, bytesOf(body))));
      const onPool = new LocalObjectIo(root, { readThread: null });
      const spans = bodies.map((body, i) => ({ key: `s/${i}`, start: 1, length: body.length - 1 }));
      const before = thread.answered;
      const read = await Promise.all(spans.map((s) => io.readRange(s.key, s.start, s.length)));
      expect(thread.answered - before).toBe(spans.length);
      const pooled = await Promise.all(
        spans.map((s) => onPool.readRange(s.key, s.start, s.length)),
      );
      expect(read.map((bytes) => Buffer.from(bytes).toString())).toEqual(
        bodies.map((b) => b.slice(1)),
      );
      expect(read.map((bytes) => Buffer.from(bytes).toString())).toEqual(
        pooled.map((bytes) => Buffer.from(bytes).toString()),
      );
      // Each span is a buffer of its own, exactly as long: nothing else the process held is in it.
      expect(read.map((bytes) => [bytes.byteOffset, bytes.buffer.byteLength])).toEqual(
        spans.map((s) => [0, s.length]),
      );
      await thread.stop();
    });

    it("takes a located read's checksum on the thread: the sums the pool's reads give, a short read's taken here", async () => {
      const root = await freshRoot();
      const { io, thread } = await threaded(root);
      const bodies = Array.from({ length: 12 }, (_, i) => `${i}:${'q'.repeat(70_000 + i)}!`);
      await Promise.all(bodies.map((body, i) => io.putIfAbsent(`c/${i}`, bytesOf(body))));
      const onPool = new LocalObjectIo(root, { readThread: null });
      const asks = bodies.map((body, i) => ({
        key: `c/${i}`,
        length: body.length - 1,
        sum: { algorithm: i % 2 === 0 ? 'crc32c' : 'crc32', from: i } as const,
      }));
      const before = thread.answered;
      const read = await Promise.all(
        asks.map((a) => io.readRangeChecksummed(a.key, 1, a.length, a.sum)),
      );
      expect(thread.answered - before).toBe(asks.length);
      const pooled = await Promise.all(
        asks.map((a) => onPool.readRangeChecksummed(a.key, 1, a.length, a.sum)),
      );
      const expected = bodies.map((body, i) =>
        (i % 2 === 0 ? crc32c : crc32)(bytesOf(body.slice(1 + i))),
      );
      expect(read.map((r) => r.checksum)).toEqual(expected);
      expect(pooled.map((r) => r.checksum)).toEqual(expected);
      // The thread's own answer carries the sum: it was not taken on this side.
      const [first] = asks;
      const direct = await thread.read(path.join(root, first!.key), 1, first!.length, first!.sum);
      expect(direct?.checksum).toBe(expected[0]);
      expect(read.map((r) => Buffer.from(r.bytes).toString())).toEqual(
        bodies.map((body) => body.slice(1)),
      );
      // Past the end: the ranged get's bytes, their sum taken on this side.
      const short = await io.readRangeChecksummed('c/0', 70_000, 10, {
        algorithm: 'crc32c',
        from: 1,
      });
      expect([Buffer.from(short.bytes).toString(), short.checksum]).toEqual([
        'qq!',
        crc32c(bytesOf('q!')),
      ]);
      await thread.stop();
    });

    it('answers a tail or located read it cannot make exactly as the pool does: gone, a folder, a symlink, a changed file', async () => {
      const root = await freshRoot();
      const outside = await freshRoot();
      await writeFile(path.join(outside, 'secret'), 'outside the store');
      const { io, thread } = await threaded(root);
      await io.putIfAbsent('e/inner/k', bytesOf('x'));
      await io.putIfAbsent('e/changed', bytesOf('0123456789'));
      await symlink(path.join(outside, 'secret'), path.join(root, 'e', 'linked'));
      for (const key of ['e/absent', 'e/inner']) {
        await storageFailure(io.readTail(key, 64, 17), 'NotFound', key);
        await storageFailure(io.readRange(key, 0, 4), 'NotFound', key);
      }
      await storageFailure(io.readTail('e/linked', 64, 17), 'Backend', 'e/linked');
      await storageFailure(io.readRange('e/linked', 0, 4), 'Backend', 'e/linked');
      // A span the file no longer holds whole falls back to the ranged get, as on the pool.
      expect(Buffer.from(await io.readRange('e/changed', 6, 9)).toString()).toBe('6789');
      await storageFailure(io.readRange('e/changed', 10, 2), 'Backend', 'e/changed');
      await appendFile(path.join(root, 'e/changed'), 'AB');
      const grown = await io.readTail('e/changed', 4, 10);
      expect([Buffer.from(grown.bytes).toString(), grown.size]).toEqual(['89AB', 12]);
      expect(thread.running).toBe(true);
      await thread.stop();
    });

    it("stats a listing page's objects on the thread, with the metadata the pool gives", async () => {
      const root = await freshRoot();
      const { io, thread } = await threaded(root);
      const keys = Array.from({ length: 300 }, (_, i) => `p/${String(i).padStart(3, '0')}`);
      await createAll(io, keys);
      await io.putIfAbsent('p/sub/k', bytesOf('folder'));
      const before = thread.answered;
      const onThread = await allPages(io, 'p/', { delimiter: '/' });
      expect(thread.answered - before).toBe(keys.length);
      const onPool = await allPages(new LocalObjectIo(root, { readThread: null }), 'p/', {
        delimiter: '/',
      });
      expect(onThread).toEqual(onPool);
      expect(onThread.flatMap((page) => page.commonPrefixes)).toEqual(['p/sub/']);
      expect(await thread.stat(path.join(root, 'p', 'absent'))).toBeNull();
      const folder = await thread.stat(path.join(root, 'p', 'sub'));
      expect(folder?.isFile).toBe(false);
      await thread.stop();
    });

    it('stays on the pool when stopped while the thread is still starting', async () => {
      const thread = new LocalReadThread(1);
      const io = new LocalObjectIo(await freshRoot(), { readThread: thread });
      await io.putIfAbsent('s/k', bytesOf('early'));
      expect(Buffer.from((await io.readTail('s/k', 3, 5)).bytes).toString()).toBe('rly');
      await thread.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(thread.running).toBe(false);
      expect(Buffer.from((await io.readTail('s/k', 2, 5)).bytes).toString()).toBe('ly');
      expect(thread.answered).toBe(0);
    });

    it('goes back to the pool once the thread is stopped', async () => {
      const { io, thread } = await threaded(await freshRoot());
      await io.putIfAbsent('s/k', bytesOf('after'));
      await thread.stop();
      expect(thread.running).toBe(false);
      expect(Buffer.from((await io.readTail('s/k', 3, 5)).bytes).toString()).toBe('ter');
    });
  });

  it('gives an immutable file the same ETag in every instance, call and listing', async () => {
    const root = await freshRoot();
    const { etag } = await new LocalObjectIo(root).putIfAbsent('e/k', bytesOf('bytes'));
    const reopened = new LocalObjectIo(root);
    const [page] = await allPages(reopened, 'e/');
    expect([
      (await reopened.head('e/k')).etag,
      (await reopened.get('e/k', { suffix: 2 })).etag,
      page!.objects[0]!.etag,
    ]).toEqual([etag, etag, etag]);
  });

  it('lets exactly one of several processes create each key', async () => {
    const root = await freshRoot();
    const keys = Array.from({ length: 20 }, (_, i) => `race/${String(i).padStart(2, '0')}`);
    const startAt = Date.now() + 1500; // Every child waits for this moment, so their creates overlap.
    const reports = await Promise.all(
      ['w0', 'w1', 'w2', 'w3'].map((worker) => raceInChild(root, worker, keys, startAt)),
    );
    const io = new LocalObjectIo(root);
    for (const key of keys) {
      const outcomes = reports.map((report) => report[key]);
      const winners = reports.flatMap((report, i) => (report[key] === 'won' ? [`w${i}`] : []));
      expect(winners).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'AlreadyExists')).toHaveLength(3);
      expect(Buffer.from((await io.get(key)).bytes).toString()).toBe(winners[0]);
    }
    expect(await readdir(path.join(root, LOCAL_TEMP_DIR))).toEqual([]);
  });

  it('pages exactly like the in-memory S3 model for any keys, prefix, startAfter, delimiter and page size', async () => {
    const segment = fc.constantFrom('a', 'b', 'a-b', 'a0', 'Z', '\u00e9', 'x.y');
    const key = fc
      .array(segment, { minLength: 1, maxLength: 3 })
      .map((segments) => segments.join('/'));
    const boundary = fc.constantFrom('', 'a', 'a/', 'a-', 'a/a', 'b/', 'Z/a-b', '\u00e9', 'x');
    const scenario = fc.record({
      keys: fc.uniqueArray(key, { minLength: 0, maxLength: 14 }).map(withoutFolderClashes),
      prefix: boundary,
      startAfter: fc.option(fc.oneof(boundary, key), { nil: undefined }),
      delimiter: fc.constantFrom(undefined, '/', '-'),
      pageSize: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ keys, prefix, startAfter, delimiter, pageSize }) => {
        // Settling at once: every page after the first walks the folders the first one held.
        const local = new LocalObjectIo(await freshRoot(), { sortedDirs: new SortedDirs(100, 0) });
        const memory = new MemoryObjectIo();
        await createAll(local, keys, 4);
        await createAll(memory, keys, 4);
        const options = { startAfter, delimiter, pageSize };
        expect(await pageShapes(local, prefix, options)).toEqual(
          await pageShapes(memory, prefix, options),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('lists keys created and deleted since a folder was held, page by page', async () => {
    const root = await freshRoot();
    const io = new LocalObjectIo(root, { sortedDirs: new SortedDirs(1_000, 10) });
    const name = (index: number): string => `wal/${String(index).padStart(3, '0')}`;
    await createAll(
      io,
      Array.from({ length: 30 }, (_, index) => name(index * 2)),
      8,
    );
    await new Promise((resolve) => setTimeout(resolve, 40));
    const first = await io.listPage('wal/', { pageSize: 10 });
    expect(first.objects.map((object) => object.key)).toEqual(
      Array.from({ length: 10 }, (_, index) => name(index * 2)),
    );
    // Behind and ahead of the page just read: a held folder must not hide either change.
    await io.putIfAbsent(name(21), bytesOf('new'));
    await io.delete(name(22));
    const rest = await keysOf(io, 'wal/', { startAfter: first.continuation! });
    expect(rest).toEqual(
      [...Array.from({ length: 20 }, (_, index) => name(20 + index * 2)), name(21)]
        .filter((key) => key !== name(22))
        .sort(),
    );
  });
});

/** Drops keys that name a folder of another key (`a` beside `a/b`), which a directory cannot hold. */
function withoutFolderClashes(keys: string[]): string[] {
  return keys.filter((key) => !keys.some((other) => other.startsWith(`${key}/`)));
}

async function pageShapes(
  io: ObjectIo,
  prefix: string,
  options: Omit<ListOptions, 'continuation'>,
): Promise<unknown[]> {
  return (await allPages(io, prefix, options)).map((page) => ({
    objects: page.objects.map((object) => [object.key, object.size]),
    commonPrefixes: page.commonPrefixes,
    more: page.continuation !== undefined,
  }));
}

const run = promisify(execFile);
const localObjectIoModule = fileURLToPath(
  new URL('../../src/main/engine/objectio/local-object-io.ts', import.meta.url),
);
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Child process body: wait for the common start, create every key with its own name as bytes. */
const RACER = `
const { LocalObjectIo } = require(process.argv[1]);
const [root, worker, keysJson, startAt] = process.argv.slice(2);
const io = new LocalObjectIo(root);
const keys = JSON.parse(keysJson);
setTimeout(async () => {
  const outcomes = await Promise.allSettled(keys.map((key) => io.putIfAbsent(key, new TextEncoder().encode(worker))));
  const report = {};
  keys.forEach((key, i) => { const o = outcomes[i]; report[key] = o.status === 'fulfilled' ? 'won' : String(o.reason.code || o.reason); });
  process.stdout.write(JSON.stringify(report));
}, Math.max(0, Number(startAt) - Date.now()));
`;

async function raceInChild(
  root: string,
  worker: string,
  keys: readonly string[],
  startAt: number,
): Promise<Record<string, string>> {
  const args = [
    '--import',
    'tsx',
    '-e',
    RACER,
    localObjectIoModule,
    root,
    worker,
    JSON.stringify(keys),
    String(startAt),
  ];
  const { stdout } = await run(process.execPath, args, { cwd: projectRoot });
  return JSON.parse(stdout) as Record<string, string>;
}
