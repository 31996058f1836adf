/**
 * The ObjectIo contract: one suite every backend must pass (memory, local directory, real S3).
 * Each test gets a fresh, empty store from `makeIo`. Keys never use one name as both an object
 * and a folder (`a` and `a/b`): S3 allows it, a directory cannot, and no Cairn layout needs it. Rows follow control.md's "ObjectIo" list:
 * create-if-absent under contention, reads and ranges, NotFound, delete, S3 listing semantics,
 * and the read-back after a create whose outcome is unknown.
 */
import { crc32, crc32c } from '@node-rs/crc32';
import { describe, expect, it } from 'vitest';
import { isStorageError, type StorageErrorCode } from '../../src/main/engine/objectio/errors';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import {
  objectsUnder,
  readRange,
  readRangeChecksummed,
  readTail,
  type ListOptions,
  type ListPage,
  type ObjectIo,
} from '../../src/main/engine/objectio/object-io';
import { compareKeys } from '../../src/main/engine/objectio/sorted-listing';

export type MakeObjectIo = () => Promise<ObjectIo>;

const encoder = new TextEncoder();
export const bytesOf = (text: string): Uint8Array => encoder.encode(text);

/** Awaits `call` and returns the storage error it must fail with, checking its code and message. */
export async function storageFailure(
  call: Promise<unknown>,
  code: StorageErrorCode,
  key?: string,
): Promise<Error> {
  const error: unknown = await call.then(
    () => new Error(`expected ${code}, but the call succeeded`),
    (failure: unknown) => failure,
  );
  expect(isStorageError(error) ? error.code : error).toBe(code);
  if (key !== undefined) expect((error as Error).message).toContain(key);
  return error as Error;
}

/** Creates every key (body = the key) with at most `concurrency` creates in flight. */
export async function createAll(
  io: ObjectIo,
  keys: readonly string[],
  concurrency = 16,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const key = keys[next++]!;
      await io.putIfAbsent(key, bytesOf(key));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, worker));
}

/** Every page of a listing, following continuations by hand (as a paging UI does). */
export async function allPages(
  io: ObjectIo,
  prefix: string,
  options: Omit<ListOptions, 'continuation'> = {},
): Promise<ListPage[]> {
  const pages: ListPage[] = [];
  let continuation: string | undefined;
  do {
    const page = await io.listPage(prefix, { ...options, continuation });
    pages.push(page);
    continuation = page.continuation;
  } while (continuation !== undefined && pages.length < 10_000);
  return pages;
}

/** A page as the entries a listing UI shows, in key order: objects and `folder/` prefixes. */
const entriesOf = (page: ListPage): string[] =>
  [...page.objects.map((object) => object.key), ...page.commonPrefixes].sort(compareKeys);

const sortedKeys = (keys: readonly string[]): string[] => [...keys].sort(compareKeys);

