/** The current connection's `cairn` store flags (`cliStoreFlags`); none until the list is read. */
import { cliStoreFlags } from '../../../../../shared/cli-store-flags';
import { useApiQuery } from '../../../api/hooks';
import { useUiStore } from '../../../state/ui-store';

export function useStoreFlags(): string[] {
  const connectionId = useUiStore((state) => state.connectionId);
  const connections = useApiQuery('connections.list', {});
  const connection = connections.data?.find((candidate) => candidate.id === connectionId);
  return connection === undefined ? [] : cliStoreFlags(connection);
}
