/**
 * The object inspector's view of one WAL object, either format: GreptimeDB's laid out part by
 * part with every CRC judged on its own (engine/greptimedb/describe), Cairn's from its strict
 * decode (every part and CRC sound, or the first check that fails). Objects too large to hold
 * are described by their size alone. Reads the object; writes nothing.
 */
import type { DecodedObjectView } from '../../../shared/contract/wal';
import { describeGtObject } from '../../engine/greptimedb/describe';
import { isGtObjectStart } from '../../engine/greptimedb/decode';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { CorruptObjectError, CorruptSegmentError } from '../../engine/wal/errors';
import { decodeObject, type DecodedObject } from '../../engine/wal/format';

/** Larger objects are not read whole by the inspector. */
export const MAX_DESCRIBED_BYTES = 64 * 1024 * 1024;

/** Which segments the inspector lays out: an object may hold 300,000 regions. */
export interface SegmentPage {
  readonly offset: number;
  readonly limit: number;
}

const NO_SEGMENTS = { segments: [], segmentCount: 0 };

function cairnParts(key: string, bytes: Uint8Array, page: SegmentPage): DecodedObjectView {
  let decoded: DecodedObject;
  try {
    decoded = decodeObject(bytes, key);
  } catch (error) {
    if (!(error instanceof CorruptObjectError || error instanceof CorruptSegmentError)) throw error;
    const failure = { check: error.check, detail: error.detail };
    return {
      key,
      format: 'cairn-v1',
      size: bytes.length,
      header: null,
      ...NO_SEGMENTS,
      segmentOffset: page.offset,
      footer: null,
      trailer: null,
      failure,
    };
  }
  const { header, trailer, segments } = decoded;
  const shown = segments.slice(page.offset, page.offset + page.limit);
  return {
    key,
    format: 'cairn-v1',
    size: bytes.length,
    header: {
      magicOk: true,
      version: header.version,
      seq: header.seq,
      epoch: header.epoch,
      prev: header.link,
      reclaimBoundary: null,
      crcOk: true,
    },
    segments: shown.map(({ index }) => ({ ...index, crcOk: true })),
    segmentCount: segments.length,
    segmentOffset: page.offset,
    footer: { crcOk: true, count: segments.length },
    trailer: {
      magicOk: true,
      footerOffset: BigInt(trailer.footerOffset),
      footerLength: BigInt(trailer.footerLength),
      objectCrcOk: null,
    },
    failure: null,
  };
}

function greptimeParts(key: string, bytes: Uint8Array, page: SegmentPage): DecodedObjectView {
  const parts = describeGtObject(bytes, key, page);
  return {
    key,
    format: 'greptimedb-v1',
    size: parts.size,
    header: parts.header,
    segments: parts.segments.map((segment) => ({ ...segment })),
    segmentCount: parts.segmentCount,
    segmentOffset: page.offset,
    footer: parts.footer,
    trailer: parts.trailer,
    failure: parts.failure,
  };
}

export async function describeObject(
  io: ObjectIo,
  key: string,
  page: SegmentPage,
): Promise<DecodedObjectView> {
  const meta = await io.head(key);
  if (meta.size > MAX_DESCRIBED_BYTES) {
    const head =
      meta.size === 0 ? new Uint8Array(0) : (await io.get(key, { start: 0, end: 7 })).bytes;
    return {
      key,
      format: isGtObjectStart(head) ? 'greptimedb-v1' : 'cairn-v1',
      size: meta.size,
      header: null,
      ...NO_SEGMENTS,
      segmentOffset: page.offset,
      footer: null,
      trailer: null,
      failure: {
        check: 'object-size',
        detail: `${meta.size} bytes: too large to lay out here; use cairn wal verify`,
      },
    };
  }
  const bytes = meta.size === 0 ? new Uint8Array(0) : (await io.get(key)).bytes;
  return isGtObjectStart(bytes) ? greptimeParts(key, bytes, page) : cairnParts(key, bytes, page);
}
