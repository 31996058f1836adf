/**
 * Deep verification of a WAL prefix: reads every object whole (paged listing, a few at a
 * time) and runs every check of the format on it - header and trailer CRCs and their
 * agreement, the footer, every segment's CRC and framing - reporting a verdict per object.
 * Read-only; it judges bytes, not chains (that is recovery's and `inspect`'s job). An object
 * collected while the pass ran is reported as gone, not as damage.
 */
import type { ObjectIo } from '../objectio/object-io';
import { isStorageError } from '../objectio/errors';
import { validateWalConfig, type ObjectStoreWalConfigInput } from './config';
import {
  CorruptObjectError,
  CorruptSegmentError,
  type CorruptObjectCheck,
  type CorruptSegmentCheck,
} from './errors';
import { decodeObject } from './format';
import type { Seq } from './ids';
import { seqOfAnyObjectKey, walPrefix } from './keys';
import { listObjectsFrom, mapBounded } from './recovery';

/** Whole objects read at once by `verifyPrefix`. */
export const VERIFY_CONCURRENCY = 4;

export interface ObjectVerdict {
  readonly key: string;
  readonly seq: Seq | null;
  /** Bytes read; 0 when the object is gone. */
  readonly size: number;
  readonly ok: boolean;
  /** The first check that failed. */
  readonly check?: CorruptObjectCheck | CorruptSegmentCheck;
  readonly detail?: string;
  /** The object was listed but is gone (collected meanwhile); `ok` is false. */
  readonly gone?: boolean;
}

export interface VerifyReport {
  readonly prefix: string;
  readonly objects: readonly ObjectVerdict[];
  readonly checked: number;
  readonly damaged: number;
  readonly gone: number;
}

/** Reads `key` whole and runs every check; storage errors other than NotFound are thrown. */
export async function verifyObject(io: ObjectIo, key: string): Promise<ObjectVerdict> {
  const seq = seqOfAnyObjectKey(key);
  let bytes: Uint8Array;
  try {
    bytes = (await io.get(key)).bytes;
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return { key, seq, size: 0, ok: false, gone: true };
    throw error;
  }
  try {
    decodeObject(bytes, key);
    return { key, seq, size: bytes.length, ok: true };
  } catch (error) {
    if (error instanceof CorruptObjectError || error instanceof CorruptSegmentError)
      return { key, seq, size: bytes.length, ok: false, check: error.check, detail: error.detail };
    throw error;
  }
}

/** Verifies every listed object of `prefix` with `verifyOne`, ascending by sequence. */
export async function verifyListedObjects(
  io: ObjectIo,
  prefix: string,
  verifyOne: (io: ObjectIo, key: string) => Promise<ObjectVerdict>,
  concurrency = VERIFY_CONCURRENCY,
): Promise<VerifyReport> {
  const listed = await listObjectsFrom(io, prefix);
  const objects = await mapBounded(listed, concurrency, (o) => verifyOne(io, o.key));
  const gone = objects.filter((o) => o.gone === true).length;
  return {
    prefix,
    objects,
    checked: objects.length - gone,
    damaged: objects.filter((o) => !o.ok && o.gone !== true).length,
    gone,
  };
}

/** Verifies every object of the prefix, ascending by sequence. */
export async function verifyPrefix(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: { readonly concurrency?: number } = {},
): Promise<VerifyReport> {
  const config = validateWalConfig(configInput);
  const prefix = walPrefix(config.root, config.nodeId, config.generation);
  return verifyListedObjects(io, prefix, verifyObject, options.concurrency);
}
