/** Navigation procedures: each validated input goes to the WAL service's object lists. */
import type { walNavigationProcedures } from '../../../shared/contract/wal-navigation';
import type { WalService } from '../../services/wal/wal-service';
import type { Handlers } from '../router';

export function walNavigationHandlers({
  wal,
}: {
  readonly wal: WalService;
}): Pick<Handlers, keyof typeof walNavigationProcedures> {
  return {
    'wal.objects.locate': ({ connectionId, prefix, status, seq }) =>
      wal.locateObject(connectionId, prefix, status, seq),
  };
}
