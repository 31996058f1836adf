/**
 * A search's reads (search.md): the objects the plan names, each fetched in as few range reads
 * as cover its wanted segments (one for a whole object of wanted regions; the header beside
 * them where the format checks it), in the I/O controller's slots and as many ahead as the
 * link's width, at most `heldBytes` fetched but not yet taken - the window the scan holds -
 * and handed out in the plan's order. Each segment is checked and decoded by its format's
 * codec, as a region read does; a segment that fails is fetched once more alone by the region
 * reader's own path, then becomes a hole (told to `onSkipped`, recorded in the catalog) or
 * fails the search, by the same judgement a replay makes. Entries come back in the id range
 * asked, above their region's watermark. Never writes storage.
 */
import { checksumOf } from '../objectio/checksum';
import { coveringReads, type Span } from '../objectio/coalesce';
import { linkIo, slotsOf, type IoSlots } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import type { ObjectCatalog, SegmentLocation } from '../wal/catalog';
import type { WalEntry } from '../wal/entry';
import { CorruptSegmentError } from '../wal/errors';
import { checkHeaderForRead, HEADER_SIZE } from '../wal/format';
import { createWalMetrics } from '../wal/metrics';
import type { Provider } from '../wal/provider';
import { ReadAhead } from '../wal/read-ahead';
import {
  fetchSegment,
  identityOf,
  judgeFailure,
  READ_AHEAD_BYTES,
  type Fetched,
  type MakeEntry,
  type ReaderContext,
  type ReadOptions,
  type SegmentCodec,
} from '../wal/reader';
import type { WalFormat } from '../wal-read/format';
import { SEARCH_CODECS } from './codecs';
import {
  newPlanCounts,
  objectReads,
  type ObjectRead,
  type PlanCounts,
  type SearchScope,
} from './plan';

/** What a search reads: a prefix's catalog in its format (the read side's read-only log). */
export interface SearchedLog {
  readonly format: WalFormat;
  readonly prefix: string;
  readonly catalog: ObjectCatalog;
}

export interface ScanOptions extends ReadOptions {
  /** The connection's link; a new one for `io` when absent. */
  readonly slots?: IoSlots;
  /** Bytes fetched and not yet taken, at most (always one object's). */
  readonly heldBytes?: number;
}

export interface ScannedSegment {
  readonly location: SegmentLocation;
  /** In id order, inside the scope's id range, above the watermark. */
  readonly entries: readonly WalEntry[];
}

export interface ScannedObject {
  readonly key: string;
  readonly seq: bigint;
  readonly segments: readonly ScannedSegment[];
}

/** How far a scan has come: the plan's counts and the bytes read. */
export interface ScanCounts extends PlanCounts {
  objectsRead: number;
  bytesRead: number;
  entries: number;
}

export function newScanCounts(): ScanCounts {
  return { ...newPlanCounts(), objectsRead: 0, bytesRead: 0, entries: 0 };
}

interface FetchedObject {
  readonly read: ObjectRead;
  readonly segments: readonly Fetched[];
}

/** The spans one object's fetch covers: its segments, and its header when it is checked. */
function spansOf(read: ObjectRead, withHeader: boolean): Span[] {
  const spans = read.segments.map((s) => ({ start: s.offset, end: s.offset + s.length }));
  return withHeader ? [{ start: 0, end: HEADER_SIZE }, ...spans] : spans;
}

/** The bytes of `span` out of the covering reads that hold them. */
function bytesAt(reads: readonly Span[], got: readonly Uint8Array[], span: Span): Uint8Array {
  const at = reads.findIndex((read) => read.start <= span.start && span.end <= read.end);
  const read = reads[at]!;
  return got[at]!.subarray(span.start - read.start, span.end - read.start);
}

/** One segment from its covered bytes; a failed check is fetched once more alone. */
async function segmentOf(
  context: ReaderContext,
  codec: SegmentCodec,
  location: SegmentLocation,
  bytes: Uint8Array,
  make: MakeEntry,
): Promise<Fetched> {
  try {
    const checksum = checksumOf(codec.checksum, bytes);
    return { location, entries: codec.decodeInto(bytes, location, location.key, make, checksum) };
  } catch (error) {
    if (!(error instanceof CorruptSegmentError)) return { location, error };
    return fetchSegment(context, location, make);
  }
}

/** Per region, what builds its entries (one provider object per region, shared). */
type Makers = (region: bigint) => MakeEntry;

function makersOf(prefix: string): Makers {
  const makers = new Map<bigint, MakeEntry>();
  return (region) => {
    let make = makers.get(region);
    if (make === undefined) {
      const provider: Provider = { prefix, regionId: region };
      make = (id, data) => ({ provider, regionId: region, id, data });
      makers.set(region, make);
    }
    return make;
  };
}

