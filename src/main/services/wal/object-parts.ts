/**
 * The object inspector's view of one WAL object, either format, laid out part by part with
 * every CRC judged on its own (engine/greptimedb/describe, engine/wal/describe), the first
 * check a strict decode fails, and the first damaged segment - the part a person is sent to.
 * Objects too large to hold are described by their size alone. Reads the object; writes
 * nothing.
 */
import type { DecodedObjectView } from '../../../shared/contract/wal';
import { describeGtObject } from '../../engine/greptimedb/describe';
import { isGtObjectStart } from '../../engine/greptimedb/decode';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { describeCairnObject } from '../../engine/wal/describe';

/** Larger objects are not read whole by the inspector. */
export const MAX_DESCRIBED_BYTES = 64 * 1024 * 1024;

type Segments = DecodedObjectView['segments'];

/** Which segments the inspector lays out: an object may hold 300,000 regions. */
export interface SegmentPage {
  readonly offset: number;
  readonly limit: number;
}

const NO_SEGMENTS = { segments: [], segmentCount: 0 };

/**
 * The first segment whose CRC (or, where known, its own decode) fails, by its index in the
 * object (`offset`: the index of `segments[0]`).
 */
function damagedSegmentOf(
  segments: ReadonlyArray<Segments[number] & { readonly check?: string | null }>,
  offset = 0,
): DecodedObjectView['damagedSegment'] {
  const index = segments.findIndex(
    (segment) => segment.crcOk === false || (segment.check ?? null) !== null,
  );
  const segment = segments[index];
  if (segment === undefined) return null;
  return {
    index: offset + index,
    regionId: segment.regionId,
    check: segment.check ?? 'segment-crc',
  };
}

function cairnParts(key: string, bytes: Uint8Array, page: SegmentPage): DecodedObjectView {
  const parts = describeCairnObject(bytes, key);
  const header = parts.header;
  const shown = parts.segments.slice(page.offset, page.offset + page.limit);
  return {
    key,
    format: 'cairn-v1',
    layout: null,
    size: parts.size,
    header:
      header === null
        ? null
        : {
            magicOk: header.magicOk,
            version: header.version,
            seq: header.seq,
            epoch: header.epoch,
            prev: header.link,
            reclaimBoundary: null,
            crcOk: header.crcOk,
            writerInstance: null,
          },
    segments: shown.map(({ check: _check, ...segment }) => segment),
    segmentCount: parts.segments.length,
    segmentOffset: page.offset,
    footer: parts.footer,
    trailer: parts.trailer === null ? null : { ...parts.trailer, objectCrcOk: null },
    failure: parts.failure,
    damagedSegment: damagedSegmentOf(parts.segments),
  };
}

/** GreptimeDB's parts of one page of segments; the damaged segment is the page's first. */
function greptimeParts(key: string, bytes: Uint8Array, page: SegmentPage): DecodedObjectView {
  const parts = describeGtObject(bytes, key, page);
  const segments = parts.segments.map((segment) => ({ ...segment }));
  return {
    key,
    format: 'greptimedb-v1',
    layout: parts.layout,
    size: parts.size,
    header: parts.header,
    segments,
    segmentCount: parts.segmentCount,
    segmentOffset: page.offset,
    footer: parts.footer,
    trailer: parts.trailer,
    failure: parts.failure,
    damagedSegment: damagedSegmentOf(segments, page.offset),
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
      layout: null,
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
      damagedSegment: null,
    };
  }
  const bytes = meta.size === 0 ? new Uint8Array(0) : (await io.get(key)).bytes;
  return isGtObjectStart(bytes) ? greptimeParts(key, bytes, page) : cairnParts(key, bytes, page);
}
