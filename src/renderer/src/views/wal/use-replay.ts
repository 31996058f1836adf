/**
 * A replay job as the Replay view drives it: start, pause, resume, cancel, and the newest N
 * entries it streamed (older ones are dropped as new ones arrive, so the page's memory stays
 * bounded however long the region is), and the damaged segments it skipped (hole rows, the
 * newest `keep` of them). Chunks that arrive before the start call's reply are held until the
 * job id is known. A job still running when the view unmounts is cancelled.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import type { InputOf } from '../../../../shared/contract';
import type { ReplayEntryView, ReplayProgress } from '../../../../shared/contract/wal';
import type { ReplayHoleView } from '../../../../shared/contract/wal-damage';
import { api } from '../../api/client';
import { isLiveReplay, useReplayAfterDisconnect } from './use-replay-after-disconnect';
import { useCancelOnLeave } from './use-cancel-on-leave';
import { useJobControl } from './job-control';

export interface ReplayState {
  readonly progress: ReplayProgress | null;
  /** Oldest first, at most `keep`. */
  readonly rows: readonly ReplayEntryView[];
  /** Damaged segments skipped, in the order met, at most `keep`. */
  readonly holes: readonly ReplayHoleView[];
  readonly error: ApiError | null;
  /** What the job on screen replays (its region and start), null before the first start. */
  readonly started: {
    readonly prefix: string;
    readonly region: bigint;
    readonly fromId: bigint;
  } | null;
}

/** A replay to start: the API's input with the region and start as ids. */
export type ReplayStart = Omit<InputOf<'wal.replay.start'>, 'region' | 'fromId'> & {
  readonly region: bigint;
  readonly fromId: bigint;
};

const EMPTY: ReplayState = { progress: null, rows: [], holes: [], error: null, started: null };

export function useReplay(keep: number) {
  const [state, setState] = useState<ReplayState>(EMPTY);
  const jobId = useRef<string | null>(null);
  const early = useRef<
    Array<{
      jobId: string;
      entries: readonly ReplayEntryView[];
      holes: readonly ReplayHoleView[];
      progress: ReplayProgress;
      done: boolean;
    }>
  >([]);
  const keepRef = useRef(keep);
  useEffect(() => {
    keepRef.current = keep;
  }, [keep]);

  const apply = useCallback(
    (
      entries: readonly ReplayEntryView[],
      progress: ReplayProgress,
      holes: readonly ReplayHoleView[] = [],
    ) => {
      setState((previous) => ({
        ...previous,
        progress,
        rows: [...previous.rows, ...entries].slice(-keepRef.current),
        holes:
          holes.length === 0
            ? previous.holes
            : [...previous.holes, ...holes].slice(-keepRef.current),
      }));
    },
    [],
  );

  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'wal.replay.chunk' && event.type !== 'wal.replay.done') return;
        const entries = event.type === 'wal.replay.chunk' ? event.entries : [];
        const holes = event.type === 'wal.replay.chunk' ? (event.holes ?? []) : [];
        if (jobId.current === null) {
          early.current.push({
            jobId: event.jobId,
            entries,
            holes,
            progress: event.progress,
            done: event.type === 'wal.replay.done',
          });
          return;
        }
        if (event.jobId === jobId.current) apply(entries, event.progress, holes);
      }),
    [apply],
  );

  useCancelOnLeave(jobId, isLiveReplay(state.progress), 'wal.replay.cancel');

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

  const start = async (input: ReplayStart) => {
    if (
      jobId.current !== null &&
      state.progress &&
      (state.progress.state === 'running' || state.progress.state === 'paused')
    ) {
      await api.call('wal.replay.cancel', { jobId: jobId.current }).catch(() => undefined);
    }
    jobId.current = null;
    early.current = [];
    const started = { prefix: input.prefix, region: input.region, fromId: input.fromId };
    setState({ ...EMPTY, started });
    try {
      const progress = await api.call('wal.replay.start', input);
      jobId.current = progress.jobId;
      setState((previous) => ({ ...previous, progress }));
      for (const held of early.current.filter((item) => item.jobId === progress.jobId))
        apply(held.entries, held.progress, held.holes);
      early.current = [];
    } catch (error) {
      setState({ ...EMPTY, started, error: error as ApiError });
    }
  };

  const control = useJobControl(jobId, (progress: ReplayProgress) => progress.delivered, setState);

  return {
    ...state,
    start,
    pause: control((id) => api.call('wal.replay.pause', { jobId: id })),
    resume: control((id) => api.call('wal.replay.resume', { jobId: id })),
    cancel: control((id) => api.call('wal.replay.cancel', { jobId: id })),
  };
}