/** One object's wanted segments: covering range reads, then each segment checked and decoded. */
async function fetchObject(
  context: ReaderContext,
  codec: SegmentCodec,
  read: ObjectRead,
  make: Makers,
  counts: ScanCounts,
): Promise<FetchedObject> {
  const withHeader = codec.checksHeader && !context.headersChecked.has(read.seq);
  const spans = spansOf(read, withHeader);
  const reads = coveringReads(spans);
  let got: Uint8Array[];
  try {
    got = await Promise.all(
      reads.map(async (span) => {
        const result = await context.io.get(read.key, { start: span.start, end: span.end - 1 });
        counts.bytesRead += result.bytes.length;
        return result.bytes;
      }),
    );
  } catch (error) {
    return { read, segments: read.segments.map((location) => ({ location, error })) };
  }
  if (withHeader) {
    const first = read.segments[0]!;
    const identity = identityOf(context.catalog, first);
    try {
      if (identity !== null)
        checkHeaderForRead(bytesAt(reads, got, spans[0]!), identity, first.regionId, read.key);
      context.headersChecked.add(read.seq);
    } catch {
      // The region reader's own path checks it again per segment and names the failure.
      const segments = await Promise.all(
        read.segments.map((location) => fetchSegment(context, location, make(location.regionId))),
      );
      return { read, segments };
    }
  }
  const segments: Fetched[] = [];
  for (const location of read.segments) {
    const bytes = bytesAt(reads, got, {
      start: location.offset,
      end: location.offset + location.length,
    });
    segments.push(await segmentOf(context, codec, location, bytes, make(location.regionId)));
  }
  return { read, segments };
}

/** The entries of a segment inside the scope's ids and above the region's watermark. */
function entriesInScope(
  catalog: ObjectCatalog,
  scope: SearchScope,
  location: SegmentLocation,
  entries: readonly WalEntry[],
): readonly WalEntry[] {
  const watermark = catalog.watermark(location.regionId);
  const from = scope.fromId > watermark ? scope.fromId : watermark + 1n;
  const to = scope.toId;
  const first = entries[0];
  const last = entries[entries.length - 1];
  if (first === undefined || last === undefined) return entries;
  if (first.id >= from && (to === null || last.id <= to)) return entries;
  return entries.filter((entry) => entry.id >= from && (to === null || entry.id <= to));
}

/**
 * The scope's objects of `log`, read and decoded in the scope's order; holes as `options`
 * says (skip by default). `counts` is kept up to date as the scan goes.
 */
export async function* scanObjects(
  io: ObjectIo,
  log: SearchedLog,
  scope: SearchScope,
  options: ScanOptions = {},
  counts: ScanCounts = newScanCounts(),
): AsyncIterable<ScannedObject> {
  const codec = SEARCH_CODECS[log.format];
  const slots = options.slots ?? slotsOf(io);
  const context: ReaderContext = {
    io: linkIo(io, slots),
    slots,
    catalog: log.catalog,
    onCorruptedSegment: options.onCorruptedSegment ?? 'skip',
    metrics: createWalMetrics(),
    headersChecked: new Set(),
    segments: codec,
  };
  const make = makersOf(log.prefix);
  const plan = objectReads(log.catalog, scope, counts)[Symbol.iterator]();
  const ahead = new ReadAhead(
    {
      inFlight: () => slots.width,
      held: () => 2 * slots.width,
      heldBytes: options.heldBytes ?? READ_AHEAD_BYTES,
      bytesOf: (read: ObjectRead) => read.bytes,
    },
    () => {
      const next = plan.next();
      return next.done === true ? undefined : next.value;
    },
    (read: ObjectRead) => {
      slots.noteWork?.(1, 0);
      return fetchObject(context, codec, read, make, counts).finally(() => slots.noteWork?.(0, 1));
    },
  );
  try {
    for (let next = ahead.take(); next !== undefined; next = ahead.take()) {
      const fetched = await next;
      counts.objectsRead += 1;
      const segments: ScannedSegment[] = [];
      for (const one of fetched.segments) {
        if ('error' in one) {
          await judgeFailure(context, one, options);
          continue;
        }
        const entries = entriesInScope(log.catalog, scope, one.location, one.entries);
        counts.entries += entries.length;
        if (entries.length > 0) segments.push({ location: one.location, entries });
      }
      yield { key: fetched.read.key, seq: fetched.read.seq, segments };
    }
  } finally {
    ahead.close();
  }
}
