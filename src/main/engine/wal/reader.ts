/**
 * Reading one region (wal.md, "Reading"): the region's entries with id >= fromId, in order,
 * hiding ids at or below its watermark. Only the region's segment of each object is fetched
 * (a range read located by the catalog), as far ahead as the link allows (its width of fetches
 * in flight, `READ_AHEAD_BYTES` held at most), yielded in order: one batch per segment (`readRegionBatches`, one async step per segment;
 * entries are views into the fetched bytes), which the per-entry stream (`readRegion`) wraps
 * without an async function call per entry. The header is checked on an object's first read,
 * in the same request as the segment when the gap between them is small (`coveringReads`);
 * a segment that fails its checks is fetched once more, then becomes a hole (`skip`) or fails
 * the read (`fail`) - the store's policy, or the read's own (`ReadOptions`), which is also told
 * about every segment it skips. An object collected meanwhile is skipped when its ids are below the
 * watermark, else `ObjectGone`. It never writes storage and changes the catalog only to
 * record holes.
 */
import { isStorageError } from '../objectio/errors';
import type { ChecksumAlgorithm } from '../objectio/checksum';
import { coveringReads } from '../objectio/coalesce';
import { linkIo, slotsOf, type IoSlots } from '../objectio/link';
import { readRange, readRangeChecksummed, type ObjectIo } from '../objectio/object-io';
import type { Hole, ObjectCatalog, SegmentLocation } from './catalog';
import type { OnCorruptedSegment } from './config';
import type { WalEntry } from './entry';
import { CorruptSegmentError, ObjectGoneError, type CorruptSegmentCheck } from './errors';
import {
  checkHeaderForRead,
  decodeSegmentInto,
  HEADER_SIZE,
  type ObjectTrailer,
  type SegmentIndex,
} from './format';
import type { EntryId } from './ids';
import type { WalMetrics } from './metrics';
import type { Provider } from './provider';
import { ReadAhead } from './read-ahead';
import type { RegionId } from './region-id';

/**
 * Bytes of segments fetched or being fetched that a read holds before its consumer takes them:
 * at 50 ms and ~100 MB/s a link carries ~5 MB a round trip, so this keeps several in hand.
 */
export const READ_AHEAD_BYTES = 32 * 1024 * 1024;

/**
 * How one object format's segments are read. Cairn's recovery never reads an object's header,
 * so its reader checks it on the object's first read; GreptimeDB's recovery already checked
 * every header.
 */
export interface SegmentCodec {
  /**
   * The segment's entries made by `make` straight from the bytes (views, no copy), `checksum`
   * the segment's sum already taken where it was read.
   */
  readonly decodeInto: <T>(
    bytes: Uint8Array,
    index: SegmentIndex,
    key: string,
    make: (id: EntryId, data: Uint8Array) => T,
    checksum: number,
  ) => T[];
  /** The sum a segment carries, which the store takes as it reads the segment. */
  readonly checksum: ChecksumAlgorithm;
  readonly checksHeader: boolean;
}

export const CAIRN_SEGMENTS: SegmentCodec = {
  decodeInto: decodeSegmentInto,
  checksum: 'crc32c',
  checksHeader: true,
};

export interface ReaderContext {
  readonly io: ObjectIo;
  /** The link the reads run through (a connection's); a new one for `io` when absent. */
  readonly slots?: IoSlots;
  readonly catalog: ObjectCatalog;
  readonly onCorruptedSegment: OnCorruptedSegment;
  readonly metrics: WalMetrics;
  /** Cairn's format when absent. */
  readonly segments?: SegmentCodec;
  /** Sequences whose header a read of this store already checked. */
  readonly headersChecked: Set<bigint>;
  /** Told about each hole a read records. */
  readonly onHole?: (error: CorruptSegmentError) => void;
  /** Re-reads the persisted watermarks into the catalog (control.md point 5: a reader that
   * meets a missing object judges again). Absent for a writer, whose catalog holds them. */
  readonly refreshWatermarks?: () => Promise<void>;
}

/** A segment one read skipped: where it is, the ids it held, and the check it failed. */
export interface SkippedSegment extends Hole {
  readonly check: CorruptSegmentCheck;
  readonly detail: string;
}

/**
 * What one read asks beyond its store's settings: its own damage policy (the store's when
 * absent), and a callback told about every segment this read skips - every time, even a
 * segment an earlier read already recorded as a hole, so each read can say what it skipped.
 */
export interface ReadOptions {
  readonly onCorruptedSegment?: OnCorruptedSegment;
  readonly onSkipped?: (skipped: SkippedSegment) => void;
}

