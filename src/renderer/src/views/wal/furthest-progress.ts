/**
 * A job's progress as a poll answers it, kept against what its chunks already delivered: a chunk
 * may have moved the job on while the poll was in flight, so the furthest count stays and only
 * the poll's run state is taken. Shared by replay and search. Pure.
 */
export function furthestProgress<P extends { readonly state: string }>(
  previous: P | null,
  polled: P,
  countOf: (progress: P) => number,
): P {
  return previous !== null && countOf(previous) > countOf(polled)
    ? { ...previous, state: polled.state }
    : polled;
}
