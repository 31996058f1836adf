/**
 * How Activity reads a deletion pass's entry (`wal.gc.delete`) at a glance, without hover:
 * how many objects and bytes, the first and last key, the boundary it moved, and what caused
 * it - the call (by action and the start of its id, shared with the call's own entries) or
 * the app and why. Anything else is left to the parameters' text.
 */
import type { AuditEntry } from '../../../../shared/contract';

interface DeletionParameters {
  readonly objects?: unknown;
  readonly bytes?: unknown;
  readonly firstKey?: unknown;
  readonly lastKey?: unknown;
  readonly boundary?: { readonly from?: unknown; readonly to?: unknown };
  readonly remaining?: unknown;
  readonly requestedBy?: ReadonlyArray<{ action?: unknown; callId?: unknown; why?: unknown }>;
}

/** The start of a call id: enough to match entries of one call by eye. */
export function shortCallId(callId: string): string {
  return callId.slice(0, 8);
}

function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function causeText(parameters: DeletionParameters): string {
  const causes = (parameters.requestedBy ?? []).map((cause) => {
    if (cause.action === 'app')
      return `the app (${typeof cause.why === 'string' ? cause.why : 'by itself'})`;
    const call = typeof cause.callId === 'string' ? ` call ${shortCallId(cause.callId)}` : '';
    return `${String(cause.action)}${call}`;
  });
  return causes.length === 0 ? '' : ` · for ${causes.join(', ')}`;
}

/** `deleted 12 objects (3.1 MiB) a … b · boundary 4 → 9 · for wal.obsolete.bulk call 3f9a1c2b`, or null. */
export function deletionText(entry: AuditEntry): string | null {
  if (entry.action !== 'wal.gc.delete') return null;
  const parameters = (entry.parameters ?? {}) as DeletionParameters;
  const objects = Number(parameters.objects ?? 0);
  const bytes = Number(parameters.bytes ?? 0);
  const keys =
    parameters.firstKey === parameters.lastKey
      ? ` ${String(parameters.firstKey)}`
      : ` ${String(parameters.firstKey)} … ${String(parameters.lastKey)}`;
  const boundary =
    parameters.boundary === undefined
      ? ''
      : ` · boundary ${String(parameters.boundary.from)} → ${String(parameters.boundary.to)}`;
  const remaining =
    Number(parameters.remaining ?? 0) > 0 ? ` · ${String(parameters.remaining)} left` : '';
  const what =
    objects > 0
      ? `deleted ${objects} object${objects === 1 ? '' : 's'} (${bytesText(bytes)})${keys}`
      : 'deleted nothing';
  return `${what}${boundary}${remaining}${causeText(parameters)}`;
}
