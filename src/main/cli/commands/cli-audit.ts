/**
 * The CLI's deletions in the app's audit log: a `wal gc` pass or the collection after a
 * `wal obsolete` deletes objects, and each such pass appends one entry to `audit.jsonl` in the
 * app's data directory (`--data-dir`, else `CAIRN_DATA_DIR`, else the app's default), where the
 * console's Activity view shows it. The entry's shape is the app's own (`deletion-audit.ts`).
 * A command that deletes or raises a watermark writes its own entry ahead of acting, flushed
 * (`auditCliAhead`): when the log cannot take it the command is refused with `AuditUnavailable`
 * before it changed anything, and its outcome entry answers it once it ran.
 */
import type { GcReport as EngineGcReport } from '../../engine/wal/gc';
import type { ObjectStoreLogStore } from '../../engine/wal/store';
import { AuditLog } from '../../services/audit-log';
import { EventBus } from '../../services/event-bus';
import { auditDeletion, type CollectionTrigger } from '../../services/wal/deletion-audit';
import { presentGcReport } from '../../services/wal/wal-presenters';
import { writeAhead, type AuditIntent } from '../../services/audit/write-ahead';

/** The app's audit log, as the CLI appends to it (no window to tell). */
function cliAuditLog(dataDir: string): AuditLog {
  return new AuditLog(dataDir, new EventBus());
}

/** Appends the entry of one pass this command ran (none when it deleted nothing). */
export function auditCliDeletion(
  report: EngineGcReport,
  trigger: CollectionTrigger,
  store: string,
  dataDir: string,
): Promise<void> {
  return auditDeletion(cliAuditLog(dataDir), null, presentGcReport(report), [trigger], store);
}

/**
 * Audits every pass `store` runs from now on (the collection after an obsolete); `settled`
 * resolves once every entry is written (call it after the store stopped).
 */
export function auditStoreCollections(
  store: ObjectStoreLogStore,
  trigger: CollectionTrigger,
  endpoint: string,
  dataDir: string,
): { settled: () => Promise<EngineGcReport[]> } {
  const written: Array<Promise<void>> = [];
  const reports: EngineGcReport[] = [];
  store.onCollection((report) => {
    reports.push(report);
    written.push(auditCliDeletion(report, trigger, endpoint, dataDir));
  });
  return {
    settled: async () => {
      await Promise.all(written);
      return reports;
    },
  };
}

/** A command's own entry: what it was asked, on which prefix. */
export interface CliAction {
  readonly action: string;
  readonly target: string;
  readonly parameters: Readonly<Record<string, string>>;
}

/**
 * Writes `command`'s entry to the app's audit log, flushed, before the command acts; throws
 * `AuditUnavailable` (the command must then do nothing) when the log cannot take it.
 */
export function auditCliAhead(dataDir: string, command: CliAction): Promise<AuditIntent> {
  return writeAhead(cliAuditLog(dataDir), { connectionId: null, ...command });
}

/**
 * Runs `act` as `command`, its entry written ahead and its outcome (ok, or the error it threw)
 * answering it afterwards.
 */
export async function auditedCliAction<T>(
  dataDir: string,
  command: CliAction,
  act: () => Promise<T>,
): Promise<T> {
  const intent = await auditCliAhead(dataDir, command);
  const entry = { connectionId: null, ...command };
  let result: T;
  try {
    result = await act();
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await intent.settle([{ ...entry, result: 'error', error: why }]);
    throw error;
  }
  await intent.settle([{ ...entry, result: 'ok' }]);
  return result;
}
