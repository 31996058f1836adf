/**
 * The key layout of a WAL prefix: `<root>/nodes/<nodeId>/generations/<generation>` holds
 * `objects/<seq, 20 digits>.wal` (key order = sequence order) and the register cell
 * `manifest/`. Owns the mapping both ways and decides which names under `objects/` are WAL
 * objects at all; anything else there (temp files, `.DS_Store`) is ignored. Never touches
 * storage.
 */
import { SEQ_LIMIT, type Seq } from './ids';

const SEQ_DIGITS = 20;
/** An object name is `^(\d{20})\.wal$`: the sequence, 20 digits, and this suffix. */
const OBJECT_SUFFIX = '.wal';
const OBJECT_NAME_LENGTH = SEQ_DIGITS + OBJECT_SUFFIX.length;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** The prefix of one log; `root` is validated by the config (relative, no empty or dot parts). */
export function walPrefix(root: string, nodeId: bigint, generation: number): string {
  return `${root}/nodes/${nodeId}/generations/${generation}`;
}

/** The folder listed by recovery and GC. */
export function objectsFolder(prefix: string): string {
  return `${prefix}/objects/`;
}

export function objectKey(prefix: string, seq: Seq): string {
  return `${objectsFolder(prefix)}${seq.toString().padStart(SEQ_DIGITS, '0')}.wal`;
}

/** The `CasCell` prefix of the register (the cell adds its own trailing slash). */
export function manifestCell(prefix: string): string {
  return `${prefix}/manifest`;
}

/**
 * The sequence an object name (the part after `objects/`) carries, or null for a name that is
 * not a WAL object. A sequence at or above 2^44 is not one we could have written: ignored too.
 */
export function seqOfObjectName(name: string): Seq | null {
  // `^(\d{20})\.wal$` by hand, no match object: every listed key comes through here.
  if (name.length !== OBJECT_NAME_LENGTH || !name.endsWith(OBJECT_SUFFIX)) return null;
  for (let at = 0; at < SEQ_DIGITS; at++) {
    const code = name.charCodeAt(at);
    if (code < DIGIT_0 || code > DIGIT_9) return null;
  }
  const seq = BigInt(name.slice(0, SEQ_DIGITS));
  return seq < SEQ_LIMIT ? seq : null;
}

/** The sequence of a key under this prefix's `objects/`, or null for any other key. */
export function seqOfObjectKey(prefix: string, key: string): Seq | null {
  const folder = objectsFolder(prefix);
  return key.startsWith(folder) ? seqOfObjectName(key.slice(folder.length)) : null;
}

/** The sequence of any WAL object key, whatever its prefix, or null. */
export function seqOfAnyObjectKey(key: string): Seq | null {
  const slash = key.lastIndexOf('/');
  const folder = key.slice(0, slash + 1);
  return folder.endsWith('/objects/') || folder === 'objects/'
    ? seqOfObjectName(key.slice(slash + 1))
    : null;
}

/** The `startAfter` that lists a prefix's objects from sequence `from` on (undefined: from the start). */
export function objectsStartAfter(prefix: string, from: Seq): string | undefined {
  return from <= 0n ? undefined : objectKey(prefix, from - 1n);
}
