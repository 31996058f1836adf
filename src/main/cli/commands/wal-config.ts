/**
 * How WAL commands turn the shared connection flags into a store and a prefix, as the app
 * does for a saved connection: Cairn's prefix is `<root>/wal/nodes/<node>/generations/<gen>`
 * (`wal/...` at the bucket root); `--prefix P` names any prefix (objects at `P/objects/`,
 * either format) and overrides `--root`, `--node` and `--generation`. Reads get the prefix with its format; writes get a WAL configuration,
 * and a GreptimeDB prefix is refused there with `ReadOnlyFormat` before anything is written.
 * A prefix read or changed that holds no WAL object is `PrefixNotFound` (exit 5), never a
 * healthy empty answer, unless `--allow-empty` says an empty one is expected.
 */
import type { Command } from 'commander';
import { validateWalConfig, type ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { walPrefix } from '../../engine/wal/keys';
import {
  resolveReadTarget,
  resolveWriteTarget,
  type ReadTarget,
} from '../../engine/wal-read/target';
import { walRootOf } from '../../services/wal/wal-target';
import { detectFormat } from '../../engine/wal-read/format';
import { normalizePrefix } from '../../engine/greptimedb/prefix';
import { PrefixNotFoundError } from '../../engine/wal/errors';
import type { ObjectIo } from '../../engine/objectio/object-io';
import {
  openConnection,
  withConnectionFlags,
  type ConnectionOptions,
  type OpenedConnection,
} from '../connection-flags';

export interface WalOptions extends ConnectionOptions {
  prefix?: string;
  /** An empty prefix is an answer, not `PrefixNotFound`. */
  allowEmpty?: boolean;
}

/** `--allow-empty`, for the commands that read or change an existing prefix. */
export function withAllowEmpty(command: Command): Command {
  return command.option(
    '--allow-empty',
    'a prefix with no WAL object is an empty answer (exit 0), not PrefixNotFound (exit 5)',
  );
}

/** `PrefixNotFound` when the prefix holds no WAL object and the flags do not allow it. */
export async function checkPrefixExists(
  io: ObjectIo,
  prefix: string,
  options: WalOptions,
): Promise<void> {
  if (options.allowEmpty === true) return;
  const normalized = normalizePrefix(prefix);
  if ((await detectFormat(io, normalized)) === null)
    throw new PrefixNotFoundError(normalized, io.endpoint);
}

export function withWalFlags(command: Command): Command {
  return withConnectionFlags(command).option(
    '--prefix <prefix>',
    'a WAL prefix whose objects are at PREFIX/objects/ (Cairn or GreptimeDB format); overrides --root, --node and --generation',
  );
}

export interface WalTarget extends OpenedConnection {
  readonly config: ObjectStoreWalConfigInput;
}

export interface WalReadTarget extends OpenedConnection {
  readonly target: ReadTarget;
}

/** The connection, and the prefix the flags name (`root` stays the connection's root). */
export async function openWalConnection(
  options: WalOptions,
): Promise<OpenedConnection & { prefix: string }> {
  const connection = await openConnection(options);
  const walRoot = walRootOf(connection.root);
  const prefix = options.prefix ?? walPrefix(walRoot, connection.node, connection.generation);
  return { ...connection, prefix };
}

/**
 * A prefix a writer opens: Cairn's format only; with `existing` (obsolete, gc), one that holds
 * WAL objects already.
 */
export async function openWalTarget(
  options: WalOptions,
  extra: Partial<ObjectStoreWalConfigInput> = {},
  existing = false,
): Promise<WalTarget> {
  const connection = await openWalConnection(options);
  if (existing) await checkPrefixExists(connection.io, connection.prefix, options);
  return {
    ...connection,
    config: await resolveWriteTarget(connection.io, connection.prefix, extra),
  };
}

/** A prefix read (inspect, verify, replay), of either format. */
export async function openWalReadTarget(options: WalOptions): Promise<WalReadTarget> {
  const connection = await openWalConnection(options);
  await checkPrefixExists(connection.io, connection.prefix, options);
  return { ...connection, target: await resolveReadTarget(connection.io, connection.prefix) };
}

/** The prefix a Cairn WAL configuration names. */
export function prefixOfConfig(config: ObjectStoreWalConfigInput): string {
  const valid = validateWalConfig(config);
  return walPrefix(valid.root, valid.nodeId, valid.generation);
}
