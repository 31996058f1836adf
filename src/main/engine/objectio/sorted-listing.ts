/**
 * S3 ListObjectsV2 semantics over an in-process sorted key set: prefix, StartAfter,
 * Delimiter (common prefixes count toward the page size) and opaque continuation tokens.
 * Shared by the memory and local-directory backends so they page exactly like S3.
 */
import { MAX_LIST_PAGE, type ListOptions, type ListPage, type ObjectMeta } from './object-io';

/**
 * Binary (UTF-8 byte) order, as S3 lists keys, without encoding either key: UTF-8 byte order is
 * code point order, which UTF-16 code units follow except that a surrogate (a code point from
 * U+10000 up) must sort after U+E000..U+FFFF. Listings sort whole folders with it (100,000
 * keys: ~1.7 million comparisons), so it allocates nothing.
 */
export function compareKeys(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let at = 0; at < shorter; at++) {
    const x = a.charCodeAt(at);
    const y = b.charCodeAt(at);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      const xSurrogate = x <= 0xdfff;
      if (xSurrogate !== y <= 0xdfff) return xSurrogate ? 1 : -1;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function listSortedPage(
  sortedKeys: readonly string[],
  metaOf: (key: string) => ObjectMeta,
  prefix: string,
  options: ListOptions = {},
): ListPage {
  const pageSize = Math.min(Math.max(1, options.pageSize ?? MAX_LIST_PAGE), MAX_LIST_PAGE);
  const after = options.continuation ?? options.startAfter;
  const objects: ObjectMeta[] = [];
  const commonPrefixes: string[] = [];
  let lastEmitted: string | undefined;
  for (const key of sortedKeys) {
    if (!key.startsWith(prefix)) continue;
    if (after !== undefined && compareKeys(key, after) <= 0) continue;
    const folder = folderOf(key, prefix, options.delimiter);
    if (folder !== undefined && commonPrefixes[commonPrefixes.length - 1] === folder) continue;
    if (objects.length + commonPrefixes.length === pageSize) {
      return { objects, commonPrefixes, continuation: lastEmitted };
    }
    if (folder !== undefined) {
      commonPrefixes.push(folder);
      // Resume after every key of this folder: the highest possible key under it.
      lastEmitted = folder + '\u{10FFFF}';
    } else {
      objects.push(metaOf(key));
      lastEmitted = key;
    }
  }
  return { objects, commonPrefixes };
}

function folderOf(key: string, prefix: string, delimiter?: string): string | undefined {
  if (!delimiter) return undefined;
  const at = key.indexOf(delimiter, prefix.length);
  return at < 0 ? undefined : key.slice(0, at + delimiter.length);
}
