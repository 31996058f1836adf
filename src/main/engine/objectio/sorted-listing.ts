/**
 * S3 ListObjectsV2 semantics over an in-process sorted key set: prefix, StartAfter,
 * Delimiter (common prefixes count toward the page size) and opaque continuation tokens.
 * Shared by the memory and local-directory backends so they page exactly like S3.
 */
import { MAX_LIST_PAGE, type ListOptions, type ListPage, type ObjectMeta } from './object-io';

/** Binary (UTF-8 byte) order, as S3 lists keys. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
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
