/**
 * An ObjectIo that adds up how long the store's requests took, for a figure that must tell a
 * store's own time from the time of what was built on it (the latency figure's serial writer:
 * one request in flight at a time, so the sum is the time spent waiting on the store), and
 * counts them by operation (the cloud lane's GC figure: requests sent), and how long none was in
 * flight (cli-rows: whether a replay's reads wait on what it writes). Everything else passes
 * through unchanged, the optional fast paths included.
 */
import {
  pagesOf,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type BatchDeleteResult,
  type ObjectMeta,
  type TailResult,
} from '../../src/main/engine/objectio/object-io';
import type { ChecksumRequest, ChecksummedRead } from '../../src/main/engine/objectio/checksum';
import type { LinkShape } from '../../src/main/engine/objectio/link';

export class TimedObjectIo implements ObjectIo {
  readonly endpoint: string;
  readonly link?: LinkShape;
  readonly readTail?: (key: string, suffix: number, listedSize: number) => Promise<TailResult>;
  readonly readRange?: (key: string, start: number, length: number) => Promise<Uint8Array>;
  readonly deleteMany?: (keys: readonly string[]) => Promise<BatchDeleteResult>;
  readonly readRangeChecksummed?: (
    key: string,
    start: number,
    length: number,
    checksum: ChecksumRequest,
  ) => Promise<ChecksummedRead>;
  /** Milliseconds the requests made so far took, added up. */
  requestMs = 0;
  /** Requests made so far, by operation. */
  readonly requests = new Map<string, number>();
  private inFlight = 0;
  /** Milliseconds with no request in flight, up to `idleFrom`, since `countIdleFromNow`. */
  private idleMs = 0;
  private idleFrom: number | null = performance.now();

  constructor(readonly inner: ObjectIo) {
    this.endpoint = inner.endpoint;
    this.link = inner.link;
    if (inner.readTail !== undefined)
      this.readTail = (...args) => this.timed('get', () => inner.readTail!(...args));
    if (inner.readRange !== undefined)
      this.readRange = (...args) => this.timed('get', () => inner.readRange!(...args));
    if (inner.readRangeChecksummed !== undefined)
      this.readRangeChecksummed = (...args) =>
        this.timed('get', () => inner.readRangeChecksummed!(...args));
    if (inner.deleteMany !== undefined)
      this.deleteMany = (keys) => this.timed('deleteMany', () => inner.deleteMany!(keys));
  }

  /** Requests made so far, all operations. */
  get requestCount(): number {
    let count = 0;
    for (const made of this.requests.values()) count += made;
    return count;
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.timed('putIfAbsent', () => this.inner.putIfAbsent(key, bytes));
  }

  get(key: string, range?: ByteRange): Promise<GetResult> {
    return this.timed('get', () => this.inner.get(key, range));
  }

  head(key: string): Promise<ObjectMeta> {
    return this.timed('head', () => this.inner.head(key));
  }

  listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    return this.timed('listPage', () => this.inner.listPage(prefix, options));
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  delete(key: string): Promise<void> {
    return this.timed('delete', () => this.inner.delete(key));
  }

  /** Starts counting the time with no request in flight from now. */
  countIdleFromNow(): void {
    this.idleMs = 0;
    this.idleFrom = this.inFlight === 0 ? performance.now() : null;
  }

  /** Milliseconds with no request in flight since `countIdleFromNow`. */
  idleSoFar(): number {
    return this.idleMs + (this.idleFrom === null ? 0 : performance.now() - this.idleFrom);
  }

  /** Failed requests count too: a NotFound is the fence's usual answer. */
  private async timed<T>(operation: string, request: () => Promise<T>): Promise<T> {
    this.requests.set(operation, (this.requests.get(operation) ?? 0) + 1);
    const started = performance.now();
    if (this.inFlight++ === 0 && this.idleFrom !== null) this.idleMs += started - this.idleFrom;
    this.idleFrom = null;
    try {
      return await request();
    } finally {
      const ended = performance.now();
      this.requestMs += ended - started;
      if (--this.inFlight === 0) this.idleFrom = ended;
    }
  }
}
