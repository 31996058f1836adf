/** Errors of the console's scrub jobs. */
import { CairnError } from '../../../engine/errors';

export class ScrubJobNotFoundError extends CairnError {
  constructor(jobId: string) {
    super('ScrubJobNotFound', `no scrub job has id ${jobId} (ended jobs are forgotten)`, {
      jobId,
    });
  }
}

export class TooManyScrubJobsError extends CairnError {
  constructor(limit: number) {
    super('TooManyScrubJobs', `${limit} scrubs are running already: cancel one first`, {
      limit,
    });
  }
}
