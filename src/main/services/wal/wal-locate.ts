/**
 * Where a prefix the API names lives and in which format: a Cairn prefix
 * (`<walRoot>/nodes/<node>/generations/<generation>`, writable through the app) or a GreptimeDB
 * prefix anywhere under the connection's root (read-only: the format is told by its objects'
 * magic). Also which object keys the console may verify or decode. Reads at most one listing
 * page and one 8-byte range; writes nothing.
 */
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { ReadOnlyFormatError } from '../../engine/wal/errors';
import { seqOfAnyObjectKey } from '../../engine/wal/keys';
import { GT_FORMAT } from '../../engine/greptimedb/layout';
import { normalizePrefix } from '../../engine/greptimedb/prefix';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { CAIRN_FORMAT, detectFormat } from '../../engine/wal-read/format';
import { NotAWalObjectError, NotAWalPrefixError } from './errors';
import { targetOf, walRootOf } from './wal-target';

interface LocatedBase {
  readonly io: ObjectIo;
  readonly prefix: string;
  /** The connection's WAL root (`<root>/wal`). */
  readonly root: string;
  /** One writer slot per connection and prefix. */
  readonly slot: string;
}

export type Located =
  | (LocatedBase & {
      readonly format: typeof CAIRN_FORMAT;
      readonly config: ObjectStoreWalConfigInput;
    })
  | (LocatedBase & { readonly format: typeof GT_FORMAT });

export type CairnLocated = Extract<Located, { format: typeof CAIRN_FORMAT }>;

export function slotOf(connectionId: string, prefix: string): string {
  return `${connectionId}\n${prefix}`;
}

/** The connection and the prefix a slot names. */
export function slotParts(slot: string): { connectionId: string; prefix: string } {
  const at = slot.indexOf('\n');
  return { connectionId: slot.slice(0, at), prefix: slot.slice(at + 1) };
}

/** True when `key` lies under the connection root `root` ('' = the whole bucket). */
function isUnder(root: string, key: string): boolean {
  const folder = root.replace(/\/+$/, '');
  return folder === '' || key.startsWith(`${folder}/`);
}

export async function locatePrefix(
  io: ObjectIo,
  connectionRoot: string,
  connectionId: string,
  prefix: string,
): Promise<Located> {
  const root = walRootOf(connectionRoot);
  try {
    const target = targetOf(root, prefix);
    return { ...target, format: CAIRN_FORMAT, io, root, slot: slotOf(connectionId, target.prefix) };
  } catch (error) {
    if (!(error instanceof NotAWalPrefixError)) throw error;
    const normalized = normalizePrefix(prefix);
    if (!isUnder(connectionRoot, normalized) || (await detectFormat(io, normalized)) !== GT_FORMAT)
      throw error;
    return {
      format: GT_FORMAT,
      prefix: normalized,
      io,
      root,
      slot: slotOf(connectionId, normalized),
    };
  }
}

/** The located prefix when it is Cairn's; `ReadOnlyFormat` for GreptimeDB's, before any write. */
export function cairnOnly(at: Located): CairnLocated {
  if (at.format === GT_FORMAT) throw new ReadOnlyFormatError(at.prefix, GT_FORMAT);
  return at;
}

/** Before a writer opens: a Cairn-layout prefix that holds GreptimeDB objects is refused too. */
export async function checkWritable(at: CairnLocated): Promise<void> {
  if ((await detectFormat(at.io, at.prefix)) === GT_FORMAT)
    throw new ReadOnlyFormatError(at.prefix, GT_FORMAT);
}

/** Checks that `key` is a WAL object (`…/objects/<seq>.wal`) under the connection root. */
export function checkObjectKey(connectionRoot: string, key: string): void {
  if (!isUnder(connectionRoot, key) || seqOfAnyObjectKey(key) === null || key.includes('/../'))
    throw new NotAWalObjectError(key, connectionRoot === '' ? '/' : connectionRoot);
}
