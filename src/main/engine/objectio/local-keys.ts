/**
 * The local store's key rules: which S3 keys map one-to-one onto a relative path under the
 * root (and so may name an object), and the folder tests its listing walks by. Pure string
 * work, no file system.
 */
import { compareKeys } from './sorted-listing';

/** Where temp files live until linked: a top-level name no valid key can start with. */
export const LOCAL_TEMP_DIR = '.cairn-tmp';

/**
 * Why `key` cannot name a file under the root, or null. Keys are S3 keys; only those that map
 * one-to-one onto a relative path are accepted.
 */
export function keyProblem(key: string): string | null {
  if (key === '') return 'empty';
  if (key.includes('\0')) return 'contains a NUL byte';
  if (key.startsWith('/')) return "starts with '/'";
  if (key.endsWith('/')) return "ends with '/'";
  // With no '/' at either end, an empty segment is a '//'. Every read and every listed key
  // comes through here: the segments are walked in place, nothing is allocated.
  if (key.includes('//')) return 'has an empty segment';
  for (let from = 0; from < key.length;) {
    const slash = key.indexOf('/', from);
    const end = slash < 0 ? key.length : slash;
    if (isDotSegment(key, from, end - from)) return "has a '.' or '..' segment";
    from = end + 1;
  }
  if (key === LOCAL_TEMP_DIR || key.startsWith(`${LOCAL_TEMP_DIR}/`))
    return `is under the reserved folder ${LOCAL_TEMP_DIR}`;
  return null;
}

const DOT = 46;

/** True when `key`'s `length` characters from `at` are '.' or '..'. */
function isDotSegment(key: string, at: number, length: number): boolean {
  if (length === 1) return key.charCodeAt(at) === DOT;
  return length === 2 && key.charCodeAt(at) === DOT && key.charCodeAt(at + 1) === DOT;
}

/** A listing prefix's folder part (`a/b/`) can only hold keys if it is a valid key plus '/'. */
export function isValidDirKey(dirKey: string): boolean {
  return keyProblem(dirKey.slice(0, -1)) === null;
}

/**
 * True when every key under `folderKey` (all of which start with it) sorts at or before
 * `after`: `after` is past the folder's prefix without being inside it.
 */
export function folderIsBehind(folderKey: string, after: string | undefined): boolean {
  return after !== undefined && !after.startsWith(folderKey) && compareKeys(folderKey, after) < 0;
}
