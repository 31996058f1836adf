/**
 * Deep verification of GreptimeDB objects: each object read whole and run through every check
 * of the format (header, trailer, footer, object CRC, every segment), one verdict per object,
 * in the same report shape as Cairn's own verify. Reads only.
 */
import { isStorageError } from '../objectio/errors';
import type { ObjectIo } from '../objectio/object-io';
import { CorruptObjectError, CorruptSegmentError } from '../wal/errors';
import { seqOfAnyObjectKey } from '../wal/keys';
import { verifyListedObjects, type ObjectVerdict, type VerifyReport } from '../wal/verify';
import { decodeGtObject } from './decode';
import { normalizePrefix } from './prefix';

/** Larger objects are reported, not read: GreptimeDB seals far smaller batches. */
export const GT_MAX_VERIFIED_BYTES = 256 * 1024 * 1024;

export async function verifyGtObject(
  io: ObjectIo,
  key: string,
  options: { readonly size?: number } = {},
): Promise<ObjectVerdict> {
  const seq = seqOfAnyObjectKey(key);
  let size = options.size ?? -1;
  try {
    if (size < 0) size = (await io.head(key)).size;
    if (size > GT_MAX_VERIFIED_BYTES)
      return {
        key,
        seq,
        size,
        ok: false,
        check: 'object-size',
        detail: `${size} bytes, more than any GreptimeDB object`,
      };
    const bytes = size === 0 ? new Uint8Array(0) : (await io.get(key)).bytes;
    size = bytes.length;
    decodeGtObject(bytes, key);
    return { key, seq, size, ok: true };
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return { key, seq, size: 0, ok: false, gone: true };
    if (error instanceof CorruptObjectError || error instanceof CorruptSegmentError)
      return { key, seq, size, ok: false, check: error.check, detail: error.detail };
    throw error;
  }
}

export async function verifyGtPrefix(io: ObjectIo, rawPrefix: string): Promise<VerifyReport> {
  return verifyListedObjects(io, normalizePrefix(rawPrefix), verifyGtObject);
}
