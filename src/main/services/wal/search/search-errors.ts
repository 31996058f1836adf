/** The typed errors of search jobs (search.md): each a code and a sentence naming what to do. */
import { CairnError } from '../../../engine/errors';

export class SearchJobNotFoundError extends CairnError {
  constructor(jobId: string) {
    super(
      'SearchJobNotFound',
      `no search job of this session has id ${jobId} (finished jobs are forgotten)`,
      { jobId },
    );
  }
}

export class TooManySearchJobsError extends CairnError {
  constructor(limit: number) {
    super('TooManySearchJobs', `${limit} searches are running already: cancel one first`, {
      limit,
    });
  }
}

/** A filter that does not read, or does not fit the prefix's format. */
export class InvalidSearchError extends CairnError {
  constructor(field: string, message: string) {
    super('InvalidSearch', `${field}: ${message}`, { field });
  }
}
