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

export async function verifyGtObject(io: ObjectIo, key: string): Promise<ObjectVerdict> {
  const seq = seqOfAnyObjectKey(key);
  try {
    const meta = await io.head(key);
    if (meta.size > GT_MAX_VERIFIED_BYTES)
      return {
        key,
        seq,
        size: meta.size,
        ok: false,
        check: 'object-size',
        detail: `${meta.size} bytes, more than any GreptimeDB object`,
      };
    const bytes = meta.size === 0 ? new Uint8Array(0) : (await io.get(key)).bytes;
    decodeGtObject(bytes, key);
    return { key, seq, size: bytes.length, ok: true };
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return { key, seq, size: 0, ok: false, gone: true };
    if (error instanceof CorruptObjectError || error instanceof CorruptSegmentError)
      return { key, seq, size: 0, ok: false, check: error.check, detail: error.detail };
    throw error;
  }
}

export async function verifyGtPrefix(io: ObjectIo, rawPrefix: string): Promise<VerifyReport> {
  return verifyListedObjects(io, normalizePrefix(rawPrefix), verifyGtObject);
}
