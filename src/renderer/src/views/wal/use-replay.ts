/**
 * A replay job as the Replay view drives it: start, pause, resume, cancel, and the newest N
 * entries it streamed (older ones are dropped as new ones arrive, so the page's memory stays
 * bounded however long the region is). Chunks that arrive before the start call's reply are
 * held until the job id is known.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import type { InputOf } from '../../../../shared/contract';
import type { ReplayEntryView, ReplayProgress } from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import { isLiveReplay, useReplayAfterDisconnect } from './use-replay-after-disconnect';

export interface ReplayState {
  readonly progress: ReplayProgress | null;
  /** Oldest first, at most `keep`. */
  readonly rows: readonly ReplayEntryView[];
  readonly error: ApiError | null;
}

export function useReplay(keep: number) {
  const [state, setState] = useState<ReplayState>({ progress: null, rows: [], error: null });
  const jobId = useRef<string | null>(null);
  const early = useRef<
    Array<{
      jobId: string;
      entries: readonly ReplayEntryView[];
      progress: ReplayProgress;
      done: boolean;
    }>
  >([]);
  const keepRef = useRef(keep);
  useEffect(() => {
    keepRef.current = keep;
  }, [keep]);

  const apply = useCallback((entries: readonly ReplayEntryView[], progress: ReplayProgress) => {
    setState((previous) => ({
      ...previous,
      progress,
      rows: [...previous.rows, ...entries].slice(-keepRef.current),
    }));
  }, []);

  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'wal.replay.chunk' && event.type !== 'wal.replay.done') return;
        const entries = event.type === 'wal.replay.chunk' ? event.entries : [];
        if (jobId.current === null) {
          early.current.push({
            jobId: event.jobId,
            entries,
            progress: event.progress,
            done: event.type === 'wal.replay.done',
          });
          return;
        }
        if (event.jobId === jobId.current) apply(entries, event.progress);
      }),
    [apply],
  );

  useReplayAfterDisconnect(
    jobId,
    useCallback((progress) => setState((previous) => ({ ...previous, progress })), []),
    useCallback(
      (error) =>
        setState((previous) =>
          isLiveReplay(previous.progress) ? { ...previous, error } : previous,
        ),
      [],
    ),
  );

  const start = async (input: InputOf<'wal.replay.start'>) => {
    if (
      jobId.current !== null &&
      state.progress &&
      (state.progress.state === 'running' || state.progress.state === 'paused')
    ) {
      await api.call('wal.replay.cancel', { jobId: jobId.current }).catch(() => undefined);
    }
    jobId.current = null;
    early.current = [];
    setState({ progress: null, rows: [], error: null });
    try {
      const progress = await api.call('wal.replay.start', input);
      jobId.current = progress.jobId;
      setState((previous) => ({ ...previous, progress }));
      for (const held of early.current.filter((item) => item.jobId === progress.jobId))
        apply(held.entries, held.progress);
      early.current = [];
    } catch (error) {
      setState({ progress: null, rows: [], error: error as ApiError });
    }
  };

  const control =
    (name: 'wal.replay.pause' | 'wal.replay.resume' | 'wal.replay.cancel') => async () => {
      const id = jobId.current;
      if (id === null) return;
      try {
        const progress = await api.call(name, { jobId: id });
        // A chunk may have moved the job on meanwhile: keep the furthest delivery count.
        setState((previous) => ({
          ...previous,
          progress:
            previous.progress && previous.progress.delivered > progress.delivered
              ? { ...previous.progress, state: progress.state }
              : progress,
        }));
      } catch (error) {
        setState((previous) => ({ ...previous, error: error as ApiError }));
      }
    };

  return {
    ...state,
    start,
    pause: control('wal.replay.pause'),
    resume: control('wal.replay.resume'),
    cancel: control('wal.replay.cancel'),
  };
}
