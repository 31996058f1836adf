/**
 * Where the bucket browser's "Go to" box leads: a sequence (`1500`) or an entry id
 * (`1500:17`, its object's sequence) to that WAL object in the objects folder shown or of the
 * selected WAL prefix; a key to its folder with the object open; a folder (ending in `/`) to
 * the folder; a bare name to that object in the folder shown. Also the listing's start for a
 * key. Pure.
 */
const SEQ_DIGITS = 20;
const SEQ_LIMIT = 1n << 44n;
const SEQUENCE = /^(\d{1,20})(?::\d{1,7})?$/;

export interface GoToTarget {
  readonly folder: string;
  readonly objectKey: string | null;
  /** The key the listing opens at (null: the folder's start). */
  readonly anchor: string | null;
}

/** The folder's WAL objects folder, or the selected prefix's, or null. */
function objectsFolderFor(folder: string, walPrefix: string | null): string | null {
  if (folder === 'objects/' || folder.endsWith('/objects/')) return folder;
  return walPrefix === null ? null : `${walPrefix}/objects/`;
}

export function goToTarget(
  text: string,
  folder: string,
  walPrefix: string | null,
): GoToTarget | Error {
  const typed = text.trim();
  if (typed === '')
    return new Error('Go to: type a sequence (1500), an entry id (1500:17) or a key');
  const sequence = SEQUENCE.exec(typed);
  if (sequence !== null) {
    const objects = objectsFolderFor(folder, walPrefix);
    if (objects === null)
      return new Error(
        `Go to: ${typed} is a sequence, and no WAL prefix is selected: open an objects/ folder or type a key`,
      );
    const seq = BigInt(sequence[1] ?? '0');
    if (seq >= SEQ_LIMIT) return new Error(`Go to: sequence ${seq} is above 2^44`);
    const key = `${objects}${seq.toString().padStart(SEQ_DIGITS, '0')}.wal`;
    return { folder: objects, objectKey: key, anchor: key };
  }
  if (typed.endsWith('/')) return { folder: typed, objectKey: null, anchor: null };
  const slash = typed.lastIndexOf('/');
  if (slash < 0) {
    const key = `${folder}${typed}`;
    return { folder, objectKey: key, anchor: key };
  }
  return { folder: typed.slice(0, slash + 1), objectKey: typed, anchor: typed };
}

/**
 * The `startAfter` of a listing that opens at `key`: a string just below it, so the key
 * itself is listed (a few keys between the two, if any, are listed before it).
 */
export function startAfterFor(key: string): string | undefined {
  if (key === '') return undefined;
  const last = key.charCodeAt(key.length - 1);
  const head = key.slice(0, -1);
  // A surrogate half cannot be stepped down alone: start before the whole character.
  if (last === 0 || (last >= 0xd800 && last <= 0xdfff))
    return head.replace(/[\ud800-\udbff]$/, '') || undefined;
  return head + String.fromCharCode(last - 1);
}
