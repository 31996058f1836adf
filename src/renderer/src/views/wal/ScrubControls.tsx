/**
 * The Verify action of one prefix or of the whole fleet: starts a scrub in the main process
 * (every object read whole and checked, in the background), shows its progress with pause,
 * resume and cancel, and once it ends refreshes the views that show damage. Verifying only
 * reads, so it needs no operator mode.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ScrubJobView } from '../../../../shared/contract/wal-scrub';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formatBytes, formatCount } from '../format';
import { counted } from '../../../../shared/plural';

/** While a scrub runs, its progress is read this often. */
export const RUNNING_POLL_MS = 500;
/** The views whose rows show what a scrub found. */
const SHOWS_DAMAGE = ['wal.fleet', 'wal.objects', 'wal.regions', 'wal.damage', 'wal.damage.object'];

export const isActive = (job: ScrubJobView | undefined): boolean =>
  job?.state === 'running' || job?.state === 'paused';

export function progressText(job: ScrubJobView): string {
  const scope =
    job.prefix === null
      ? `prefix ${formatCount(job.prefixesDone)} of ${formatCount(job.prefixesFound)}${job.walked ? '' : '+'} · `
      : '';
  const found = job.damaged === 0 ? 'no damage' : `${formatCount(job.damaged)} damaged`;
  const gone = job.gone > 0 ? ` · ${formatCount(job.gone)} gone meanwhile` : '';
  return `${job.state} · ${scope}${formatCount(job.checked)} of ${formatCount(job.listed)} objects checked (${formatBytes(job.bytes)}) · ${found}${gone}`;
}

export function ScrubControls({
  connectionId,
  prefix,
}: {
  connectionId: string;
  /** The prefix to verify, or null for every prefix of the connection. */
  prefix: string | null;
}) {
  const queryClient = useQueryClient();
  const jobs = useApiQuery(
    'wal.scrub.jobs',
    { connectionId },
    {
      refetchInterval: (query) =>
        query.state.data?.some((job) => isActive(job)) === true ? RUNNING_POLL_MS : false,
    },
  );
  // The app's own background scrub has its line in the Overview (`BackgroundVerify`).
  const job = jobs.data?.find((candidate) => candidate.prefix === prefix && !candidate.background);
  const start = useApiMutation('wal.scrub.start', ['wal.scrub.jobs']);
  const pause = useApiMutation('wal.scrub.pause', ['wal.scrub.jobs']);
  const resume = useApiMutation('wal.scrub.resume', ['wal.scrub.jobs']);
  const cancel = useApiMutation('wal.scrub.cancel', ['wal.scrub.jobs']);
  const active = isActive(job);

  // When the job ends (or was already over when first seen), the damage views are read again.
  const seenEnd = useRef<string | null>(null);
  useEffect(() => {
    if (job === undefined || active || seenEnd.current === `${job.jobId}:${job.state}`) return;
    seenEnd.current = `${job.jobId}:${job.state}`;
    for (const name of SHOWS_DAMAGE) void queryClient.invalidateQueries({ queryKey: [name] });
  }, [job, active, queryClient]);

  const label = prefix === null ? 'Verify all prefixes' : 'Verify prefix';
  const error = start.error ?? pause.error ?? resume.error ?? cancel.error;
  return (
    <div
      className="wal-scrub"
      role="group"
      aria-label={prefix === null ? 'Verify the fleet' : 'Verify'}
    >
      <button
        type="button"
        disabled={active || start.isPending}
        title="Read every object whole and check every CRC, in the background"
        onClick={() => start.mutate(prefix === null ? { connectionId } : { connectionId, prefix })}
      >
        {label}
      </button>
      {job !== undefined && (
        <>
          {job.state === 'paused' ? (
            <button type="button" onClick={() => resume.mutate({ jobId: job.jobId })}>
              Resume
            </button>
          ) : (
            <button
              type="button"
              disabled={job.state !== 'running'}
              onClick={() => pause.mutate({ jobId: job.jobId })}
            >
              Pause
            </button>
          )}
          <button
            type="button"
            disabled={!active}
            onClick={() => cancel.mutate({ jobId: job.jobId })}
          >
            Cancel
          </button>
          <progress
            aria-label="Verify progress"
            max={Math.max(1, job.listed)}
            value={active ? job.checked : Math.max(1, job.listed)}
          />
          <span
            role="status"
            aria-label="Verify status"
            className={job.damaged > 0 || job.error !== null ? 'small wal-warn' : 'small muted'}
          >
            {progressText(job)}
            {job.failures.length > 0 &&
              ` · ${counted(job.failures.length, 'prefix')} failed (${job.failures[0]?.error.code})`}
          </span>
        </>
      )}
      {job?.error && <ErrorPanel error={{ name: job.error.code, message: job.error.message }} />}
      {error && <ErrorPanel error={error} />}
    </div>
  );
}
