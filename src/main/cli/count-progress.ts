/**
 * A counting command's progress (`wal append`) on stderr, only when stderr is a terminal: one
 * line rewritten in place every `EVERY_MS` - how many of the total are done and the rate so
 * far - and erased when the command ends, so the summary that follows stands alone. A piped or
 * redirected stderr gets nothing (as `progress.ts` does for the reading commands).
 */
import { counted } from '../../shared/plural';
import { showLine } from './progress-line';

export interface CountSoFar {
  readonly done: number;
  readonly total: number;
  readonly seconds: number;
}

/** "cairn append: 412 of 1,000 entries acknowledged · 2,050 entries/s". */
export function countLine(label: string, noun: string, verb: string, now: CountSoFar): string {
  const rate = now.seconds > 0 ? Math.round(now.done / now.seconds) : 0;
  return `cairn ${label}: ${now.done.toLocaleString('en-US')} of ${counted(now.total, noun)} ${verb} · ${counted(rate, noun)}/s`;
}

/** Shows the count's line until the returned function is called (which erases it). */
export const showCount = showLine;
