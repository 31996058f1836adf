/**
 * The one table of `cairn`'s exit codes, the same for every command, so a script or a cron job
 * tells causes apart by the code alone (docs/cli.md):
 *   0 healthy / done;  1 unhealthy (damage, holes, an open that would fail, two writers, any
 *   other typed error);  2 bad usage;  3 a replay skipped damaged segments;  4 the store could
 *   not be reached or refused the credentials;  5 no such prefix (no WAL object under it);
 *   6 nothing found wrong, but not every object was read whole within the verify age
 *   (`wal fleet` without `--verify`).
 * `--json` documents carry the cause's name beside the code.
 */
import { isCairnError } from '../engine/errors';
import { isStorageError } from '../engine/objectio/errors';

export const EXIT = {
  healthy: 0,
  unhealthy: 1,
  usage: 2,
  holes: 3,
  unreachable: 4,
  notFound: 5,
  unverified: 6,
} as const;

export type ExitCause = keyof typeof EXIT;

/** The cause an error exits with: the store, a prefix that is not there, or anything else. */
export function causeOfError(error: unknown): ExitCause {
  if (isCairnError(error) && error.code === 'PrefixNotFound') return 'notFound';
  // A store that cannot be reached (after the SDK's retries) or refuses us: access denied, no
  // such bucket, bad credentials - a cron mail must not read it as a damaged log.
  if (isStorageError(error, 'Unavailable') || isStorageError(error, 'Backend'))
    return 'unreachable';
  return 'unhealthy';
}

/** `{exitCode, cause}` as `--json` documents carry them. */
export function exitFields(cause: ExitCause): { exitCode: number; cause: ExitCause } {
  return { exitCode: EXIT[cause], cause };
}
