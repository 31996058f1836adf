/**
 * Where a connection's WAL lives and how a prefix the API names becomes a WAL configuration:
 * the WAL root is the connection's root plus `wal` (the CLI's default root on a local store),
 * and a prefix must be `<walRoot>/nodes/<nodeId>/generations/<generation>`. Pure; never
 * touches storage.
 */
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { seqOfAnyObjectKey, walPrefix } from '../../engine/wal/keys';
import { NotAWalObjectError, NotAWalPrefixError } from './errors';

export const WAL_FOLDER = 'wal';

export function walRootOf(connectionRoot: string): string {
  const trimmed = connectionRoot.replace(/\/+$/, '');
  return trimmed === '' ? WAL_FOLDER : `${trimmed}/${WAL_FOLDER}`;
}

export interface WalTarget {
  readonly prefix: string;
  readonly config: ObjectStoreWalConfigInput;
}

const U64_LIMIT = 1n << 64n;

/** The configuration that opens `prefix`; NotAWalPrefix unless it lies directly under `root`. */
export function targetOf(
  root: string,
  prefix: string,
  extra: Partial<ObjectStoreWalConfigInput> = {},
): WalTarget {
  const folder = `${root}/nodes/`;
  const match = prefix.startsWith(folder)
    ? /^(0|[1-9]\d{0,19})\/generations\/(0|[1-9]\d{0,9})$/.exec(prefix.slice(folder.length))
    : null;
  const nodeId = match === null ? null : BigInt(match[1] ?? '');
  const generation = match === null ? null : Number(match[2] ?? '');
  if (nodeId === null || generation === null || nodeId >= U64_LIMIT || generation > 0xffff_ffff)
    throw new NotAWalPrefixError(prefix, root);
  // The canonical form, so one prefix is one writer slot whatever the caller typed.
  const canonical = walPrefix(root, nodeId, generation);
  return { prefix: canonical, config: { ...extra, root, nodeId, generation } };
}

/** Checks that `key` is a WAL object under the WAL root (the console verifies nothing else). */
export function checkWalObjectKey(root: string, key: string): void {
  if (!key.startsWith(`${root}/nodes/`) || seqOfAnyObjectKey(key) === null)
    throw new NotAWalObjectError(key, root);
}
