/**
 * The progress of the app's background scrub in the Overview: which prefix it verifies now and
 * how far it has come, or, once the queue is done, when it last ended. The background scrub
 * verifies, at its share of the link, each prefix the views read that was not read whole
 * within the verify age; it needs no action, so this line has none.
 */
import { useApiQuery } from '../../api/hooks';
import { RelativeTime } from '../../components/RelativeTime';
import { isActive, progressText, RUNNING_POLL_MS } from '../wal/ScrubControls';

/** While nothing runs, the Overview's fleet pass may queue prefixes: look again this often. */
const IDLE_POLL_MS = 5_000;

export function BackgroundVerify({ connectionId }: { connectionId: string }) {
  const jobs = useApiQuery(
    'wal.scrub.jobs',
    { connectionId },
    {
      refetchInterval: (query) =>
        query.state.data?.some((job) => isActive(job)) === true ? RUNNING_POLL_MS : IDLE_POLL_MS,
    },
  );
  const job = jobs.data?.find((candidate) => candidate.background);
  if (job === undefined) return null;
  return (
    <p className="small muted" role="status" aria-label="Background verify">
      Background verify
      {isActive(job) ? (
        <>
          {job.current !== null && <> of {job.current}</>}: {progressText(job)}
        </>
      ) : (
        <>
          : {progressText(job)}
          {job.endedAtMs !== null && (
            <>
              {' '}
              · ended <RelativeTime atMs={job.endedAtMs} />
            </>
          )}
        </>
      )}
    </p>
  );
}
