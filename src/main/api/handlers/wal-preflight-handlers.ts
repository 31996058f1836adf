/** The preflight procedure: its validated input goes to the preflight view. */
import type { walPreflightProcedures } from '../../../shared/contract/wal-preflight';
import type { Services } from '../../services/services';
import { preflightView } from '../../services/wal/preflight/preflight-view';
import type { Handlers } from '../router';

export function walPreflightHandlers(
  services: Pick<Services, 'connections'>,
): Pick<Handlers, keyof typeof walPreflightProcedures> {
  return {
    'wal.preflight': ({ connectionId, prefix }) => preflightView(services, connectionId, prefix),
  };
}
