/** The typed API client every view uses: names, inputs and outputs come from the contract. */
import type { ApiEvent, InputOf, OutputOf, ProcedureName } from '../../../shared/contract';
import { noteCallError } from '../state/audit-alarm';
import { pickTransport, type Transport } from './transport';

export interface ApiClient {
  readonly transport: Transport['kind'];
  call<K extends ProcedureName>(name: K, input: InputOf<K>): Promise<OutputOf<K>>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
  onDisconnect(listener: () => void): () => void;
}

export function createApiClient(transport: Transport = pickTransport()): ApiClient {
  return {
    transport: transport.kind,
    call: async (name, input) => {
      try {
        return (await transport.call(name, input)) as never;
      } catch (error) {
        noteCallError(error);
        throw error;
      }
    },
    onEvent: (listener) => transport.onEvent(listener),
    onDisconnect: (listener) => transport.onDisconnect(listener),
  };
}

export const api = createApiClient();
