/**
 * An ObjectIo that adds up how long the store's requests took, for a figure that must tell a
 * store's own time from the time of what was built on it (the latency figure's serial writer:
 * one request in flight at a time, so the sum is the time spent waiting on the store).
 * Everything else passes through unchanged, the optional fast paths included.
 */
import {
  pagesOf,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type ObjectMeta,
  type TailResult,
} from '../../src/main/engine/objectio/object-io';

export class TimedObjectIo implements ObjectIo {
  readonly endpoint: string;
  readonly readTail?: (key: string, suffix: number, listedSize: number) => Promise<TailResult>;
  readonly readRange?: (key: string, start: number, length: number) => Promise<Uint8Array>;
  /** Milliseconds the requests made so far took, added up. */
  requestMs = 0;

  constructor(readonly inner: ObjectIo) {
    this.endpoint = inner.endpoint;
    if (inner.readTail !== undefined)
      this.readTail = (...args) => this.timed(() => inner.readTail!(...args));
    if (inner.readRange !== undefined)
      this.readRange = (...args) => this.timed(() => inner.readRange!(...args));
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.timed(() => this.inner.putIfAbsent(key, bytes));
  }

  get(key: string, range?: ByteRange): Promise<GetResult> {
    return this.timed(() => this.inner.get(key, range));
  }

  head(key: string): Promise<ObjectMeta> {
    return this.timed(() => this.inner.head(key));
  }

  listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    return this.timed(() => this.inner.listPage(prefix, options));
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  delete(key: string): Promise<void> {
    return this.timed(() => this.inner.delete(key));
  }

  /** Failed requests count too: a NotFound is the fence's usual answer. */
  private async timed<T>(request: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await request();
    } finally {
      this.requestMs += performance.now() - started;
    }
  }
}
