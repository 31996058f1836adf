/**
 * A real local store under an instrumented face: every read of an object's bytes (`get`,
 * `readTail`, `readRange`) is logged by key, so a test can say how many times a command read
 * each object. Everything else goes straight to the store.
 */
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import type {
  BatchDeleteResult,
  ByteRange,
  GetResult,
  ListOptions,
  ListPage,
  ObjectIo,
  ObjectMeta,
  TailResult,
} from '../../../src/main/engine/objectio/object-io';

export class CountingLocalIo implements ObjectIo {
  readonly store: LocalObjectIo;
  readonly endpoint: string;
  readonly link: LocalObjectIo['link'];
  /** Keys read, one entry per request. */
  readonly reads: string[] = [];

  constructor(dir: string) {
    this.store = new LocalObjectIo(dir);
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
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.store.putIfAbsent(key, bytes);
  }
  get(key: string, range?: ByteRange): Promise<GetResult> {
    this.reads.push(key);
    return this.store.get(key, range);
  }
  readTail(key: string, suffix: number, listedSize: number): Promise<TailResult> {
    this.reads.push(key);
    return this.store.readTail(key, suffix, listedSize);
  }
  readRange(key: string, start: number, length: number): Promise<Uint8Array> {
    this.reads.push(key);
    return this.store.readRange(key, start, length);
  }
  head(key: string): Promise<ObjectMeta> {
    return this.store.head(key);
  }
  listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    return this.store.listPage(prefix, options);
  }
  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return this.store.list(prefix, options);
  }
  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }
  deleteMany(keys: readonly string[]): Promise<BatchDeleteResult> {
    return this.store.deleteMany(keys);
  }
}
