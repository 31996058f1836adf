/**
 * Deep verification of GreptimeDB objects: each object read whole and run through every check
 * of the format (header, trailer, footer, object CRC, every segment) in the layout it is in
 * (54-byte or writer-instance header), one verdict per object naming that layout, in the same
 * report shape as Cairn's own verify; a damaged object GreptimeDB can still index says which
 * regions and ids a replay loses to it (`lost`: its failing segments only). Reads only.
 */
import type { IoSlots } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import { CorruptObjectError } from '../wal/errors';
import {
  judgeObject,
  readWhole,
  verifyListedObjects,
  type ObjectVerdict,
  type VerifyObjectOptions,
  type VerifyPrefixOptions,
  type VerifyReport,
} from '../wal/verify';
import { decodeGtObjectAnyLayout, GT_LAYOUT_NAMES } from './writer-instance';
import { normalizePrefix } from './prefix';
import { gtSegmentLosses } from './segment-losses';

/** Larger objects are reported, not read: GreptimeDB seals far smaller batches. */
export const GT_MAX_VERIFIED_BYTES = 256 * 1024 * 1024;

export async function verifyGtObject(
  io: ObjectIo,
  key: string,
  options: Pick<VerifyObjectOptions, 'size' | 'sound'> = {},
): Promise<ObjectVerdict> {
  let read: Uint8Array | null = null;
  const verdict = await judgeObject(io, key, options.size, async (size) => {
    if (size > GT_MAX_VERIFIED_BYTES)
      throw new CorruptObjectError(
        key,
        'object-size',
        `${size} bytes, more than any GreptimeDB object`,
      );
    const bytes = size === 0 ? new Uint8Array(0) : await readWhole(io, key, size);
    read = bytes;
    const layout = GT_LAYOUT_NAMES[decodeGtObjectAnyLayout(bytes, key)];
    options.sound?.(bytes);
    return { size: bytes.length, layout };
  });
  if (verdict.ok || read === null) return verdict;
  const lost = gtSegmentLosses(read, key);
  return lost === null ? verdict : { ...verdict, lost };
}

export async function verifyGtPrefix(
  io: ObjectIo,
  rawPrefix: string,
  slots?: IoSlots,
  options: VerifyPrefixOptions = {},
): Promise<VerifyReport> {
  return verifyListedObjects(io, normalizePrefix(rawPrefix), verifyGtObject, slots, options);
}
