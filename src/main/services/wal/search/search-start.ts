/**
 * Starts a search of one prefix for one caller: its filters read as the CLI reads its flags
 * (`InvalidSearch` for one that does not read or does not fit the prefix's format, before any
 * read), the regions named checked against the prefix (`RegionNotFound`), then a job over the
 * prefix's read model whose chunks go to the caller alone (replay-delivery's sender and
 * pacing) and whose damaged segments go to the damage ledger. The job is the caller's
 * session's and ends with the caller's channel.
 */
import type { SearchProgress, SearchText } from '../../../../shared/contract/wal-search';
import { isSearchInputProblem, searchPartsOf } from '../../../../shared/search/search-request';
import { GT_FORMAT } from '../../../engine/greptimedb/layout';
import type { SkippedSegment } from '../../../engine/wal/reader';
import type { AnyReadOnlyLog } from '../../../engine/wal-read/read-side';
import type { Caller } from '../../caller';
import type { EventBus } from '../../event-bus';
import { endWithChannel, senderOf } from '../replay-delivery';
import { checkRegionExists } from '../replay-holes';
import type { Located } from '../wal-locate';
import { SearchJob, type SearchSink } from './search-job';
import type { SearchJobs } from './search-jobs';
import { InvalidSearchError } from './search-errors';
import { filterProblem } from './search-match';
import { newSearchCounts, runSearch, searchRequestOfParts } from './search-run';

/** Where the search of one prefix reads, and where the damage it meets goes. */
export interface SearchPlace {
  readonly connectionId: string;
  readonly at: Located;
  readonly readOnlyLog: () => Promise<AnyReadOnlyLog>;
  readonly onSkipped: (skipped: SkippedSegment) => void;
}

function searchSinkOf(send: ReturnType<typeof senderOf>): SearchSink {
  return {
    chunk: (hits, progress, holes, damaged) =>
      send({
        type: 'wal.search.chunk',
        jobId: progress.jobId,
        hits,
        ...(holes.length > 0 ? { holes } : {}),
        ...(damaged.length > 0 ? { damaged } : {}),
        progress,
      }),
    done: (progress) => void send({ type: 'wal.search.done', jobId: progress.jobId, progress }),
  };
}

export async function startSearchJob(
  searches: SearchJobs,
  events: EventBus,
  place: SearchPlace,
  input: SearchText,
  caller: Caller,
): Promise<SearchProgress> {
  const parts = searchPartsOf(input);
  if (isSearchInputProblem(parts)) throw new InvalidSearchError(parts.flag, parts.message);
  const request = searchRequestOfParts(parts);
  const { at } = place;
  const problem = filterProblem(at.format, request.filter);
  if (problem !== null) throw new InvalidSearchError('filter', problem);
  const log = await place.readOnlyLog();
  for (const region of parts.regions ?? [])
    checkRegionExists(at.prefix, log.catalog, region, (r) => log.listsRegion?.(r) ?? false);
  const counts = newSearchCounts(log, request.scope);
  const steps = runSearch(at.io, log, request, { onSkipped: place.onSkipped }, counts);
  const shape = { kind: at.format === GT_FORMAT ? 'row' : 'entry', limit: request.limit } as const;
  const sink = searchSinkOf(senderOf(caller.channel, events));
  const job = searches.add(
    place.connectionId,
    caller.session,
    (id) => new SearchJob(id, steps, counts, shape, sink),
  );
  endWithChannel(job, caller.channel);
  return job.progress();
}
