/** Watermark request procedures: each validated input goes to the WAL service. */
import type { walWatermarkRequestProcedures } from '../../../shared/contract/wal-watermark-requests';
import type { WalService } from '../../services/wal/wal-service';
import type { Handlers } from '../router';

export function walWatermarkRequestHandlers({
  wal,
}: {
  readonly wal: WalService;
}): Pick<Handlers, keyof typeof walWatermarkRequestProcedures> {
  return {
    'wal.obsolete.request': ({ connectionId, prefix, region, id }, caller) =>
      wal.maintenance.requestObsolete(connectionId, prefix, region, id, caller.session),
    'wal.obsolete.requests': ({ connectionId, prefix }) =>
      wal.maintenance.watermarkRequests(connectionId, prefix),
  };
}
