/**
 * The audit log could not be written: the call that needed an entry first is refused and
 * changes nothing. Names the file and why (a full disk, a read-only data directory, ...), so
 * the operator can free space or fix the directory; the console shows it in a banner.
 */
import { CairnError } from '../../engine/errors';

export const AUDIT_UNAVAILABLE = 'AuditUnavailable';

export class AuditUnavailableError extends CairnError {
  constructor(
    readonly file: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      AUDIT_UNAVAILABLE,
      `the audit log ${file} cannot be written (${reason}); nothing was changed: free space or fix the data directory, then try again`,
      { file, reason },
      options,
    );
  }
}

/** Why a write failed, in the words the operator needs (the errno first). */
export function writeFailureReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
