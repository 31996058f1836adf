/**
 * Which cause a deletion pass's audit entry names (issue #48 item 4): the call that asked for
 * it - its id, session, connection and parameters, the confirmation left out - or, for a pass
 * the app started by itself, "app" and why. One entry per pass (deletion-audit.ts shapes it),
 * written after the call's own entry (call-credit.ts orders it). Decides nothing else.
 */
import type { AuditEntry } from '../../../shared/contract';
import type { GcReport } from '../../../shared/contract/wal';
import type { AppCause, CallCause } from '../audit/call-credit';
import { deletionEntry, type AuditSink } from './deletion-audit';

export type DeletionCause =
  | { readonly kind: 'call'; readonly call: CallCause }
  | { readonly kind: 'app'; readonly app: AppCause };

/** The session a pass the app started by itself is credited to. */
export const APP_SESSION = 'app';

function withoutConfirmation(
  parameters: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(parameters).filter(([key]) => key !== 'confirm'));
}

/** The pass's entry credited to its cause, or null when it deleted nothing and nothing failed. */
export function creditedDeletionEntry(
  report: GcReport,
  cause: DeletionCause,
  store: string,
  /** The writer's connection, for a pass no call names one for. */
  writerConnectionId: string | null = null,
): Omit<AuditEntry, 'at'> | null {
  const trigger =
    cause.kind === 'call'
      ? {
          action: cause.call.action,
          callId: cause.call.callId,
          parameters: withoutConfirmation(cause.call.parameters),
        }
      : { action: APP_SESSION, why: cause.app.why, parameters: { ...cause.app.parameters } };
  const connectionId =
    (cause.kind === 'call' ? cause.call.connectionId : null) ?? writerConnectionId;
  const entry = deletionEntry(connectionId, report, [], store);
  if (entry === null) return null;
  const parameters = { ...(entry.parameters as Record<string, unknown>), requestedBy: [trigger] };
  return cause.kind === 'call'
    ? { ...entry, parameters, session: cause.call.session, callId: cause.call.callId }
    : { ...entry, parameters, session: APP_SESSION };
}

/** Appends the pass's credited entry, if it has one. */
export async function auditCreditedDeletion(
  sink: AuditSink,
  report: GcReport,
  cause: DeletionCause,
  store: string,
  writerConnectionId: string | null = null,
): Promise<void> {
  const entry = creditedDeletionEntry(report, cause, store, writerConnectionId);
  if (entry !== null) await sink.record(entry);
}
