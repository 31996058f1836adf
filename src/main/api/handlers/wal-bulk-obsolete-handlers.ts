/** Bulk obsolete procedures: each validated input goes to the WAL service. */
import type { walBulkObsoleteProcedures } from '../../../shared/contract/wal-bulk-obsolete';
import type { WalService } from '../../services/wal/wal-service';
import type { Handlers } from '../router';

export function walBulkObsoleteHandlers({
  wal,
}: {
  readonly wal: WalService;
}): Pick<Handlers, keyof typeof walBulkObsoleteProcedures> {
  return {
    'wal.obsolete.bulk.preview': ({ connectionId, prefix, regions, upTo }) =>
      wal.maintenance.previewBulkObsolete(connectionId, prefix, { regions, upTo }),
    'wal.obsolete.bulk': ({ connectionId, prefix, regions, upTo }, { credit }) =>
      wal.maintenance.bulkObsolete(connectionId, prefix, { regions, upTo }, credit),
  };
}
