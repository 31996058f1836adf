/**
 * Write-ahead auditing: a call that changes a store has its entry written, and flushed to
 * disk, before it acts. The entry written first reads `result: 'started'` and carries an
 * intent id; the call's outcome entries carry the same id, and a reader shows a started entry
 * only while no outcome answers it (an action whose outcome was never written - the process
 * died, or the log failed after the action - stays visible as started).
 *
 * When the entry cannot be written the call is refused with `AuditUnavailable` (naming the
 * file and the reason) before it did anything, and the process log says so. A failure to
 * write the outcome, once the action ran, cannot undo it: the process log says so and the
 * started entry stays.
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../../../shared/contract';
import { processLog } from '../process-log';
import { AuditUnavailableError } from './audit-unavailable';

/** An entry as a caller hands it to the log (the log stamps `at`). */
export type AuditDraft = Omit<AuditEntry, 'at'>;

/** What write-ahead auditing needs of the audit log (`AuditLog`). */
export interface AuditWriter {
  readonly file: string;
  /** Appends and flushes `entries` in order; throws `AuditUnavailable` when it cannot. */
  record(entry: AuditDraft, intent?: string): Promise<unknown>;
}

/** An action whose entry is on disk: `settle` records how it ended. */
export interface AuditIntent {
  readonly id: string;
  /** Appends the outcome entries, answering the started one; never throws (logs instead). */
  settle(outcome: readonly AuditDraft[]): Promise<void>;
}

/**
 * Writes `entry` as started, flushed; throws `AuditUnavailable` (and logs it) when the log
 * cannot take it, so the caller refuses the action before it acts.
 */
export async function writeAhead(
  log: AuditWriter,
  entry: Omit<AuditDraft, 'result' | 'error'>,
): Promise<AuditIntent> {
  const id = randomUUID();
  try {
    await log.record({ ...entry, result: 'started' }, id);
  } catch (error) {
    const refused =
      error instanceof AuditUnavailableError
        ? error
        : new AuditUnavailableError(log.file, String(error), { cause: error });
    processLog.error(
      { code: refused.code, file: refused.file, reason: refused.reason, action: entry.action },
      `audit log unavailable: ${entry.action} on ${entry.target} refused before it acted`,
    );
    throw refused;
  }
  return {
    id,
    settle: async (outcome) => {
      for (const done of outcome) {
        try {
          await log.record(done, id);
        } catch (error) {
          processLog.error(
            {
              intent: id,
              action: done.action,
              target: done.target,
              result: done.result,
              err: error,
            },
            'audit log unavailable after the action ran: its outcome is not recorded (the entry stays "started")',
          );
          return;
        }
      }
    },
  };
}
