/** The namespace queries a change can make stale: every mutation refreshes these. */
import type { ProcedureName } from '../../../../shared/contract';

export const NAMESPACE_QUERIES: readonly ProcedureName[] = [
  'namespaces.list',
  'namespaces.get',
  'namespaces.shards',
];
