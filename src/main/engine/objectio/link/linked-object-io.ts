/**
 * An ObjectIo whose every request runs in a slot of one link (`IoSlots`): reads, heads,
 * listing pages and deletes wait for the link's room and are measured by its controller, so
 * every path that shares a connection's storage shares its link - recovery, replay, verify,
 * the fleet passes, the bucket browser. Each request asks for the bytes its range names (a
 * whole-object read names none). Creates pass straight through: the WAL writer bounds its own
 * (`maxInFlightCreates`), and a create must never wait behind a scan to be acknowledged.
 *
 * Wrapping is idempotent for one link (`linkIo`), so a read path handed a connection's linked
 * storage and its slots never takes two slots of one controller for one request - which could
 * deadlock once every slot is held by a request waiting for a second one.
 */
import type { ChecksummedRead, ChecksumRequest } from '../checksum';
import {
  pagesOf,
  readRange,
  readRangeChecksummed,
  readTail,
  folderStampOf,
  type BatchDeleteResult,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type ObjectMeta,
  type TailResult,
} from '../object-io';
import { withSlot, type IoSlots } from './io-slots';
import type { LinkShape } from './backend-link';
import { ioControllerFor } from './link-shape';

export class LinkedObjectIo implements ObjectIo {
  readonly endpoint: string;
  readonly link?: LinkShape;
  readonly deleteMany?: (keys: readonly string[]) => Promise<BatchDeleteResult>;

  constructor(
    readonly inner: ObjectIo,
    readonly slots: IoSlots,
  ) {
    this.endpoint = inner.endpoint;
    this.link = inner.link;
    const many = inner.deleteMany?.bind(inner);
    if (many !== undefined)
      this.deleteMany = (keys) => withSlot(slots, { kind: 'delete' }, () => many(keys));
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.inner.putIfAbsent(key, bytes);
  }

  get(key: string, range?: ByteRange): Promise<GetResult> {
    const bytes = bytesOfRange(range);
    return withSlot(this.slots, { kind: 'read', bytes }, () => this.inner.get(key, range));
  }

  head(key: string): Promise<ObjectMeta> {
    return withSlot(this.slots, { kind: 'head' }, () => this.inner.head(key));
  }

  listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    return withSlot(this.slots, { kind: 'list' }, () => this.inner.listPage(prefix, options));
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  delete(key: string): Promise<void> {
    return withSlot(this.slots, { kind: 'delete' }, () => this.inner.delete(key));
  }

  /** One `stat` of a local folder, no request of the link's: outside its slots. */
  folderStamp(folderKey: string): Promise<string | null> {
    return folderStampOf(this.inner, folderKey);
  }

  readTail(key: string, suffix: number, listedSize: number): Promise<TailResult> {
    return withSlot(this.slots, { kind: 'read', bytes: suffix }, () =>
      readTail(this.inner, key, suffix, listedSize),
    );
  }

  readRange(key: string, start: number, length: number): Promise<Uint8Array> {
    return withSlot(this.slots, { kind: 'read', bytes: length }, () =>
      readRange(this.inner, key, start, length),
    );
  }

  readRangeChecksummed(
    key: string,
    start: number,
    length: number,
    checksum: ChecksumRequest,
  ): Promise<ChecksummedRead> {
    return withSlot(this.slots, { kind: 'read', bytes: length }, () =>
      readRangeChecksummed(this.inner, key, start, length, checksum),
    );
  }

  destroy(): void {
    this.inner.destroy?.();
  }
}

/** Bytes a read of `range` may answer; 0 for a whole object (its size is not known here). */
function bytesOfRange(range: ByteRange | undefined): number {
  if (range === undefined) return 0;
  if ('suffix' in range) return Math.max(0, range.suffix);
  return range.end === undefined ? 0 : Math.max(0, range.end - range.start + 1);
}

/** `io` with its requests in slots of `slots`; `io` itself when it already is. */
export function linkIo(io: ObjectIo, slots: IoSlots): ObjectIo {
  return io instanceof LinkedObjectIo && io.slots === slots ? io : new LinkedObjectIo(io, slots);
}

/** The link `io`'s requests run through, or a new controller for it (see `ioControllerFor`). */
export function slotsOf(io: ObjectIo): IoSlots {
  return io instanceof LinkedObjectIo ? io.slots : ioControllerFor(io);
}

/**
 * `io` when its requests already run in a link's slots, else `io` on a new controller of its
 * own: what an engine call that makes many requests (an open and the reads after it) starts
 * from, so all of them share one link whether or not the caller had one.
 */
export function linkedIo(io: ObjectIo): ObjectIo {
  return io instanceof LinkedObjectIo ? io : new LinkedObjectIo(io, ioControllerFor(io));
}

/**
 * The store under `io`'s link: what a writer runs on. Its creates and register updates are
 * its commit path, bounded by the writer itself, and must never queue behind a scan's reads.
 */
export function directIo(io: ObjectIo): ObjectIo {
  return io instanceof LinkedObjectIo ? io.inner : io;
}
