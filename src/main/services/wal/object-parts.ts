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

function cairnParts(key: string, bytes: Uint8Array): DecodedObjectView {
  let decoded: DecodedObject;
  try {
    decoded = decodeObject(bytes, key);
  } catch (error) {
    if (!(error instanceof CorruptObjectError || error instanceof CorruptSegmentError)) throw error;
    const failure = { check: error.check, detail: error.detail };
    return {
      key,
      format: 'cairn-v1',
      layout: null,
      size: bytes.length,
      header: null,
      segments: [],
      footer: null,
      trailer: null,
      failure,
    };
  }
  const { header, trailer, segments } = decoded;
  return {
    key,
    format: 'cairn-v1',
    layout: null,
    size: bytes.length,
    header: {
      magicOk: true,
      version: header.version,
      seq: header.seq,
      epoch: header.epoch,
      prev: header.link,
      reclaimBoundary: null,
      crcOk: true,
      writerInstance: null,
    },
    segments: segments.map(({ index }) => ({ ...index, crcOk: true })),
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

function greptimeParts(key: string, bytes: Uint8Array): DecodedObjectView {
  const parts = describeGtObject(bytes, key);
  return {
    key,
    format: 'greptimedb-v1',
    layout: parts.layout,
    size: parts.size,
    header: parts.header,
    segments: parts.segments.map((segment) => ({ ...segment })),
    footer: parts.footer,
    trailer: parts.trailer,
    failure: parts.failure,
  };
}

export async function describeObject(io: ObjectIo, key: string): Promise<DecodedObjectView> {
  const meta = await io.head(key);
  if (meta.size > MAX_DESCRIBED_BYTES) {
    const head =
      meta.size === 0 ? new Uint8Array(0) : (await io.get(key, { start: 0, end: 7 })).bytes;
    return {
      key,
      format: isGtObjectStart(head) ? 'greptimedb-v1' : 'cairn-v1',
      layout: null,
      size: meta.size,
      header: null,
      segments: [],
      footer: null,
      trailer: null,
      failure: {
        check: 'object-size',
        detail: `${meta.size} bytes: too large to lay out here; use cairn wal verify`,
      },
    };
  }
  const bytes = meta.size === 0 ? new Uint8Array(0) : (await io.get(key)).bytes;
  return isGtObjectStart(bytes) ? greptimeParts(key, bytes) : cairnParts(key, bytes);
}
