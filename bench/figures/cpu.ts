/**
 * Figure: engine CPU per 1 KiB entry on the memory backend - process CPU (user + system)
 * over N acknowledged appends from 1,024 closed-loop appenders (10 ms interval, durable),
 * minus two costs that are not the engine's, each measured in the same run: the appender
 * loop itself (the same loop around an already-resolved promise) and the memory backend's
 * own create of the same objects (MemoryObjectIo hashes and copies every object). Divided by
 * N. Reported; target <= 2 us.
 */
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { judged, type FigureResult } from '../harness';
import {
  BENCH_REGION,
  createdObjects,
  openBenchStore,
  PAYLOAD,
  providerOf,
  rounded,
  stopStore,
} from './wal-bench';

const ENTRIES = 300_000;
const APPENDERS = 1024;

/** CPU microseconds spent while `work` ran. */
async function cpuMicros(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/** `APPENDERS` loops sharing `count` operations, each awaiting `operation` in turn. */
async function sharedLoop(count: number, operation: () => Promise<unknown>): Promise<void> {
  let issued = 0;
  await Promise.all(
    Array.from({ length: APPENDERS }, async () => {
      while (issued < count) {
        issued += 1;
        await operation();
      }
    }),
  );
}

export async function cpu(): Promise<FigureResult[]> {
  const io = new MemoryObjectIo();
  const store = await openBenchStore(io, 700, { flushIntervalMs: 10 });
  const provider = providerOf(store);
  const total = await cpuMicros(() =>
    sharedLoop(ENTRIES, () =>
      store.appendBatch([store.entry(PAYLOAD, 0n, BENCH_REGION, provider)]),
    ),
  );
  const created = createdObjects(store);
  await stopStore(store);
  const loop = await cpuMicros(() => sharedLoop(ENTRIES, () => Promise.resolve(0)));
  const meanObject = new Uint8Array(Math.round(created.bytes / created.objects)).fill(1);
  const backendIo = new MemoryObjectIo();
  const backend = await cpuMicros(async () => {
    for (let index = 0; index < created.objects; index++)
      await backendIo.putIfAbsent(`raw/${index}`, meanObject);
  });
  const engine = (total - loop - backend) / ENTRIES;
  return [
    {
      figure: 'cpu: engine CPU per 1 KiB entry (memory backend)',
      backend: 'memory',
      value: engine,
      unit: 'us',
      ...judged(engine, '<=', 2),
      detail: {
        entries: ENTRIES,
        appenders: APPENDERS,
        flushIntervalMs: 10,
        totalUsPerEntry: rounded(total / ENTRIES),
        appenderLoopUsPerEntry: rounded(loop / ENTRIES),
        memoryBackendUsPerEntry: rounded(backend / ENTRIES),
        objects: created.objects,
        meanObjectBytes: meanObject.length,
      },
    },
  ];
}
