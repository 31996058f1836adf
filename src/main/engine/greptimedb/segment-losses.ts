/**
 * What GreptimeDB loses of a damaged object it can still index (either GTWALOBJ v1 layout):
 * its recovery reads only header and footer, and a replay checks each region's segment on its
 * own - `skip` turns a failing segment into a hole of that region alone - so the loss is the
 * segments that fail their checks, not the object. Null when the object's index does not
 * decode (then every region in it is lost, or the open refused). Pure.
 */
import { CorruptSegmentError } from '../wal/errors';
import type { EntryId } from '../wal/ids';
import type { RegionId } from '../wal/region-id';
import { decodeGtIndexFromTail, decodeGtSegment } from './decode';
import { GT_HEADER_SIZE } from './layout';
import { GT_WRITER_HEADER_SIZE, gtBodyStart } from './writer-instance';

export interface LostRange {
  readonly regionId: RegionId;
  readonly firstId: EntryId;
  readonly lastId: EntryId;
}

function indexOf(bytes: Uint8Array, key: string) {
  const start = gtBodyStart(bytes, bytes.length);
  const headerSize = start === GT_WRITER_HEADER_SIZE ? GT_WRITER_HEADER_SIZE : GT_HEADER_SIZE;
  try {
    return decodeGtIndexFromTail(bytes, bytes.length, key, headerSize).segments;
  } catch {
    return null;
  }
}

export function gtSegmentLosses(bytes: Uint8Array, key: string): LostRange[] | null {
  const segments = indexOf(bytes, key);
  if (segments === null) return null;
  const lost: LostRange[] = [];
  for (const segment of segments) {
    try {
      decodeGtSegment(
        bytes.subarray(segment.offset, segment.offset + segment.length),
        segment,
        key,
      );
    } catch (error) {
      if (!(error instanceof CorruptSegmentError)) throw error;
      lost.push({ regionId: segment.regionId, firstId: segment.firstId, lastId: segment.lastId });
    }
  }
  return lost;
}
