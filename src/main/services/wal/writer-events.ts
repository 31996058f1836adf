/**
 * What a writer opened in the app announces, as events of the bus: its state (throttled by
 * the writer), load samples, collections and re-opens, each naming its connection and prefix;
 * every collection that deleted objects is audited first. (A replay's chunks go to its caller:
 * replay-delivery.ts.)
 */
import type { WriterView } from '../../../shared/contract/wal';
import type { EventBus } from '../event-bus';
import type { AppWriterListeners } from './app-writer';
import type { AuditSink } from './deletion-audit';
import { auditCreditedDeletion } from './deletion-credit';
import { processLog } from '../process-log';

export function publishWriterState(
  events: EventBus,
  connectionId: string,
  prefix: string,
  writer: WriterView | null,
): void {
  events.publish({ type: 'wal.writer.state', connectionId, prefix, writer });
}

export function writerEventsOf(
  events: EventBus,
  connectionId: string,
  prefix: string,
): AppWriterListeners {
  return {
    onState: (view) => publishWriterState(events, connectionId, prefix, view),
    onLoadSample: (sample, running) =>
      events.publish({ type: 'wal.load.sample', connectionId, prefix, sample, running }),
    onCollected: (report) =>
      events.publish({ type: 'wal.gc.collected', connectionId, prefix, report }),
    onReopened: (reopen) =>
      events.publish({ type: 'wal.writer.reopened', connectionId, prefix, reopen }),
  };
}

/** A writer's listeners: its events, each collection audited before its event leaves. */
export function auditedWriterEventsOf(
  events: EventBus,
  audit: AuditSink | null,
  connectionId: string,
  at: { readonly prefix: string; readonly io: { readonly endpoint: string } },
): AppWriterListeners {
  const published = writerEventsOf(events, connectionId, at.prefix);
  return {
    ...published,
    onCollected: async (report, cause) => {
      if (audit !== null)
        await auditCreditedDeletion(audit, report, cause, at.io.endpoint, connectionId).catch(
          (error: unknown) => {
            processLog.error(
              { err: error, prefix: at.prefix, objects: report.objects.length },
              'audit log unavailable: a garbage-collection pass deleted objects its entry does not record',
            );
            throw error;
          },
        );
      await published.onCollected(report, cause);
    },
  };
}
