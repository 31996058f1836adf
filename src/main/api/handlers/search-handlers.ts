/** Search procedures: each validated input goes to the WAL service's search jobs. */
import type { walSearchProcedures } from '../../../shared/contract/wal-search';
import { CANCEL_REASONS } from '../../services/wal/replay-jobs';
import { startSearchJob } from '../../services/wal/search/search-start';
import type { Services } from '../../services/services';
import type { Handlers } from '../router';

export function searchHandlers({
  wal,
  events,
}: Pick<Services, 'wal' | 'events'>): Pick<Handlers, keyof typeof walSearchProcedures> {
  const { searches } = wal;
  return {
    'wal.search.start': async ({ connectionId, prefix, ...text }, caller) =>
      startSearchJob(searches, events, await wal.searchPlace(connectionId, prefix), text, caller),
    'wal.search.pause': async ({ jobId }, { session }) => searches.get(jobId, session).pause(),
    'wal.search.resume': async ({ jobId }, { session }) => searches.get(jobId, session).resume(),
    'wal.search.cancel': async ({ jobId }, { session }) =>
      searches.get(jobId, session).cancel(CANCEL_REASONS.asked),
    'wal.search.progress': async ({ jobId }, { session }) =>
      searches.get(jobId, session).progress(),
  };
}
