/** Scrub and damage procedures: each validated input goes to the WAL service's scrubs and ledger. */
import type { z } from 'zod';
import type { walScrubProcedures } from '../../../shared/contract/wal-scrub';
import type { WalService } from '../../services/wal/wal-service';

type ScrubProcedures = typeof walScrubProcedures;
type ScrubHandlers = {
  [K in keyof ScrubProcedures]: (
    input: z.output<ScrubProcedures[K]['input']>,
  ) => Promise<z.output<ScrubProcedures[K]['output']>>;
};

export function scrubHandlers({ wal }: { readonly wal: WalService }): ScrubHandlers {
  const { findings } = wal;
  return {
    'wal.scrub.start': ({ connectionId, prefix }) =>
      findings.startScrub(connectionId, prefix ?? null),
    'wal.scrub.jobs': async ({ connectionId }) => findings.scrubs.list(connectionId),
    'wal.scrub.pause': async ({ jobId }) => findings.scrubs.pause(jobId),
    'wal.scrub.resume': async ({ jobId }) => findings.scrubs.resume(jobId),
    'wal.scrub.cancel': async ({ jobId }) => findings.scrubs.cancel(jobId),
    'wal.damage': ({ connectionId, prefix }) => findings.forPrefix(connectionId, prefix),
    'wal.damage.object': ({ connectionId, key }) => findings.forObject(connectionId, key),
  };
}
