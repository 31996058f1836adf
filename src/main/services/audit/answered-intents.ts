/**
 * Reading the log newest first, which started entries are still unanswered: an outcome line
 * is newer than the started line it answers, so by the time a reader meets a started entry it
 * has met its outcome if there is one on the way. A started entry with an answer is hidden; one
 * without shows (its action's outcome was never written). Across pages the set starts empty,
 * so a started entry whose outcome sits on a newer page than the one read shows once as started.
 */
import type { AuditEntry } from '../../../shared/contract';

/** A line of the log: its entry and the intent id that ties a started entry to its outcome. */
export interface AuditLine {
  readonly entry: AuditEntry;
  readonly intent: string | null;
}

/** Bounds what a page remembers: a page reads at most this many answered intents. */
const MAX_REMEMBERED = 100_000;

export class AnsweredIntents {
  private readonly answered = new Set<string>();

  /** Whether the reader shows this line (read newest first). */
  shows(line: AuditLine): boolean {
    if (line.intent === null) return true;
    if (line.entry.result !== 'started') {
      if (this.answered.size < MAX_REMEMBERED) this.answered.add(line.intent);
      return true;
    }
    return !this.answered.delete(line.intent);
  }
}
