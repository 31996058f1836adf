/**
 * How WAL commands turn the shared connection flags into a store and a prefix, as the app
 * does for a saved connection: Cairn's prefix is `<root>/wal/nodes/<node>/generations/<gen>`
 * (`wal/...` at the bucket root); `--prefix P` names any prefix (objects at `P/objects/`,
 * either format) and overrides `--root`, `--node` and `--generation`. Reads get the prefix with its format; writes get a WAL configuration,
 * and a GreptimeDB prefix is refused there with `ReadOnlyFormat` before anything is written.
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
import {
  openConnection,
  withConnectionFlags,
  type ConnectionOptions,
  type OpenedConnection,
} from '../connection-flags';

export interface WalOptions extends ConnectionOptions {
  prefix?: string;
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

/** A prefix a writer opens: Cairn's format only. */
export async function openWalTarget(
  options: WalOptions,
  extra: Partial<ObjectStoreWalConfigInput> = {},
): Promise<WalTarget> {
  const connection = await openWalConnection(options);
  return {
    ...connection,
    config: await resolveWriteTarget(connection.io, connection.prefix, extra),
  };
}

/** A prefix read (inspect, verify, replay), of either format. */
export async function openWalReadTarget(options: WalOptions): Promise<WalReadTarget> {
  const connection = await openWalConnection(options);
  return { ...connection, target: await resolveReadTarget(connection.io, connection.prefix) };
}

/** The prefix a Cairn WAL configuration names. */
export function prefixOfConfig(config: ObjectStoreWalConfigInput): string {
  const valid = validateWalConfig(config);
  return walPrefix(valid.root, valid.nodeId, valid.generation);
}
