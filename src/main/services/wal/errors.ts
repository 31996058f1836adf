/** Errors of the console's WAL service (the engine's own catalogue is engine/wal/errors.ts). */
import { CairnError } from '../../engine/errors';
import { formatEntryId } from '../../../shared/id-notation';

export class NotAWalPrefixError extends CairnError {
  constructor(prefix: string, root: string) {
    super(
      'NotAWalPrefix',
      `${prefix} is not a WAL prefix under ${root} (expected ${root}/nodes/<nodeId>/generations/<generation>)`,
      { prefix, root },
    );
  }
}

export class WriterNotOpenError extends CairnError {
  constructor(prefix: string, action: string) {
    super(
      'WriterNotOpen',
      `${action} needs a writer opened in this app on ${prefix}: open it as writer first`,
      { prefix, action },
    );
  }
}

export class WriterAlreadyOpenError extends CairnError {
  constructor(prefix: string) {
    super('WriterAlreadyOpen', `this app already holds a writer on ${prefix}`, { prefix });
  }
}

export class ObsoleteAboveLatestError extends CairnError {
  constructor(prefix: string, region: string, id: bigint, latest: bigint) {
    super(
      'ObsoleteAboveLatest',
      `cannot obsolete region ${region} of ${prefix} up to ${formatEntryId(id)}: its latest durable id is ${formatEntryId(latest)}`,
      { prefix, region, id, latest },
    );
  }
}

export class ReplayJobNotFoundError extends CairnError {
  constructor(jobId: string) {
    super(
      'ReplayJobNotFound',
      `no replay job of this session has id ${jobId} (finished jobs are forgotten)`,
      { jobId },
    );
  }
}

export class TooManyReplayJobsError extends CairnError {
  constructor(limit: number) {
    super('TooManyReplayJobs', `${limit} replay jobs are running already: cancel one first`, {
      limit,
    });
  }
}

export class LoadAlreadyRunningError extends CairnError {
  constructor(prefix: string) {
    super('LoadRunning', `the load generator already runs on ${prefix}`, { prefix });
  }
}

export class NotAWalObjectError extends CairnError {
  constructor(key: string, root: string) {
    super('NotAWalObject', `${key} is not a WAL object under ${root}`, { key, root });
  }
}

export class RegionNotFoundError extends CairnError {
  constructor(prefix: string, region: string) {
    super(
      'RegionNotFound',
      `region ${region} does not exist in ${prefix}: no entry, watermark or region-table row names it`,
      { prefix, region },
    );
  }
}

/** How each region of a bulk obsolete ended: applied (or nothing to do), failed, or never run. */
export interface BulkObsoleteOutcome {
  readonly region: string;
  readonly id: string;
  result: 'ok' | 'error' | 'not-run';
}

/**
 * A bulk obsolete that stopped at a region's failure. `applied` and `notRun` list regions as
 * `table:region`, space-separated (details are flat values): the audit log's entries and a
 * retry of the rest are made from them.
 */
export class BulkObsoleteStoppedError extends CairnError {
  constructor(
    prefix: string,
    region: string,
    cause: { readonly code: string; readonly message: string },
    outcomes: readonly BulkObsoleteOutcome[],
  ) {
    const named = (result: BulkObsoleteOutcome['result']) =>
      outcomes.filter((outcome) => outcome.result === result).map((outcome) => outcome.region);
    const applied = named('ok');
    const notRun = named('not-run');
    super(
      'BulkObsoleteStopped',
      `obsoleting region ${region} of ${prefix} failed (${cause.code}: ${cause.message}); ${applied.length} regions were obsoleted before it, ${notRun.length} were not run`,
      {
        prefix,
        region,
        causeCode: cause.code,
        causeMessage: cause.message,
        applied: applied.join(' '),
        notRun: notRun.join(' '),
      },
    );
  }
}
