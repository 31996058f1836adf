/**
 * The checksums a reader may ask a store to take of the bytes it reads, where it reads them: a
 * store thread that has the bytes in its cache right after the read takes the sum there, so the
 * thread hosting the engine does not (replay: the segment CRC was a quarter to a half of a
 * replay's time on that thread). Cairn's segments carry a CRC32C, GreptimeDB's a CRC32 (IEEE).
 */
import { crc32, crc32c } from '@node-rs/crc32';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type ChecksumAlgorithm = 'crc32c' | 'crc32';

/** A checksum of a read's bytes from `from` to the end of the read. */
export interface ChecksumRequest {
  readonly algorithm: ChecksumAlgorithm;
  readonly from: number;
}

/** Bytes read, and the checksum asked for, of `bytes.subarray(from)`. */
export interface ChecksummedRead {
  readonly bytes: Uint8Array;
  readonly checksum: number;
}

export function checksumOf(algorithm: ChecksumAlgorithm, bytes: Uint8Array): number {
  return algorithm === 'crc32c' ? crc32c(bytes) : crc32(bytes);
}

/**
 * The checksum library's entry, resolved from here so a store thread loads the same copy as this
 * thread ('' if it cannot be resolved: the thread then takes no sums, and its callers do).
 */
export function checksumsModulePath(): string {
  try {
    return createRequire(join(__dirname, 'index.js')).resolve('@node-rs/crc32');
  } catch {
    return '';
  }
}

/** The read, its checksum taken here: what a store that cannot take it elsewhere answers. */
export function checksummedHere(bytes: Uint8Array, request: ChecksumRequest): ChecksummedRead {
  return { bytes, checksum: checksumOf(request.algorithm, bytes.subarray(request.from)) };
}
