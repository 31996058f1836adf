/**
 * A Cairn v1 object laid out part by part for a person looking at it (the console's object
 * inspector): header, trailer, footer and every segment, each judged on its own - a bad
 * segment CRC does not hide the header or the other segments - plus the first check the
 * strict decoder fails and the first segment that fails its own decode. Never used to read
 * entries (readers and recovery decode strictly); never touches storage.
 */
import { crc32c } from '@node-rs/crc32';
import { CorruptObjectError, CorruptSegmentError } from './errors';
import {
  FOOTER_COUNT_SIZE,
  HEADER_AT,
  HEADER_BODY_SIZE,
  HEADER_MAGIC_BYTES,
  HEADER_SIZE,
  TRAILER_AT,
  TRAILER_MAGIC_BYTES,
  TRAILER_SIZE,
  decodeFooter,
  decodeObject,
  decodeSegment,
  decodeTrailer,
  type ObjectTrailer,
  type SegmentIndex,
} from './format';

export interface CairnPartsHeader {
  readonly magicOk: boolean;
  readonly crcOk: boolean;
  readonly version: number;
  readonly seq: bigint;
  readonly epoch: bigint;
  readonly link: { readonly seq: bigint; readonly epoch: bigint } | null;
}

export interface CairnPartsSegment extends Omit<SegmentIndex, 'segmentCrc'> {
  readonly crcOk: boolean;
  /** The first check this segment's own decode fails (length, CRC, framing); null if sound. */
  readonly check: string | null;
}

export interface CairnObjectParts {
  readonly size: number;
  readonly header: CairnPartsHeader | null;
  readonly trailer: {
    readonly magicOk: boolean;
    readonly footerOffset: bigint;
    readonly footerLength: bigint;
  } | null;
  /** Null when the trailer does not place a footer inside the object. */
  readonly footer: { readonly crcOk: boolean; readonly count: number } | null;
  readonly segments: readonly CairnPartsSegment[];
  /** The first check the strict decoder fails (verify's verdict); null for a sound object. */
  readonly failure: { readonly check: string; readonly detail: string } | null;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function hasMagic(bytes: Uint8Array, at: number, magic: Uint8Array): boolean {
  return magic.every((byte, i) => bytes[at + i] === byte);
}

/** The header's fields as stored, whatever its CRC says (the CRC is judged beside them). */
function headerOf(bytes: Uint8Array): CairnPartsHeader | null {
  if (bytes.length < HEADER_SIZE) return null;
  const view = viewOf(bytes);
  const hasLink = view.getUint32(HEADER_AT.hasLink, true) !== 0;
  return {
    magicOk: hasMagic(bytes, HEADER_AT.magic, HEADER_MAGIC_BYTES),
    crcOk: crc32c(bytes.subarray(0, HEADER_BODY_SIZE)) === view.getUint32(HEADER_AT.crc, true),
    version: view.getUint16(HEADER_AT.version, true),
    seq: view.getBigUint64(HEADER_AT.seq, true),
    epoch: view.getBigUint64(HEADER_AT.epoch, true),
    link: hasLink
      ? {
          seq: view.getBigUint64(HEADER_AT.linkSeq, true),
          epoch: view.getBigUint64(HEADER_AT.linkEpoch, true),
        }
      : null,
  };
}

function strictFailure(bytes: Uint8Array, key: string): CairnObjectParts['failure'] {
  try {
    decodeObject(bytes, key);
    return null;
  } catch (error) {
    if (error instanceof CorruptObjectError || error instanceof CorruptSegmentError)
      return { check: error.check, detail: error.detail };
    throw error;
  }
}

function trailerOf(bytes: Uint8Array, key: string): ObjectTrailer | null {
  try {
    return decodeTrailer(bytes, bytes.length, key);
  } catch (error) {
    if (error instanceof CorruptObjectError) return null;
    throw error;
  }
}

function segmentOf(bytes: Uint8Array, index: SegmentIndex, key: string): CairnPartsSegment {
  const { segmentCrc, ...place } = index;
  const body = bytes.subarray(index.offset, index.offset + index.length);
  const crcOk = body.length === index.length && crc32c(body) === segmentCrc;
  try {
    decodeSegment(body, index, key);
    return { ...place, crcOk, check: null };
  } catch (error) {
    if (!(error instanceof CorruptSegmentError)) throw error;
    return { ...place, crcOk, check: error.check };
  }
}

/** The footer's segments when the footer itself is sound, else none. */
function segmentsOf(
  footer: Uint8Array,
  trailer: ObjectTrailer,
  key: string,
): SegmentIndex[] | null {
  try {
    return decodeFooter(footer, trailer, key);
  } catch (error) {
    if (error instanceof CorruptObjectError) return null;
    throw error;
  }
}

export function describeCairnObject(bytes: Uint8Array, key: string): CairnObjectParts {
  const failure = strictFailure(bytes, key);
  const header = headerOf(bytes);
  const base = { size: bytes.length, header, failure };
  if (bytes.length < HEADER_SIZE + TRAILER_SIZE)
    return { ...base, trailer: null, footer: null, segments: [] };
  const at = bytes.length - TRAILER_SIZE;
  const view = viewOf(bytes);
  const rawTrailer = {
    magicOk: hasMagic(bytes, at + TRAILER_AT.magic, TRAILER_MAGIC_BYTES),
    footerOffset: view.getBigUint64(at + TRAILER_AT.footerOffset, true),
    footerLength: BigInt(view.getUint32(at + TRAILER_AT.footerLength, true)),
  };
  const trailer = trailerOf(bytes, key);
  if (trailer === null) return { ...base, trailer: rawTrailer, footer: null, segments: [] };
  const footer = bytes.subarray(trailer.footerOffset, trailer.footerOffset + trailer.footerLength);
  const index = segmentsOf(footer, trailer, key);
  return {
    ...base,
    trailer: rawTrailer,
    footer: {
      crcOk: crc32c(footer) === trailer.footerCrc,
      count: footer.length >= FOOTER_COUNT_SIZE ? viewOf(footer).getUint32(0, true) : 0,
    },
    segments: (index ?? []).map((segment) => segmentOf(bytes, segment, key)),
  };
}
