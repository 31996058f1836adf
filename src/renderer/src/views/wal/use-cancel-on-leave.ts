/**
 * A streaming job (a replay, a search) still running when its view goes away (another prefix,
 * another view) is cancelled: nothing would show its chunks, and a place that runs starts it
 * again when opened. Returns the ref that says whether the job is live, for the start's own
 * cancel of the job before it.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { api } from '../../api/client';

export function useCancelOnLeave(
  jobId: RefObject<string | null>,
  isLive: boolean,
  cancel: 'wal.replay.cancel' | 'wal.search.cancel',
): RefObject<boolean> {
  const live = useRef(false);
  useEffect(() => {
    live.current = isLive;
  }, [isLive]);
  useEffect(
    () => () => {
      const id = jobId.current;
      if (id !== null && live.current) void api.call(cancel, { jobId: id }).catch(() => undefined);
    },
    [jobId, cancel],
  );
  return live;
}