export type Fetched =
  | { readonly location: SegmentLocation; readonly entries: readonly WalEntry[] }
  | { readonly location: SegmentLocation; readonly error: unknown };

/** The identity the catalog knows for an object, in the shape the header check compares. */
export function identityOf(
  catalog: ObjectCatalog,
  location: SegmentLocation,
): ObjectTrailer | null {
  const object = catalog.object(location.seq);
  if (object === undefined) return null;
  return {
    seq: object.seq,
    epoch: object.epoch,
    link: object.link,
    footerOffset: 0,
    footerLength: 0,
    footerCrc: 0,
  };
}

/**
 * The segment's bytes and their checksum, and the header's bytes when it must be checked (one
 * range read from the header on when the gap between them is small).
 */
async function fetchBytes(
  io: ObjectIo,
  location: SegmentLocation,
  withHeader: boolean,
  algorithm: ChecksumAlgorithm,
): Promise<{ header: Uint8Array | null; segment: Uint8Array; checksum: number }> {
  const { key, offset, length } = location;
  const oneRead =
    coveringReads([
      { start: 0, end: HEADER_SIZE },
      { start: offset, end: offset + length },
    ]).length === 1;
  if (!withHeader || oneRead) {
    const from = withHeader ? offset : 0;
    const read = await readRangeChecksummed(io, key, offset - from, from + length, {
      algorithm,
      from,
    });
    const header = withHeader ? read.bytes.subarray(0, HEADER_SIZE) : null;
    return { header, segment: read.bytes.subarray(from), checksum: read.checksum };
  }
  const [header, read] = await Promise.all([
    readRange(io, key, 0, HEADER_SIZE),
    readRangeChecksummed(io, key, offset, length, { algorithm, from: 0 }),
  ]);
  return { header, segment: read.bytes, checksum: read.checksum };
}

/** Builds the region's entries straight from the segment's records (one object per entry). */
export type MakeEntry = (id: EntryId, data: Uint8Array) => WalEntry;

async function readOnce(
  context: ReaderContext,
  location: SegmentLocation,
  make: MakeEntry,
): Promise<readonly WalEntry[]> {
  const codec = context.segments ?? CAIRN_SEGMENTS;
  const identity =
    !codec.checksHeader || context.headersChecked.has(location.seq)
      ? null
      : identityOf(context.catalog, location);
  const fetched = await fetchBytes(context.io, location, identity !== null, codec.checksum);
  if (fetched.header !== null && identity !== null) {
    checkHeaderForRead(fetched.header, identity, location.regionId, location.key);
    context.headersChecked.add(location.seq);
  }
  return codec.decodeInto(fetched.segment, location, location.key, make, fetched.checksum);
}

/** A segment failing its checks is fetched once more before it counts as corrupt. */
export async function fetchSegment(
  context: ReaderContext,
  location: SegmentLocation,
  make: MakeEntry,
): Promise<Fetched> {
  try {
    try {
      return { location, entries: await readOnce(context, location, make) };
    } catch (error) {
      if (!(error instanceof CorruptSegmentError)) throw error;
      return { location, entries: await readOnce(context, location, make) };
    }
  } catch (error) {
    return { location, error };
  }
}

/** What a failed fetch means for the stream: skip it, or throw. */
export async function judgeFailure(
  context: ReaderContext,
  fetched: Extract<Fetched, { error: unknown }>,
  options: ReadOptions,
): Promise<void> {
  const { location, error } = fetched;
  if (error instanceof CorruptSegmentError) {
    if ((options.onCorruptedSegment ?? context.onCorruptedSegment) === 'fail') throw error;
    const hole: Hole = {
      regionId: location.regionId,
      key: location.key,
      seq: location.seq,
      firstId: location.firstId,
      lastId: location.lastId,
    };
    if (context.catalog.recordHole(hole)) {
      context.metrics.skippedSegments.inc();
      context.onHole?.(error);
    }
    options.onSkipped?.({ ...hole, check: error.check, detail: error.detail });
    return;
  }
  if (isStorageError(error, 'NotFound')) {
    // Collected by GC while we waited: fine when every id in it is obsolete, judged again
    // against the register's watermarks when ours may be older than the collection.
    if (location.lastId <= context.catalog.watermark(location.regionId)) return;
    await context.refreshWatermarks?.();
    if (location.lastId <= context.catalog.watermark(location.regionId)) return;
    throw new ObjectGoneError(location.key);
  }
  throw error;
}

