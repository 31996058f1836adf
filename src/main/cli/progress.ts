/**
 * A long command's progress (`inspect`, `verify`, `replay`, `gc`) on stderr, only when stderr
 * is a terminal: one line rewritten in place every `EVERY_MS` - the units the command's
 * fan-outs finished of those known so far (objects read, folders listed), the link's request
 * rate, requests in flight and latency p50 - and erased when the command ends. Stdout is never
 * touched, and a piped or redirected stderr gets nothing at all.
 */
import type { IoLinkStats } from '../engine/objectio/link';
import { showLine, type ProgressStream } from './progress-line';

export type { ProgressStream } from './progress-line';

/** The progress line for `stats` (without the carriage return). */
export function progressLine(label: string, stats: IoLinkStats): string {
  const { done, total } = stats.work;
  const parts = [
    `cairn ${label}: ${count(done)}/${count(Math.max(done, total))} done`,
    `${count(Math.round(stats.requestsPerSecond))} requests/s`,
    `${stats.inFlight} in flight`,
  ];
  if (stats.p50Ms !== null) parts.push(`p50 ${Math.round(stats.p50Ms)} ms`);
  return parts.join(' · ');
}

/**
 * Shows `label`'s progress from `link` until the returned function is called (which erases
 * the line); nothing at all when `stream` is not a terminal.
 */
export function showProgress(
  label: string,
  link: { stats(): IoLinkStats },
  stream: ProgressStream = process.stderr,
): () => void {
  return showLine(() => progressLine(label, link.stats()), stream);
}

/** Runs `work` with `label`'s progress shown meanwhile. */
export async function withProgress<T>(
  label: string,
  link: { stats(): IoLinkStats },
  work: () => Promise<T>,
): Promise<T> {
  const stop = showProgress(label, link);
  try {
    return await work();
  } finally {
    stop();
  }
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
