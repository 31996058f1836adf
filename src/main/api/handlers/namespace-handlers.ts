/**
 * The namespace procedures, each a thin call into NamespaceService. Typed from the namespace
 * contract itself, so this file stands alone; once the contract is merged these are exactly
 * `Pick<Handlers, 'namespaces.*'>`. Access and auditing are the router's, never done here.
 */
import type { z } from 'zod';
import type { namespaceProcedures } from '../../../shared/contract/namespaces';
import type { NamespaceService } from '../../services/namespaces/namespace-service';

type NamespaceProcedures = typeof namespaceProcedures;

export type NamespaceHandlers = {
  [K in keyof NamespaceProcedures]: (
    input: z.output<NamespaceProcedures[K]['input']>,
  ) => Promise<z.output<NamespaceProcedures[K]['output']>>;
};

export function namespaceHandlers({
  namespaces,
}: {
  readonly namespaces: NamespaceService;
}): NamespaceHandlers {
  return {
    'namespaces.list': ({ connectionId }) => namespaces.list(connectionId),
    'namespaces.get': ({ connectionId, name }) => namespaces.get(connectionId, name),
    'namespaces.register': ({ connectionId, name, origin }) =>
      namespaces.register(connectionId, name, origin),
    'namespaces.put': ({ connectionId, name, config, placement }) =>
      namespaces.put(connectionId, name, config, placement),
    'namespaces.setPlacement': ({ connectionId, name, placement }) =>
      namespaces.setPlacement(connectionId, name, placement),
    'namespaces.deprecate': ({ connectionId, name }) => namespaces.deprecate(connectionId, name),
    'namespaces.shards': ({ connectionId }) => namespaces.shards(connectionId),
    'namespaces.takeOwnership': ({ connectionId, shard }) =>
      namespaces.takeOwnership(connectionId, shard),
  };
}
