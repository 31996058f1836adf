/** How WAL commands turn the shared connection flags into a store and a WAL configuration. */
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { openConnection, type ConnectionOptions, type OpenedConnection } from '../connection-flags';

/** WAL data lives under `--root` (default `wal`): a relative path without empty or `..` parts. */
export const DEFAULT_WAL_ROOT = 'wal';

export interface WalTarget extends OpenedConnection {
  readonly config: ObjectStoreWalConfigInput;
}

export async function openWalTarget(
  options: ConnectionOptions,
  extra: Partial<ObjectStoreWalConfigInput> = {},
): Promise<WalTarget> {
  const connection = await openConnection(options);
  const root = connection.root === '' ? DEFAULT_WAL_ROOT : connection.root;
  return {
    ...connection,
    root,
    config: { ...extra, root, nodeId: connection.node, generation: connection.generation },
  };
}