/** Creates 40 keys under `prefix` (body = the key), reads them all at once, checks each. */
async function readsManyAtOnce(
  io: ObjectIo,
  prefix: string,
  read: (io: ObjectIo, key: string) => Promise<Uint8Array>,
  expected: (key: string) => string,
): Promise<void> {
  const keys = Array.from({ length: 40 }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
  await createAll(io, keys);
  const got = await Promise.all(keys.map((key) => read(io, key)));
  expect(got.map((bytes) => Buffer.from(bytes).toString())).toEqual(keys.map(expected));
}

export function objectIoContract(name: string, makeIo: MakeObjectIo): void {
  describe(`ObjectIo contract: ${name}`, () => {
    describe('create-if-absent', () => {
      it('stores a body of several MiB byte for byte (S3 signs it with a hash off the thread)', async () => {
        const io = await makeIo();
        const body = new Uint8Array(3 * 1024 * 1024 + 5);
        for (let i = 0; i < body.length; i++) body[i] = (i * 131 + (i >> 11)) & 0xff;
        await io.putIfAbsent('big/one', body);
        const stored = await io.get('big/one');
        expect(stored.size).toBe(body.length);
        expect(Buffer.from(stored.bytes).equals(Buffer.from(body))).toBe(true);
      });

      it("stores a Buffer view of Node's shared pool as its bytes, apart from the caller's memory", async () => {
        const io = await makeIo();
        // Small Buffers share one pooled ArrayBuffer: Node 22 refuses to transfer it to a thread.
        const body = Buffer.from('pooled body');
        expect(body.byteLength).toBeLessThan(body.buffer.byteLength);
        await io.putIfAbsent('pooled/one', body);
        body.fill(0);
        expect(Buffer.from((await io.get('pooled/one')).bytes).toString()).toBe('pooled body');
      });

      it("lets exactly one of 16 concurrent creators of a key win, and stores the winner's bytes", async () => {
        const io = await makeIo();
        const key = 'race/one-key';
        const bodies = Array.from({ length: 16 }, (_, i) => bytesOf(`creator ${i}`));
        const outcomes = await Promise.allSettled(bodies.map((body) => io.putIfAbsent(key, body)));
        const stored = (await io.get(key)).bytes;
        const winners = outcomes.flatMap((outcome, i) => {
          if (outcome.status === 'fulfilled') return [i];
          const error: unknown = outcome.reason;
          // A 5xx under contention is OutcomeUnknown; the stored bytes decide who won.
          if (isStorageError(error, 'OutcomeUnknown'))
            return Buffer.from(stored).equals(Buffer.from(bodies[i]!)) ? [i] : [];
          expect(isStorageError(error, 'AlreadyExists') ? 'AlreadyExists' : error).toBe(
            'AlreadyExists',
          );
          return [];
        });
        expect(winners).toHaveLength(1);
        expect(Buffer.from(stored).toString()).toBe(`creator ${winners[0]}`);
      });

      it('refuses a second create of a key with AlreadyExists naming the key, keeping the first bytes', async () => {
        const io = await makeIo();
        await io.putIfAbsent('dup/k', bytesOf('first'));
        await storageFailure(io.putIfAbsent('dup/k', bytesOf('second')), 'AlreadyExists', 'dup/k');
        expect(Buffer.from((await io.get('dup/k')).bytes).toString()).toBe('first');
      });

      it('stores every byte value exactly, with one ETag in put, get, head and list', async () => {
        const io = await makeIo();
        const bytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
        const { etag } = await io.putIfAbsent('bin/all-bytes', bytes);
        const got = await io.get('bin/all-bytes');
        expect(Buffer.from(got.bytes).equals(Buffer.from(bytes))).toBe(true);
        expect(got.size).toBe(512);
        const head = await io.head('bin/all-bytes');
        const [page] = await allPages(io, 'bin/');
        expect([got.etag, head.etag, page!.objects[0]!.etag]).toEqual([etag, etag, etag]);
        expect(etag).not.toBe('');
        expect({ key: head.key, size: head.size }).toEqual({ key: 'bin/all-bytes', size: 512 });
        expect(page!.objects.map((object) => [object.key, object.size])).toEqual([
          ['bin/all-bytes', 512],
        ]);
      });

      it('stores an empty object', async () => {
        const io = await makeIo();
        await io.putIfAbsent('empty/k', new Uint8Array(0));
        expect((await io.get('empty/k')).bytes).toHaveLength(0);
        expect((await io.head('empty/k')).size).toBe(0);
      });

      it('round-trips keys with spaces, unicode and punctuation', async () => {
        const io = await makeIo();
        const keys = [
          'odd/a b',
          'odd/caf\u00e9',
          'odd/x+y=z',
          'odd/~tilde',
          'odd/\u6f22\u5b57',
          'odd/pct%20',
        ];
        await createAll(io, keys);
        for (const key of keys) expect(Buffer.from((await io.get(key)).bytes).toString()).toBe(key);
        const [page] = await allPages(io, 'odd/');
        expect(page!.objects.map((object) => object.key)).toEqual(sortedKeys(keys));
      });
    });

    describe('get and ranges', () => {
      const text = '0123456789';
      const cases: ReadonlyArray<[string, Parameters<ObjectIo['get']>[1], string]> = [
        ['whole object', undefined, text],
        ['closed range', { start: 2, end: 5 }, '2345'],
        ['one byte', { start: 9, end: 9 }, '9'],
        ['open-ended range', { start: 7 }, '789'],
        ['range whose end is past the size', { start: 8, end: 100 }, '89'],
        ['suffix range', { suffix: 3 }, '789'],
        ['suffix longer than the object', { suffix: 50 }, text],
      ];
      for (const [label, range, expected] of cases) {
        it(`reads the ${label}, reporting the whole object's size`, async () => {
          const io = await makeIo();
          const { etag } = await io.putIfAbsent('r/ten', bytesOf(text));
          const got = await io.get('r/ten', range);
          expect({
            text: Buffer.from(got.bytes).toString(),
            size: got.size,
            etag: got.etag,
          }).toEqual({ text: expected, size: 10, etag });
        });
      }

      const refused: ReadonlyArray<[string, string, Parameters<ObjectIo['get']>[1]]> = [
        ['a range starting past the end', text, { start: 10 }],
        ['a range starting far past the end', text, { start: 1000, end: 2000 }],
        ['a range ending before it starts', text, { start: 5, end: 2 }],
        ['an empty suffix', text, { suffix: 0 }],
        ['a negative start', text, { start: -1 }],
        ['any range of an empty object', '', { suffix: 5 }],
      ];
      for (const [label, body, range] of refused) {
        it(`refuses ${label} with Backend`, async () => {
          const io = await makeIo();
          await io.putIfAbsent('r/obj', bytesOf(body));
          await storageFailure(io.get('r/obj', range), 'Backend', 'r/obj');
        });
      }

      it('answers get and head of an absent key with NotFound naming the key', async () => {
        const io = await makeIo();
        await io.putIfAbsent('nf/present', bytesOf('x'));
        await storageFailure(io.get('nf/absent'), 'NotFound', 'nf/absent');
        await storageFailure(io.get('nf/absent', { suffix: 4 }), 'NotFound', 'nf/absent');
        await storageFailure(io.head('nf/absent'), 'NotFound', 'nf/absent');
        await storageFailure(io.get('nf'), 'NotFound', 'nf');
      });
    });

    describe("tail reads (readTail: the backend's own, else a suffix get)", () => {
      const text = '0123456789';
      // [label, suffix, listed size, expected bytes]: a listed size that is no longer the
      // object's (it changed since the listing) must not change the answer.
      const cases: ReadonlyArray<[string, number, number, string]> = [
        ['a suffix of the object', 3, 10, '789'],
        ['the whole object when the suffix is longer', 50, 10, text],
        ['the right bytes when the listed size is too small', 3, 7, '789'],
        ['the right bytes when the listed size is too large', 3, 12, '789'],
        ['the whole object when a listed size says it is longer than the suffix', 12, 20, text],
        ['the right bytes when the listed size is zero', 3, 0, '789'],
      ];
      for (const [label, suffix, listedSize, expected] of cases) {
        it(`reads ${label}, with the object's true size`, async () => {
          const io = await makeIo();
          await io.putIfAbsent('t/ten', bytesOf(text));
          const got = await readTail(io, 't/ten', suffix, listedSize);
          expect({ text: Buffer.from(got.bytes).toString(), size: got.size }).toEqual({
            text: expected,
            size: 10,
          });
        });
      }

      it('answers an absent key with NotFound and an empty object with Backend, as get', async () => {
        const io = await makeIo();
        await io.putIfAbsent('t/empty', bytesOf(''));
        await storageFailure(readTail(io, 't/absent', 64, 10), 'NotFound', 't/absent');
        await storageFailure(readTail(io, 't/empty', 64, 0), 'Backend', 't/empty');
        await storageFailure(readTail(io, 't/empty', 64, 5), 'Backend', 't/empty');
      });

      it('reads many objects at once, each its own bytes', async () => {
        await readsManyAtOnce(
          await makeIo(),
          't/many/',
          async (io, key) => (await readTail(io, key, 2, key.length)).bytes,
          (key) => key.slice(-2),
        );
      });
    });

    describe("range reads (readRange: the backend's own, else a ranged get)", () => {
      const text = '0123456789';
      // [label, start, length, expected bytes]: past the end answers as the ranged get does.
      const cases: ReadonlyArray<[string, number, number, string]> = [
        ['a span inside the object', 2, 5, '23456'],
        ['the whole object', 0, 10, text],
        ['one byte at the end', 9, 1, '9'],
        ['what there is when the span runs past the end', 7, 10, '789'],
      ];
      for (const [label, start, length, expected] of cases) {
        it(`reads ${label}`, async () => {
          const io = await makeIo();
          await io.putIfAbsent('r/ten', bytesOf(text));
          const bytes = await readRange(io, 'r/ten', start, length);
          expect(Buffer.from(bytes).toString()).toBe(expected);
        });
      }

      it('fails as get does: an absent key, a start past the end, an empty span', async () => {
        const io = await makeIo();
        await io.putIfAbsent('r/ten', bytesOf(text));
        await storageFailure(readRange(io, 'r/absent', 0, 4), 'NotFound', 'r/absent');
        await storageFailure(readRange(io, 'r/ten', 10, 4), 'Backend', 'r/ten');
        await storageFailure(readRange(io, 'r/ten', 0, 0), 'Backend', 'r/ten');
      });

      it('reads many objects at once, each its own bytes', async () => {
        await readsManyAtOnce(
          await makeIo(),
          'r/many/',
          (io, key) => readRange(io, key, 2, 4),
          (key) => key.slice(2, 6),
        );
      });

      it('gives the checksum asked for with the bytes: CRC32C or CRC32 of the read from `from`', async () => {
        const io = await makeIo();
        await io.putIfAbsent('r/ten', bytesOf(text));
        const c = await readRangeChecksummed(io, 'r/ten', 1, 8, { algorithm: 'crc32c', from: 3 });
        const ieee = await readRangeChecksummed(io, 'r/ten', 0, 10, {
          algorithm: 'crc32',
          from: 0,
        });
        const short = await readRangeChecksummed(io, 'r/ten', 6, 9, {
          algorithm: 'crc32c',
          from: 1,
        });
        expect(
          [c, ieee, short].map((read) => [Buffer.from(read.bytes).toString(), read.checksum]),
        ).toEqual([
          ['12345678', crc32c(bytesOf('45678'))],
          [text, crc32(bytesOf(text))],
          ['6789', crc32c(bytesOf('789'))],
        ]);
        await storageFailure(
          readRangeChecksummed(io, 'r/absent', 0, 4, { algorithm: 'crc32', from: 0 }),
          'NotFound',
          'r/absent',
        );
      });
    });

    describe('delete', () => {
      it('removes the object: get, head and list no longer see it, and the key can be created again', async () => {
        const io = await makeIo();
        await io.putIfAbsent('del/k', bytesOf('old'));
        await io.putIfAbsent('del/other', bytesOf('kept'));
        await io.delete('del/k');
        await storageFailure(io.get('del/k'), 'NotFound', 'del/k');
        await storageFailure(io.head('del/k'), 'NotFound', 'del/k');
        const [page] = await allPages(io, 'del/');
        expect(page!.objects.map((object) => object.key)).toEqual(['del/other']);
        await io.putIfAbsent('del/k', bytesOf('new'));
        expect(Buffer.from((await io.get('del/k')).bytes).toString()).toBe('new');
      });

      it('succeeds for an absent key', async () => {
        const io = await makeIo();
        await expect(io.delete('del/never-created')).resolves.toBeUndefined();
        await expect(io.delete('deeper/never/created')).resolves.toBeUndefined();
      });
    });

    describe('listing', () => {
      it('pages 1,100 keys 1,000 at a time, each key exactly once and in order', async () => {
        const io = await makeIo();
        const keys = Array.from({ length: 1100 }, (_, i) => `many/${String(i).padStart(5, '0')}`);
        await createAll(io, [...keys, 'man/y', 'many-x', 'manyx/1', 'manz/1']);
        const pages = await allPages(io, 'many/');
        expect(pages.map((page) => page.objects.length)).toEqual([1000, 100]);
        expect(pages[0]!.continuation).toBeDefined();
        expect(pages[1]!.continuation).toBeUndefined();
        expect(pages.flatMap((page) => page.objects.map((object) => object.key))).toEqual(keys);
        expect(pages[1]!.objects[0]!.size).toBe(keys[1000]!.length);

        const smaller = [];
        for await (const page of io.list('many/', { pageSize: 300 }))
          smaller.push(page.objects.map((object) => object.key));
        expect(smaller.map((page) => page.length)).toEqual([300, 300, 300, 200]);
        expect(smaller.flat()).toEqual(keys);

        const after = [];
        for await (const object of objectsUnder(io, 'many/', keys[1049])) after.push(object.key);
        expect(after).toEqual(keys.slice(1050));
      });

      it('lists only keys under the prefix, in UTF-8 byte order', async () => {
        const io = await makeIo();
        const inside = ['p/a-b', 'p/a/c', 'p/a0', 'p/b', 'p/\u00e9', 'p/\u6f22', 'p/Z'];
        await createAll(io, [...inside, 'p.txt', 'q/a', 'o/p/a', 'p-x/a', 'pp/a']);
        const pages = await allPages(io, 'p/');
        expect(pages.flatMap((page) => page.objects.map((object) => object.key))).toEqual([
          'p/Z',
          'p/a-b',
          'p/a/c',
          'p/a0',
          'p/b',
          'p/\u00e9',
          'p/\u6f22',
        ]);
        const onePerPage = await allPages(io, 'p/', { pageSize: 1 });
        expect(onePerPage.flatMap((page) => page.objects.map((object) => object.key))).toEqual(
          sortedKeys(inside),
        );
        expect(onePerPage.every((page) => page.objects.length === 1)).toBe(true);
        const partial = await allPages(io, 'p/a');
        expect(partial.flatMap((page) => page.objects.map((object) => object.key))).toEqual([
          'p/a-b',
          'p/a/c',
          'p/a0',
        ]);
        expect((await allPages(io, 'nothing/'))[0]).toEqual({ objects: [], commonPrefixes: [] });
      });

      it('starts after a key (which need not exist)', async () => {
        const io = await makeIo();
        const keys = ['s/a', 's/b', 's/b0/1', 's/c', 's/d'];
        await createAll(io, keys);
        const keysAfter = async (startAfter: string): Promise<string[]> =>
          (await allPages(io, 's/', { startAfter })).flatMap((page) =>
            page.objects.map((object) => object.key),
          );
        expect(await keysAfter('s/b')).toEqual(['s/b0/1', 's/c', 's/d']);
        expect(await keysAfter('s/b0')).toEqual(['s/b0/1', 's/c', 's/d']);
        expect(await keysAfter('s/b0/')).toEqual(['s/b0/1', 's/c', 's/d']);
        expect(await keysAfter('s/b0/1')).toEqual(['s/c', 's/d']);
        expect(await keysAfter('s/bb')).toEqual(['s/c', 's/d']);
        expect(await keysAfter('s/')).toEqual(keys);
        expect(await keysAfter('a')).toEqual(keys);
        expect(await keysAfter('s/d')).toEqual([]);
        expect(await keysAfter('t')).toEqual([]);
        const paged = await allPages(io, 's/', { startAfter: 's/a', pageSize: 2 });
        expect(paged.map((page) => page.objects.map((object) => object.key))).toEqual([
          ['s/b', 's/b0/1'],
          ['s/c', 's/d'],
        ]);
      });

      it('groups keys into common prefixes with a delimiter, counting each toward the page size', async () => {
        const io = await makeIo();
        await createAll(io, ['d/a/1', 'd/a/2', 'd/b/1', 'd/c', 'd/e/x/1', 'd/f', 'top']);
        const [whole] = await allPages(io, 'd/', { delimiter: '/' });
        expect(whole!.objects.map((object) => object.key)).toEqual(['d/c', 'd/f']);
        expect(whole!.commonPrefixes).toEqual(['d/a/', 'd/b/', 'd/e/']);
        expect(whole!.continuation).toBeUndefined();

        const paged = await allPages(io, 'd/', { delimiter: '/', pageSize: 2 });
        expect(paged.map(entriesOf)).toEqual([['d/a/', 'd/b/'], ['d/c', 'd/e/'], ['d/f']]);

        const [root] = await allPages(io, '', { delimiter: '/' });
        expect({
          objects: root!.objects.map((object) => object.key),
          prefixes: root!.commonPrefixes,
        }).toEqual({ objects: ['top'], prefixes: ['d/'] });
        const [nested] = await allPages(io, 'd/e/', { delimiter: '/' });
        expect(nested!.commonPrefixes).toEqual(['d/e/x/']);
        const [partial] = await allPages(io, 'd/a', { delimiter: '/' });
        expect(partial!.commonPrefixes).toEqual(['d/a/']);
        const [afterFolder] = await allPages(io, 'd/', { delimiter: '/', startAfter: 'd/b/1' });
        expect(entriesOf(afterFolder!)).toEqual(['d/c', 'd/e/', 'd/f']);
      });
    });

    describe('lost responses', () => {
      for (const kind of ['apply-then-lose', 'apply-then-5xx'] as const) {
        it(`reads back the object after ${kind} on a create (OutcomeUnknown)`, async () => {
          const io = await makeIo();
          const faulty = new FaultyObjectIo(io);
          faulty.inject({ op: 'putIfAbsent', kind, count: 1 });
          await storageFailure(
            faulty.putIfAbsent('lost/k', bytesOf('applied')),
            'OutcomeUnknown',
            'lost/k',
          );
          expect(Buffer.from((await faulty.get('lost/k')).bytes).toString()).toBe('applied');
          await storageFailure(
            faulty.putIfAbsent('lost/k', bytesOf('again')),
            'AlreadyExists',
            'lost/k',
          );
          expect(faulty.fired).toBe(1);
        });
      }
    });
  });
}
