/**
 * The key scheme of a CasCell: `<cell>/<version, 20 digits>.json`. Owns the mapping both
 * ways and decides which keys in a cell's folder are versions at all; it never touches
 * storage. Anything else in the folder (temp files, `.DS_Store`, sub-folders) is foreign.
 */

const VERSION_DIGITS = 20;
const VERSION_NAME = /^(\d{20})\.json$/;

/** Whether `version` can name a stored version (1 is the first; the key holds 20 digits). */
export function isValidVersion(version: number): boolean {
  return Number.isSafeInteger(version) && version >= 1;
}

/** The folder prefix a cell's versions are listed under. */
export function cellFolder(cell: string): string {
  return `${cell}/`;
}

export function versionKey(cell: string, version: number): string {
  return `${cellFolder(cell)}${String(version).padStart(VERSION_DIGITS, '0')}.json`;
}

/** The version a key names, or null for a key that is not one of the cell's versions. */
export function versionOfKey(cell: string, key: string): number | null {
  const folder = cellFolder(cell);
  if (!key.startsWith(folder)) return null;
  const match = VERSION_NAME.exec(key.slice(folder.length));
  if (match === null || match[1] === undefined) return null;
  const version = Number(match[1]);
  return isValidVersion(version) ? version : null;
}
