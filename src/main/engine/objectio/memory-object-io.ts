/**
 * An in-process ObjectIo with S3's exact semantics (atomic create-if-absent, strong
 * listing, ranges, MD5 ETags). For tests and demos only: nothing survives the process.
 */
import { createHash } from 'node:crypto';
import { resolveRange } from './byte-range';
import { checkedDeleteBatch } from './batch-delete';
import { AlreadyExistsError, BackendError, NotFoundError } from './errors';
import {
  pagesOf,
  type BatchDeleteResult,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type ObjectMeta,
} from './object-io';
import { compareKeys, listSortedPage } from './sorted-listing';

interface StoredObject {
  readonly bytes: Uint8Array;
  readonly etag: string;
  readonly lastModified: Date;
}

export class MemoryObjectIo implements ObjectIo {
  private readonly objects = new Map<string, StoredObject>();

  constructor(readonly endpoint = 'memory') {}

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    if (this.objects.has(key)) throw new AlreadyExistsError(key, this.endpoint);
    const etag = createHash('md5').update(bytes).digest('hex');
    this.objects.set(key, { bytes: new Uint8Array(bytes), etag, lastModified: new Date() });
    return { etag };
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    const stored = this.stored(key);
    const slice = resolveRange(stored.bytes.length, range);
    if (slice === null) throw new BackendError(key, this.endpoint, 'range not satisfiable');
    return {
      bytes: stored.bytes.slice(slice.start, slice.end),
      etag: stored.etag,
      size: stored.bytes.length,
    };
  }

  async head(key: string): Promise<ObjectMeta> {
    return this.metaOf(key);
  }

  async listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    const keys = [...this.objects.keys()].sort(compareKeys);
    return listSortedPage(keys, (key) => this.metaOf(key), prefix, options);
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  async deleteMany(keys: readonly string[]): Promise<BatchDeleteResult> {
    const ascending = checkedDeleteBatch(this.endpoint, keys);
    for (const key of ascending) this.objects.delete(key);
    return { deleted: ascending, failed: [] };
  }

  /** Number of objects held, for tests. */
  get size(): number {
    return this.objects.size;
  }

  private stored(key: string): StoredObject {
    const stored = this.objects.get(key);
    if (stored === undefined) throw new NotFoundError(key, this.endpoint);
    return stored;
  }

  private metaOf(key: string): ObjectMeta {
    const stored = this.stored(key);
    return { key, size: stored.bytes.length, etag: stored.etag, lastModified: stored.lastModified };
  }
}
