/**
 * Every deletion leaves an audit entry: one per garbage-collection pass that deleted objects
 * (or failed to), whoever ran it - an explicit GC, the collection after an obsolete, the CLI -
 * with the prefix, the key range, the count and the bytes, the boundary it moved, and the
 * calls that asked for it with their parameters. Owns the entry's shape and which calls a
 * pass answers (`CollectionTriggers`); appends through the audit log's one API.
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

/**
 * The calls waiting for a pass: a pass answers every call made before it reported (passes
 * after an obsolete coalesce), and one with none was asked by nothing this app saw.
 */
export class CollectionTriggers {
  private pending: CollectionTrigger[] = [];

  /**
   * Runs `call` as the asker of the next pass: the trigger waits for a pass, unless the call
   * failed before a pass took it (it asked for nothing then).
   */
  async asking<T>(trigger: CollectionTrigger, call: () => Promise<T>): Promise<T> {
    this.pending.push(trigger);
    try {
      return await call();
    } catch (error) {
      this.pending = this.pending.filter((waiting) => waiting !== trigger);
      throw error;
    }
  }

  take(): CollectionTrigger[] {
    const taken = this.pending;
    this.pending = [];
    return taken.length > 0 ? taken : [{ action: 'wal.gc.background', parameters: {} }];
  }
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
