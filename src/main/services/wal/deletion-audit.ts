/**
 * Every deletion leaves an audit entry: one per garbage-collection pass that deleted objects
 * (or failed to), whoever ran it - an explicit GC, the collection after an obsolete, the CLI -
 * with the prefix, the key range, the count and the bytes, the boundary it moved, and the
 * calls that asked for it with their parameters. Owns the entry's shape; which call a pass of
 * the app's writer is credited to is deletion-credit.ts's (and call-credit.ts orders it after
 * the call). Appends through the audit log's one API.
 */
import type { AuditEntry } from '../../../shared/contract';
import type { GcReport } from '../../../shared/contract/wal';

/** The audit action of a deletion. */
export const DELETION_ACTION = 'wal.gc.delete';

/** A call that asked for a collection: its action and its parameters, as audited. */
export interface CollectionTrigger {
  readonly action: string;
  readonly parameters: Readonly<Record<string, string>>;
}

/** Where deletion entries go: the app's audit log (`AuditLog.record`). */
export interface AuditSink {
  record(entry: Omit<AuditEntry, 'at'>): Promise<unknown>;
}

/** The entry of one pass, or null when it deleted nothing and nothing failed. */
export function deletionEntry(
  connectionId: string | null,
  report: GcReport,
  triggers: readonly CollectionTrigger[],
  store: string,
): Omit<AuditEntry, 'at'> | null {
  if (report.dryRun || (report.objects.length === 0 && report.failure === null)) return null;
  const first = report.objects[0];
  const last = report.objects[report.objects.length - 1];
  return {
    connectionId,
    action: DELETION_ACTION,
    target: report.prefix,
    parameters: {
      prefix: report.prefix,
      store,
      objects: report.objects.length,
      bytes: report.bytes,
      firstKey: first?.key ?? null,
      lastKey: last?.key ?? null,
      boundary: { from: String(report.previousBoundary), to: String(report.boundary) },
      remaining: report.remaining,
      requestedBy: triggers.map((trigger) => ({
        ...trigger,
        parameters: { ...trigger.parameters },
      })),
    },
    result: report.failure === null ? 'ok' : 'error',
    ...(report.failure === null ? {} : { error: report.failure }),
  };
}

/** Appends the pass's entry, if it has one; resolves once it is written. */
export async function auditDeletion(
  sink: AuditSink,
  connectionId: string | null,
  report: GcReport,
  triggers: readonly CollectionTrigger[],
  store: string,
): Promise<void> {
  const entry = deletionEntry(connectionId, report, triggers, store);
  if (entry !== null) await sink.record(entry);
}
