/**
 * The app's search jobs by id (`SessionJobs`): at most MAX_RUNNING_SEARCHES at once, each the
 * session's that started it. Owns no reads itself.
 */
import { SearchJobNotFoundError, TooManySearchJobsError } from './search-errors';
import { SessionJobs } from '../session-jobs';
import type { SearchJob } from './search-job';

export const MAX_RUNNING_SEARCHES = 4;

export class SearchJobs extends SessionJobs<SearchJob> {
  constructor() {
    super(
      MAX_RUNNING_SEARCHES,
      (max) => new TooManySearchJobsError(max),
      (jobId) => new SearchJobNotFoundError(jobId),
    );
  }
}
