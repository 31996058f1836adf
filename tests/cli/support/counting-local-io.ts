/**
 * A real local store under an instrumented face: every read of an object's bytes (`get`,
 * `readTail`, `readRange`) is logged by key, so a test can say how many times a command read
 * each object. Everything else goes straight to the store.
 */
import {
  LocalObjectIo,
  type LocalObjectIoOptions,
} from '../../../src/main/engine/objectio/local-object-io';
import { pagesOf } from '../../../src/main/engine/objectio/object-io';
import type * as Io from '../../../src/main/engine/objectio/object-io';

export class CountingLocalIo implements Io.ObjectIo {
  readonly store: LocalObjectIo;
  readonly endpoint: string;
  readonly link: LocalObjectIo['link'];
  /** Keys read, one entry per request. */
  readonly reads: string[] = [];

  constructor(dir: string, options: LocalObjectIoOptions = {}) {
    this.store = new LocalObjectIo(dir, options);
    this.endpoint = this.store.endpoint;
    this.link = this.store.link;
  }

  /** Requests that read `key`'s bytes so far. */
  readsOf(key: string): number {
    return this.reads.filter((read) => read === key).length;
  }

  /** Forgets what was logged (what a test's setup read). */
  reset(): void {
    this.reads.length = 0;
    this.listings.length = 0;
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.store.putIfAbsent(key, bytes);
  }
  get(key: string, range?: Io.ByteRange): Promise<Io.GetResult> {
    this.reads.push(key);
    return this.store.get(key, range);
  }
  readTail(key: string, suffix: number, listedSize: number): Promise<Io.TailResult> {
    this.reads.push(key);
    return this.store.readTail(key, suffix, listedSize);
  }
  readRange(key: string, start: number, length: number): Promise<Uint8Array> {
    this.reads.push(key);
    return this.store.readRange(key, start, length);
  }
  /** Listings made, by folder (a reopen from a judged report makes none). */
  readonly listings: string[] = [];

  folderStamp(folderKey: string): Promise<string | null> {
    return this.store.folderStamp(folderKey);
  }
  head(key: string): Promise<Io.ObjectMeta> {
    return this.store.head(key);
  }
  listPage(prefix: string, options?: Io.ListOptions): Promise<Io.ListPage> {
    this.listings.push(prefix);
    return this.store.listPage(prefix, options);
  }
  list(prefix: string, options?: Omit<Io.ListOptions, 'continuation'>): AsyncIterable<Io.ListPage> {
    return pagesOf(this, prefix, options);
  }
  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }
  deleteMany(keys: readonly string[]): Promise<Io.BatchDeleteResult> {
    return this.store.deleteMany(keys);
  }
}