/** The entries of `entries` above `floor`; the array itself when all are (no copy). */
function above(entries: readonly WalEntry[], floor: EntryId): readonly WalEntry[] {
  const first = entries[0];
  if (first === undefined || first.id > floor) return entries;
  return entries.filter((entry) => entry.id > floor);
}

/**
 * The region's entries with id >= fromId, in order, ids at or below the watermark hidden, one
 * batch per segment (never empty). For replay: one async step per segment, not per entry.
 */
export async function* readRegionBatches(
  context: ReaderContext,
  provider: Provider,
  fromId: EntryId,
  options: ReadOptions = {},
): AsyncIterable<readonly WalEntry[]> {
  const region = provider.regionId;
  const make: MakeEntry = (id, data) => ({ provider, regionId: region, id, data });
  const slots = context.slots ?? slotsOf(context.io);
  const linked: ReaderContext = { ...context, io: linkIo(context.io, slots), slots };
  const started = performance.now();
  let cursor = fromId < 1n ? 1n : fromId;
  const nextLocation = (): SegmentLocation | undefined => {
    for (;;) {
      const [location] = context.catalog.objectsForRegion(region, cursor, 1);
      if (location === undefined) return undefined;
      cursor = location.lastId + 1n;
      if (location.lastId > context.catalog.watermark(region)) return location;
    }
  };
  const ahead = new ReadAhead(
    {
      inFlight: () => slots.width,
      held: () => 2 * slots.width,
      heldBytes: READ_AHEAD_BYTES,
      bytesOf: (location: SegmentLocation) => location.length,
    },
    nextLocation,
    (location: SegmentLocation) => {
      slots.noteWork?.(1, 0);
      return fetchSegment(linked, location, make).finally(() => slots.noteWork?.(0, 1));
    },
  );
  try {
    for (let next = ahead.take(); next !== undefined; next = ahead.take()) {
      const fetched = await next;
      if ('error' in fetched) {
        await judgeFailure(context, fetched, options);
        continue;
      }
      const watermark = context.catalog.watermark(region);
      const batch = above(fetched.entries, fromId - 1n > watermark ? fromId - 1n : watermark);
      if (batch.length > 0) yield batch;
    }
  } finally {
    ahead.close();
    context.metrics.readSeconds.observe((performance.now() - started) / 1000);
  }
}

/**
 * The per-entry face of `readRegionBatches`. An entry already decoded is handed out without
 * entering an async function (a resolved promise is all the protocol asks for), and the
 * watermark is looked up again only when the catalog says one moved - so an obsolete call made
 * while reading still hides the ids it covers at once, as before, at no cost per entry.
 */
class EntryStream implements AsyncIterator<WalEntry> {
  private batch: readonly WalEntry[] = [];
  private at = 0;
  private watermark: EntryId = 0n;
  private watermarkVersion = -1;

  constructor(
    private readonly batches: AsyncIterator<readonly WalEntry[]>,
    private readonly catalog: ObjectCatalog,
    private readonly region: RegionId,
  ) {}

  next(): Promise<IteratorResult<WalEntry>> {
    const entry = this.nextInBatch();
    return entry === undefined ? this.nextBatch() : Promise.resolve({ value: entry, done: false });
  }

  async return(): Promise<IteratorResult<WalEntry>> {
    this.batch = [];
    await this.batches.return?.();
    return { value: undefined, done: true };
  }

  /** The next visible entry of the current batch, or undefined once it is spent. */
  private nextInBatch(): WalEntry | undefined {
    const { batch } = this;
    if (this.catalog.watermarkVersion !== this.watermarkVersion) {
      this.watermarkVersion = this.catalog.watermarkVersion;
      this.watermark = this.catalog.watermark(this.region);
    }
    while (this.at < batch.length) {
      const entry = batch[this.at++]!;
      if (entry.id > this.watermark) return entry;
    }
    return undefined;
  }

  private async nextBatch(): Promise<IteratorResult<WalEntry>> {
    for (;;) {
      const next = await this.batches.next();
      if (next.done === true) return { value: undefined, done: true };
      this.batch = next.value;
      this.at = 0;
      const entry = this.nextInBatch();
      if (entry !== undefined) return { value: entry, done: false };
    }
  }
}

/** The region's entries with id >= fromId, in order, ids at or below the watermark hidden. */
export function readRegion(
  context: ReaderContext,
  provider: Provider,
  fromId: EntryId,
  options: ReadOptions = {},
): AsyncIterable<WalEntry> {
  return {
    [Symbol.asyncIterator]: () =>
      new EntryStream(
        readRegionBatches(context, provider, fromId, options)[Symbol.asyncIterator](),
        context.catalog,
        provider.regionId,
      ),
  };
}
