/**
 * Figure: the fleet overview of a 1,000-prefix bucket (issue #15): 900 Cairn prefixes (900
 * nodes) and 100 GreptimeDB ones, 3 objects each, written straight with create-if-absent
 * (setup, not measured). The WAL service of the app walks the bucket and reads each prefix's
 * model, polled as the Overview polls it (every 50 ms here). Values: seconds until the first
 * screenful (20 rows) is read (target < 1 s), seconds until every row is read, and the
 * event-loop delay p99 of the process meanwhile (reported: what the UI's calls wait behind).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { EventBus } from '../../src/main/services/event-bus';
import { WalService } from '../../src/main/services/wal/wal-service';
import { judged, timedPool, type FigureResult } from '../harness';
import { writeGreptimeChain } from './greptimedb-open';
import { onEachBackend, rounded, writeChain } from './wal-bench';

const CAIRN_PREFIXES = 900;
const GREPTIME_PREFIXES = 100;
const OBJECTS_PER_PREFIX = 3;
export const FIRST_SCREEN_ROWS = 20;
const POLL_MS = 50;

export async function writeFleet(io: ObjectIo): Promise<void> {
  await timedPool(CAIRN_PREFIXES, 8, async (node) => {
    await writeChain(io, walPrefix('wal', BigInt(node), 0), OBJECTS_PER_PREFIX, {
      entries: 1,
      entryBytes: 64,
      concurrency: 1,
    });
  });
  await timedPool(GREPTIME_PREFIXES, 8, async (node) => {
    await writeGreptimeChain(io, `datanodes/${node}/epochs/1`, OBJECTS_PER_PREFIX);
  });
}

export async function fleetFill(
  io: ObjectIo,
): Promise<{ firstRows: number; allRows: number; p99: number }> {
  const connections = { io: async () => ({ io, root: '' }), assertPresent: () => undefined };
  const wal = new WalService(connections, new EventBus());
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  let firstRows = Infinity;
  const read = new Set<string>();
  let since = 0;
  for (;;) {
    const view = await wal.fleet('bench', since, 3_600_000);
    since = view.version;
    for (const row of view.rows) if (row.state !== 'pending') read.add(row.prefix);
    const elapsed = (performance.now() - started) / 1000;
    if (read.size >= FIRST_SCREEN_ROWS) firstRows = Math.min(firstRows, elapsed);
    if (!view.reading && view.passEndedAtMs !== null) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const allRows = (performance.now() - started) / 1000;
  delay.disable();
  await wal.closeAll();
  if (read.size !== CAIRN_PREFIXES + GREPTIME_PREFIXES)
    throw new Error(`fleet read ${read.size} prefixes`);
  return { firstRows, allRows, p99: delay.percentile(99) / 1e6 };
}

export async function fleet(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => {
    await writeFleet(io);
    const { firstRows, allRows, p99 } = await fleetFill(io);
    const prefixes = (CAIRN_PREFIXES + GREPTIME_PREFIXES).toLocaleString('en-US');
    return [
      {
        figure: `fleet: ${prefixes} prefixes, first ${FIRST_SCREEN_ROWS} rows read`,
        backend,
        value: firstRows,
        unit: 's',
        ...judged(firstRows, '<', 1),
        detail: {
          allRowsSeconds: rounded(allRows, 2),
          eventLoopDelayP99Ms: rounded(p99, 1),
          objectsPerPrefix: OBJECTS_PER_PREFIX,
        },
      },
    ];
  });
}
