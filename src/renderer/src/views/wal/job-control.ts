/**
 * Pause, resume and cancel of the streaming job on screen (a replay, a search): nothing before
 * a job has started; the answer's run state is taken, its count only when it is the furthest
 * (a chunk may have moved the job on while the call was in flight); a refusal is the view's
 * error to show. Shared by use-replay and use-search.
 */
import type { Dispatch, RefObject, SetStateAction } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import { furthestProgress } from './furthest-progress';

interface JobViewState<P> {
  readonly progress: P | null;
  readonly error: ApiError | null;
}

/** A hook, so that it may hold the ref: `control(call)` is a button's handler, which reads the job id when pressed. */
export function useJobControl<P extends { readonly state: string }, S extends JobViewState<P>>(
  jobId: RefObject<string | null>,
  countOf: (progress: P) => number,
  setState: Dispatch<SetStateAction<S>>,
): (call: (jobId: string) => Promise<P>) => () => Promise<void> {
  return (call) => async () => {
    const id = jobId.current;
    if (id === null) return;
    try {
      const progress = await call(id);
      setState((previous) => ({
        ...previous,
        progress: furthestProgress(previous.progress, progress, countOf),
      }));
    } catch (error) {
      setState((previous) => ({ ...previous, error: error as ApiError }));
    }
  };
}
