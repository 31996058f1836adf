/**
 * Shared pieces of the WAL API suites: a real app (router + services) on a temp data dir with
 * a WAL prefix seeded in its embedded store by the load generator (as `cairn wal append`
 * does), the events it published, and a typed-error probe.
 */
import type { ApiEvent } from '../../src/shared/contract';
import type { FleetView } from '../../src/shared/contract/wal';
import type { ScrubJobView } from '../../src/shared/contract/wal-scrub';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { embeddedStoreDir } from '../../src/main/services/app-paths';
import { runLoad } from '../../src/main/services/wal/load-generator';
import { makeTestApp, type TestApp } from '../support/app-services';
export { failureOf } from '../support/typed-failure';

export const PREFIX = walPrefix('wal', 0n, 0);
export const CONNECTION = 'embedded';

export interface WalApp extends TestApp {
  readonly io: LocalObjectIo;
  readonly events: ApiEvent[];
  call(name: string, input: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

export async function walApp(options: { backgroundScrub?: boolean } = {}): Promise<WalApp> {
  const app = await makeTestApp(options);
  const events: ApiEvent[] = [];
  app.services.events.subscribe((event) => events.push(event));
  const io = new LocalObjectIo(embeddedStoreDir(app.dataDir));
  return {
    ...app,
    io,
    events,
    call: (name, input) => app.router.call(name, { connectionId: CONNECTION, ...input }),
    close: async () => {
      await app.services.wal.closeAll();
      await app.dispose();
    },
  };
}

/**
 * Appends `count` entries over regions 1:1..1:regions, then stops the writer. One appender:
 * the generator's region choice spreads evenly over all regions only then.
 */
export async function seed(io: ObjectIo, count: number, regions = 4): Promise<void> {
  const store = await ObjectStoreLogStore.open(io, {
    root: 'wal',
    nodeId: 0n,
    generation: 0,
    flushIntervalMs: 10,
  });
  const report = await runLoad(store, { regions, writers: 1, count, size: 64 }, () => undefined);
  await store.stop();
  if (report.firstError instanceof Error) throw report.firstError;
  if (report.failed > 0) throw new Error(`${report.failed} seed appends failed`);
}

/** Resolves once `predicate` holds for a published event. */
export function nextEvent<T extends ApiEvent>(
  app: WalApp,
  predicate: (event: ApiEvent) => event is T,
): Promise<T> {
  return new Promise((resolve) => {
    const found = app.events.find(predicate);
    if (found) return resolve(found);
    const stop = app.services.events.subscribe((event) => {
      if (predicate(event)) {
        stop();
        resolve(event);
      }
    });
  });
}

/** A scrub job once it has ended (finished, cancelled or failed). */
export async function scrubEnded(app: Pick<WalApp, 'call'>, jobId: string): Promise<ScrubJobView> {
  for (;;) {
    const jobs = (await app.call('wal.scrub.jobs', {})) as ScrubJobView[];
    const job = jobs.find((j) => j.jobId === jobId);
    if (job !== undefined && job.state !== 'running' && job.state !== 'paused') return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The fleet overview once every row is read. */
export async function settledFleet(app: Pick<WalApp, 'call'>): Promise<FleetView> {
  for (;;) {
    const view = (await app.call('wal.fleet', { since: 0, refreshMs: 60_000 })) as FleetView;
    if (!view.reading) return view;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
