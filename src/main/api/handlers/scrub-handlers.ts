/** Scrub and damage procedures: each validated input goes to the WAL service's scrubs and ledger. */
import type { walScrubProcedures } from '../../../shared/contract/wal-scrub';
import type { WalService } from '../../services/wal/wal-service';
import type { Handlers } from '../router';
import { scrubOwnerOf } from '../../services/wal/scrub/scrub-owners';

export function scrubHandlers({
  wal,
}: {
  readonly wal: WalService;
}): Pick<Handlers, keyof typeof walScrubProcedures> {
  const { findings } = wal;
  return {
    'wal.scrub.start': ({ connectionId, prefix }, caller) =>
      findings.startScrub(connectionId, prefix ?? null, scrubOwnerOf(caller)),
    'wal.scrub.jobs': async ({ connectionId }) => findings.scrubs.list(connectionId),
    'wal.scrub.pause': async ({ jobId }) => findings.scrubs.pause(jobId),
    'wal.scrub.resume': async ({ jobId }) => findings.scrubs.resume(jobId),
    'wal.scrub.cancel': async ({ jobId }) => findings.scrubs.cancel(jobId),
    'wal.damage': ({ connectionId, prefix }) => findings.forPrefix(connectionId, prefix),
    'wal.damage.object': ({ connectionId, key }) => findings.forObject(connectionId, key),
  };
}
