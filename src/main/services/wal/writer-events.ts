/**
 * What a writer opened in the app announces, as events of the bus: its state (throttled by
 * the writer), load samples, collections and re-opens, each naming its connection and prefix.
 */
import type { WriterView } from '../../../shared/contract/wal';
import type { EventBus } from '../event-bus';
import type { AppWriterListeners } from './app-writer';

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
