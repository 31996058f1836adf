/**
 * Which object format a WAL prefix holds, told by the magic of its objects: Cairn's `CAIRNWAL`
 * v1 or GreptimeDB's `GTWALOBJ` v1 (both keep objects at `<prefix>/objects/<seq>.wal`). One
 * listing page and one 8-byte read; a prefix with no object has no format yet. Also decides
 * whether a recovery's corrupt object is in fact the other format (`MixedFormat`). Reads only.
 */
import { isStorageError } from '../objectio/errors';
import type { ObjectIo } from '../objectio/object-io';
import { GT_FORMAT, GT_HEADER_MAGIC_BYTES } from '../greptimedb/layout';
import { CorruptObjectError, MixedFormatError } from '../wal/errors';
import { HEADER_MAGIC_BYTES } from '../wal/format';
import { objectsFolder, seqOfObjectKey } from '../wal/keys';

export const CAIRN_FORMAT = 'cairn-v1';
export type WalFormat = typeof CAIRN_FORMAT | typeof GT_FORMAT;

const MAGIC_SIZE = 8;
/** Keys looked at for a first WAL object (other names under `objects/` are ignored). */
const DETECT_PAGE = 16;

function formatOfMagic(bytes: Uint8Array): WalFormat | 'unknown' {
  const starts = (magic: Uint8Array): boolean => magic.every((byte, i) => bytes[i] === byte);
  if (starts(HEADER_MAGIC_BYTES)) return CAIRN_FORMAT;
  if (starts(GT_HEADER_MAGIC_BYTES)) return GT_FORMAT;
  return 'unknown';
}

/**
 * The format of the object at `key`, from its first 8 bytes; null when it is gone. An empty
 * object has no magic ('unknown'), and no byte a range read could start at: a store answers
 * that read 416 (a `Backend` error), so the size is asked - the listed one when the caller has
 * it, else one `head` after the refused read - before the refusal is passed on.
 */
export async function formatOfObject(
  io: ObjectIo,
  key: string,
  listedSize?: number,
): Promise<WalFormat | 'unknown' | null> {
  if (listedSize === 0) return 'unknown';
  try {
    const head = await io.get(key, { start: 0, end: MAGIC_SIZE - 1 });
    return formatOfMagic(head.bytes);
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return null;
    if (isStorageError(error, 'Backend') && listedSize === undefined) {
      const size = await sizeOf(io, key);
      if (size === null) return null;
      if (size === 0) return 'unknown';
    }
    throw error;
  }
}

async function sizeOf(io: ObjectIo, key: string): Promise<number | null> {
  try {
    return (await io.head(key)).size;
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return null;
    throw error;
  }
}

/**
 * The format of the prefix's lowest-keyed WAL object that has bytes, or null when it has none:
 * an empty object tells nothing (the layout then decides, and recovery names the damage). An
 * object of neither format counts as Cairn's, whose recovery then names what is wrong with it.
 */
export async function detectFormat(io: ObjectIo, prefix: string): Promise<WalFormat | null> {
  const page = await io.listPage(objectsFolder(prefix), { pageSize: DETECT_PAGE });
  for (const object of page.objects) {
    if (object.size === 0 || seqOfObjectKey(prefix, object.key) === null) continue;
    const format = await formatOfObject(io, object.key, object.size);
    if (format === null) continue;
    return format === 'unknown' ? CAIRN_FORMAT : format;
  }
  return null;
}

/**
 * `error` as the recovery of a `format` prefix threw it, or a `MixedFormat` when the object it
 * names as corrupt is in the other format.
 */
export async function explainCorruption(
  io: ObjectIo,
  prefix: string,
  format: WalFormat,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof CorruptObjectError)) return error;
  const found = await formatOfObject(io, error.key);
  return found !== null && found !== 'unknown' && found !== format
    ? new MixedFormatError(prefix, error.key, format, found)
    : error;
}
