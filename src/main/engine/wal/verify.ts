/**
 * Deep verification of a WAL prefix: reads every object (paged listing, as many at a time as
 * the link's width and its memory budget allow; small objects whole, large ones in bounded
 * pieces) and runs every check of the format on it - header and trailer CRCs and their
 * agreement, the footer, every segment's CRC and framing - reporting a verdict per object.
 * Read-only; it judges bytes, not chains (that is recovery's and `inspect`'s job). An object
 * collected while the pass ran is reported as gone, not as damage.
 */
import { crc32c } from '@node-rs/crc32';
import type { ObjectIo } from '../objectio/object-io';
import { isStorageError, ObjectTooLargeError } from '../objectio/errors';
import { fanOut, linkIo, slotsOf, type IoSlots } from '../objectio/link';
import { readRanges, READ_CHUNK_BYTES } from '../objectio/ranged-read';
import { validateWalConfig, type ObjectStoreWalConfigInput } from './config';
import {
  CorruptObjectError,
  CorruptSegmentError,
  type CorruptObjectCheck,
  type CorruptSegmentCheck,
} from './errors';
import {
  RECORD_HEADER_SIZE,
  TAIL_WINDOW_BYTES,
  checkHeaderMatchesTrailer,
  decodeFooter,
  decodeHeader,
  decodeObject,
  decodeTrailer,
  footerFromTail,
  footerRange,
  headerRange,
  type SegmentIndex,
} from './format';
import type { EntryId, Seq } from './ids';
import { seqOfAnyObjectKey, walPrefix } from './keys';
import type { RegionId } from './region-id';
import { compareSeq, listObjectPagesInRanges, type ListedObject } from './recovery';

/**
 * Objects up to this size are read whole, in one request (the writer's batches are far below
 * it); larger ones are read in `READ_CHUNK_BYTES` pieces. A whole read names its bytes, so
 * the link's memory budget bounds what verify holds at once, whatever the store holds.
 */
export const VERIFY_WHOLE_READ_BYTES = 16 * 1024 * 1024;
/** A footer larger than this (over a million segments) is `ObjectTooLarge`, not read. */
export const MAX_VERIFY_FOOTER_BYTES = 64 * 1024 * 1024;

export interface ObjectVerdict {
  readonly key: string;
  readonly seq: Seq | null;
  /** Bytes read; 0 when the object is gone. */
  readonly size: number;
  readonly ok: boolean;
  /** The first check that failed. */
  readonly check?: CorruptObjectCheck | CorruptSegmentCheck;
  readonly detail?: string;
  /** The region whose segment failed, when the first failure was a segment's. */
  readonly region?: RegionId;
  /** The object was listed but is gone (collected meanwhile); `ok` is false. */
  readonly gone?: boolean;
  /** The layout a sound object is in, where its format has more than one (GreptimeDB's). */
  readonly layout?: string;
  /**
   * GreptimeDB: the regions and ids a replay loses to this damaged object - only its failing
   * segments, each a hole of its region (empty: none, the damage is outside every segment).
   * Absent when the object's index does not decode or the format is Cairn's.
   */
  readonly lost?: ReadonlyArray<{
    readonly regionId: RegionId;
    readonly firstId: bigint;
    readonly lastId: bigint;
  }>;
}

export interface VerifyReport {
  readonly prefix: string;
  readonly objects: readonly ObjectVerdict[];
  readonly checked: number;
  readonly damaged: number;
  readonly gone: number;
}

export interface VerifyObjectOptions {
  /** The object's size when a listing gave it; else one `head` asks. */
  readonly size?: number;
  /** Objects up to this size are read whole (one request); larger ones piece by piece. */
  readonly wholeReadBytes?: number;
  /** Bytes per ranged read when reading piece by piece. */
  readonly chunkBytes?: number;
  /**
   * Told the bytes of an object read whole that passed every check, so a caller can take what
   * recovery needs of it from the same read (never for an object checked in pieces).
   */
  readonly sound?: (bytes: Uint8Array) => void;
}

export interface VerifyPrefixOptions {
  /** Told each listed object read whole that passed every check, with its bytes. */
  readonly sound?: (listed: ListedObject, bytes: Uint8Array) => void;
}

