/**
 * A search job as the Search view drives it: start, pause, resume, cancel, the hits it streamed
 * (all of them: the job stops at the search's limit, which bounds the page's memory) and the
 * damaged segments it skipped (each with the number of hits found before it). Hits are appended to one array as chunks arrive and the view is
 * told by a version number, so a search of 10,000 hits is not 10,000 copies. Chunks that arrive
 * before the start call's reply are held until the job id is known. A job still running when
 * the view unmounts is cancelled.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../../../../shared/api-error';
import type { InputOf } from '../../../../../shared/contract';
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import type { DamagedPayloadView, SearchProgress } from '../../../../../shared/contract/wal-search';
import type { SearchHit } from '../../../../../shared/search/search-hits';
import { api } from '../../../api/client';
import { useCancelOnLeave } from '../use-cancel-on-leave';
import { useJobControl } from '../job-control';
import type { MetHole } from './search-hole-rows';

export type SearchStart = InputOf<'wal.search.start'>;

export interface SearchState {
  readonly progress: SearchProgress | null;
  readonly error: ApiError | null;
  /** Grows as chunks arrive; `version` says when. */
  readonly hits: readonly SearchHit[];
  readonly holes: readonly MetHole[];
  /** Payloads that gave no rows, as the search named them. */
  readonly damaged: readonly DamagedPayloadView[];
  readonly version: number;
}

interface HeldChunk {
  readonly jobId: string;
  readonly hits: readonly SearchHit[];
  readonly holes: readonly ReplayHoleView[];
  readonly damaged: readonly DamagedPayloadView[];
  readonly progress: SearchProgress;
}

export function isLiveSearch(progress: SearchProgress | null): boolean {
  return progress?.state === 'running' || progress?.state === 'paused';
}

export function useSearch() {
  // One container for the page's life: appended to, emptied by a new start, never copied.
  const [found] = useState(() => ({
    hits: [] as SearchHit[],
    holes: [] as MetHole[],
    damaged: [] as DamagedPayloadView[],
  }));
  const [state, setState] = useState<Omit<SearchState, 'hits' | 'holes' | 'damaged'>>({
    progress: null,
    error: null,
    version: 0,
  });
  const jobId = useRef<string | null>(null);
  const early = useRef<HeldChunk[]>([]);

  const apply = useCallback(
    (chunk: Omit<HeldChunk, 'jobId'>) => {
      // The job sends a hole at once, with the hits found up to it: it sits after them.
      for (const hit of chunk.hits) found.hits.push(hit);
      for (const hole of chunk.holes) found.holes.push({ hole, afterHits: found.hits.length });
      for (const payload of chunk.damaged) found.damaged.push(payload);
      setState((previous) => ({
        ...previous,
        // A late control reply never moves the counts back.
        progress:
          previous.progress !== null && previous.progress.hits > chunk.progress.hits
            ? previous.progress
            : chunk.progress,
        version: previous.version + 1,
      }));
    },
    [found],
  );

  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'wal.search.chunk' && event.type !== 'wal.search.done') return;
        const chunk = {
          jobId: event.jobId,
          hits: event.type === 'wal.search.chunk' ? event.hits : [],
          holes: event.type === 'wal.search.chunk' ? (event.holes ?? []) : [],
          damaged: event.type === 'wal.search.chunk' ? (event.damaged ?? []) : [],
          progress: event.progress,
        };
        if (jobId.current === null) early.current.push(chunk);
        else if (event.jobId === jobId.current) apply(chunk);
      }),
    [apply],
  );

  const live = useCancelOnLeave(jobId, isLiveSearch(state.progress), 'wal.search.cancel');

  const start = async (input: SearchStart) => {
    const running = jobId.current;
    if (running !== null && live.current)
      await api.call('wal.search.cancel', { jobId: running }).catch(() => undefined);
    jobId.current = null;
    early.current = [];
    found.hits.length = 0;
    found.holes.length = 0;
    found.damaged.length = 0;
    setState((previous) => ({ progress: null, error: null, version: previous.version + 1 }));
    try {
      const progress = await api.call('wal.search.start', input);
      jobId.current = progress.jobId;
      setState((previous) => ({ ...previous, progress }));
      for (const held of early.current.filter((chunk) => chunk.jobId === progress.jobId))
        apply(held);
      early.current = [];
    } catch (error) {
      setState((previous) => ({ ...previous, error: error as ApiError }));
    }
  };

  const control = useJobControl(jobId, (progress: SearchProgress) => progress.hits, setState);

  return {
    ...state,
    hits: found.hits,
    holes: found.holes,
    damaged: found.damaged,
    start,
    pause: control((id) => api.call('wal.search.pause', { jobId: id })),
    resume: control((id) => api.call('wal.search.resume', { jobId: id })),
    cancel: control((id) => api.call('wal.search.cancel', { jobId: id })),
  };
}