/**
 * Runs every check of the format on `key`, holding at most `wholeReadBytes` (or one chunk of
 * a larger object) at a time, so an object of any size - 2 GiB, 8 GiB, a sparse file - costs
 * bounded memory. Storage errors other than NotFound are thrown, as is `ObjectTooLarge` for a
 * footer too large to hold.
 */
/**
 * One object's verdict, whatever its format: `check` reads and judges the object of `size`
 * bytes and returns how many it saw (and the layout it found, if the format has several); a
 * corruption becomes the verdict, a vanished object is `gone`, any other storage error is
 * thrown.
 */
export async function judgeObject(
  io: ObjectIo,
  key: string,
  knownSize: number | undefined,
  check: (size: number) => Promise<number | { readonly size: number; readonly layout: string }>,
): Promise<ObjectVerdict> {
  const seq = seqOfAnyObjectKey(key);
  let size = knownSize ?? -1;
  try {
    if (size < 0) size = (await io.head(key)).size;
    const seen = await check(size);
    if (typeof seen === 'number') return { key, seq, size: seen, ok: true };
    return { key, seq, size: seen.size, ok: true, layout: seen.layout };
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return { key, seq, size: 0, ok: false, gone: true };
    if (error instanceof CorruptSegmentError)
      return {
        key,
        seq,
        size,
        ok: false,
        check: error.check,
        detail: error.detail,
        region: error.region,
      };
    if (error instanceof CorruptObjectError)
      return { key, seq, size, ok: false, check: error.check, detail: error.detail };
    throw error;
  }
}

export async function verifyObject(
  io: ObjectIo,
  key: string,
  options: VerifyObjectOptions = {},
): Promise<ObjectVerdict> {
  return judgeObject(io, key, options.size, async (size) => {
    if (size > (options.wholeReadBytes ?? VERIFY_WHOLE_READ_BYTES)) {
      await checkInPieces(io, key, size, options.chunkBytes ?? READ_CHUNK_BYTES);
      return size;
    }
    const bytes = await readWhole(io, key, size);
    decodeObject(bytes, key);
    options.sound?.(bytes);
    return bytes.length;
  });
}

/**
 * The object's bytes: a range of the listed size, so the read names what it will hold (the
 * link's memory budget counts it); the whole object when it turned out larger than listed.
 */
export async function readWhole(io: ObjectIo, key: string, size: number): Promise<Uint8Array> {
  if (size <= 0) return (await io.get(key)).bytes;
  const got = await io.get(key, { start: 0, end: size - 1 });
  return got.size === got.bytes.length ? got.bytes : (await io.get(key)).bytes;
}

/** The checks of `decodeObject`, in its order, reading trailer, footer, header and segments apart. */
async function checkInPieces(
  io: ObjectIo,
  key: string,
  size: number,
  chunkBytes: number,
): Promise<void> {
  const tailStart = Math.max(0, size - TAIL_WINDOW_BYTES);
  const tail = (await io.get(key, { start: tailStart, end: size - 1 })).bytes;
  const trailer = decodeTrailer(tail, size, key);
  let footer = footerFromTail(tail, size, trailer);
  if (footer === null) {
    if (trailer.footerLength > MAX_VERIFY_FOOTER_BYTES)
      throw new ObjectTooLargeError(
        key,
        io.endpoint,
        trailer.footerLength,
        MAX_VERIFY_FOOTER_BYTES,
      );
    footer = (await io.get(key, footerRange(trailer))).bytes;
  }
  const segments = decodeFooter(footer, trailer, key);
  checkHeaderMatchesTrailer(
    decodeHeader((await io.get(key, headerRange())).bytes, key),
    trailer,
    key,
  );
  for (const segment of segments) {
    const check = new SegmentCheck(segment, key);
    const end = segment.offset + segment.length;
    for await (const chunk of readRanges(io, key, segment.offset, end, chunkBytes))
      check.feed(chunk);
    check.finish();
  }
}

/**
 * `decodeSegment`'s checks on a segment that arrives in pieces: the CRC runs on, the framing is
 * followed across piece boundaries (a record header may straddle two), and the verdict - in
 * `decodeSegment`'s order: length, CRC, framing - is given once every byte was seen.
 */
class SegmentCheck {
  private crc = 0;
  private counted = 0;
  /** Offset in the segment of the record being read (its header's first byte). */
  private at = 0;
  private readonly header = new Uint8Array(RECORD_HEADER_SIZE);
  private readonly headerView = new DataView(this.header.buffer);
  private headerFill = 0;
  private bodyLeft = 0;
  private records = 0;
  private first: EntryId | null = null;
  private previous: EntryId;
  private framing: string | null = null;

  constructor(
    private readonly index: SegmentIndex,
    private readonly key: string,
  ) {
    this.previous = index.firstId - 1n;
  }

  feed(chunk: Uint8Array): void {
    this.crc = crc32c(chunk, this.crc);
    this.counted += chunk.length;
    let i = 0;
    while (i < chunk.length && this.framing === null) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, chunk.length - i);
        this.bodyLeft -= n;
        this.at += n;
        i += n;
        continue;
      }
      if (this.headerFill === 0 && this.at + RECORD_HEADER_SIZE > this.index.length) {
        this.framing = `a record header cut at ${this.at}`;
        break;
      }
      const n = Math.min(RECORD_HEADER_SIZE - this.headerFill, chunk.length - i);
      this.header.set(chunk.subarray(i, i + n), this.headerFill);
      this.headerFill += n;
      i += n;
      if (this.headerFill === RECORD_HEADER_SIZE) this.recordHeader();
    }
  }

  private recordHeader(): void {
    this.headerFill = 0;
    const id = this.headerView.getBigUint64(0, true);
    const length = this.headerView.getUint32(8, true);
    const start = this.at + RECORD_HEADER_SIZE;
    if (start + length > this.index.length) {
      this.framing = `record ${id} runs past the segment`;
      return;
    }
    if (id <= this.previous || id > this.index.lastId) {
      this.framing = `record ${id} out of order or range`;
      return;
    }
    this.records += 1;
    this.first ??= id;
    this.previous = id;
    this.at = start;
    this.bodyLeft = length;
  }

  finish(): void {
    const { index, key } = this;
    const fail = (check: CorruptSegmentCheck, detail = ''): never => {
      throw new CorruptSegmentError(key, index.regionId, check, detail);
    };
    if (this.counted !== index.length)
      fail('segment-length', `${this.counted} bytes, the footer says ${index.length}`);
    if (this.crc !== index.segmentCrc) fail('segment-crc');
    if (this.framing !== null) fail('segment-framing', this.framing);
    if (
      this.records !== index.entries ||
      this.first !== index.firstId ||
      this.previous !== index.lastId
    ) {
      fail(
        'segment-framing',
        `${this.records} records, the footer says ${index.entries} from ${index.firstId} to ${index.lastId}`,
      );
    }
  }
}

/**
 * Verifies every listed object of `prefix` with `verifyOne`, ascending by sequence, every
 * request in a slot of `slots` (a connection's link; a new one for `io` when absent): one
 * read of each object, the listing made in key ranges at once.
 */
export async function verifyListedObjects(
  io: ObjectIo,
  prefix: string,
  verifyOne: (io: ObjectIo, key: string, options: VerifyObjectOptions) => Promise<ObjectVerdict>,
  slots: IoSlots = slotsOf(io),
  options: VerifyPrefixOptions = {},
): Promise<VerifyReport> {
  const linked = linkIo(io, slots);
  const listed: ListedObject[] = [];
  for await (const page of listObjectPagesInRanges(linked, prefix)) listed.push(...page);
  listed.sort(compareSeq);
  const told = options.sound;
  const objects = await fanOut(listed, slots, (o) =>
    verifyOne(linked, o.key, {
      size: o.size,
      ...(told === undefined ? {} : { sound: (bytes: Uint8Array) => told(o, bytes) }),
    }),
  );
  const gone = objects.filter((o) => o.gone === true).length;
  return {
    prefix,
    objects,
    checked: objects.length - gone,
    damaged: objects.filter((o) => !o.ok && o.gone !== true).length,
    gone,
  };
}

/** Verifies every object of the prefix, ascending by sequence (see `verifyListedObjects`). */
export async function verifyPrefix(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  slots?: IoSlots,
  options: VerifyPrefixOptions = {},
): Promise<VerifyReport> {
  const config = validateWalConfig(configInput);
  const prefix = walPrefix(config.root, config.nodeId, config.generation);
  return verifyListedObjects(io, prefix, verifyObject, slots, options);
}
