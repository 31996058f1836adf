/**
 * Figure: engine CPU per 1 KiB entry on the memory backend - process CPU (user + system)
 * over N acknowledged appends from 1,024 closed-loop appenders (10 ms interval, durable),
 * minus two costs that are not the engine's, each measured in the same run: the appender
 * loop itself (the same loop around an already-resolved promise) and the memory backend's
 * own create of the same objects (MemoryObjectIo hashes and copies every object). Divided by
 * N. Six runs, each on a fresh store: on a shared 2-core box the same code reads 2-6 us from
 * run to run, and the cheapest measurement is the one least disturbed, so the figure takes the
 * cheapest run's CPU less the cheapest backend measurement. (The cheapest difference would
 * pick the run whose backend measurement was disturbed the most: it once read -0.31 us.)
 * Target <= 2 us.
 * The detail adds the same runs on a store keeping no copy of the objects (best of six).
 */
import { AlreadyExistsError } from '../../src/main/engine/objectio/errors';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { seqOfAnyObjectKey } from '../../src/main/engine/wal/keys';
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

const ENTRIES = 100_000;
const REPETITIONS = 6;
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

interface CpuSample {
  readonly totalUs: number;
  readonly backendUs: number;
  readonly objects: number;
  readonly meanObjectBytes: number;
}

/**
 * A memory store that keeps only the keys of the WAL's objects, no copy of their bytes: the
 * engine's CPU with no backend cost to subtract, and without the memory backend's own 1 MiB
 * copy per object (whose page faults and collections land in the same process). A diagnosis
 * in the detail, never the figure.
 */
class KeysOnlyObjectIo extends MemoryObjectIo {
  private readonly walObjects = new Set<string>();

  override async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    if (seqOfAnyObjectKey(key) === null) return super.putIfAbsent(key, bytes);
    if (this.walObjects.has(key)) throw new AlreadyExistsError(key, this.endpoint);
    this.walObjects.add(key);
    return { etag: String(this.walObjects.size) };
  }
}

/** CPU of `ENTRIES` acknowledged appends on a fresh writer over `io`, and what it created. */
async function appendRun(
  io: ObjectIo,
  nodeId: number,
): Promise<{ totalUs: number; objects: number; bytes: number }> {
  const store = await openBenchStore(io, nodeId, { flushIntervalMs: 10 });
  const provider = providerOf(store);
  // Locals, not the imported bindings: under tsx each read of an import is a getter call, a
  // cost of this loop that the engine's figure must not carry.
  const payload = PAYLOAD;
  const region = BENCH_REGION;
  const totalUs = await cpuMicros(() =>
    sharedLoop(ENTRIES, () => store.appendBatch([store.entry(payload, 0n, region, provider)])),
  );
  const created = createdObjects(store);
  await stopStore(store);
  return { totalUs, ...created };
}

/** One run on a fresh memory store: its CPU, then the backend's CPU for the same creates. */
async function sample(nodeId: number): Promise<CpuSample> {
  const { totalUs, objects, bytes } = await appendRun(new MemoryObjectIo(), nodeId);
  const meanObject = new Uint8Array(Math.round(bytes / objects)).fill(1);
  const backendIo = new MemoryObjectIo();
  const backendUs = await cpuMicros(async () => {
    for (let index = 0; index < objects; index++) {
      await backendIo.putIfAbsent(`raw/${index}`, meanObject);
    }
  });
  return { totalUs, backendUs, objects, meanObjectBytes: meanObject.length };
}

export async function cpu(): Promise<FigureResult[]> {
  // The cheapest of six as well: measured once, and first, it read 0.7 us an entry in a fresh
  // process (the young generation's first touches) against 0.1 us later.
  let loopUs = Number.POSITIVE_INFINITY;
  for (let rep = 0; rep < REPETITIONS; rep++)
    loopUs = Math.min(loopUs, await cpuMicros(() => sharedLoop(ENTRIES, () => Promise.resolve(0))));
  const samples: CpuSample[] = [];
  for (let rep = 0; rep < REPETITIONS; rep++) samples.push(await sample(700 + rep));
  const engineOf = (s: CpuSample): number => (s.totalUs - s.backendUs - loopUs) / ENTRIES;
  // Other processes share these 2 cores and only ever add CPU time to a measurement.
  const cheapest = (cost: (s: CpuSample) => number): CpuSample =>
    samples.reduce((low, s) => (cost(s) < cost(low) ? s : low));
  const best = cheapest((s) => s.totalUs);
  const bestBackend = cheapest((s) => s.backendUs);
  const engine = (best.totalUs - bestBackend.backendUs - loopUs) / ENTRIES;
  let keysOnlyUs = Number.POSITIVE_INFINITY;
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const run = await appendRun(new KeysOnlyObjectIo(), 710 + rep);
    keysOnlyUs = Math.min(keysOnlyUs, (run.totalUs - loopUs) / ENTRIES);
  }
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
        runs: REPETITIONS,
        engineUsPerEntryRuns: samples.map((s) => rounded(engineOf(s))).join(' / '),
        totalUsPerEntryRuns: samples.map((s) => rounded(s.totalUs / ENTRIES)).join(' / '),
        memoryBackendUsPerEntryRuns: samples.map((s) => rounded(s.backendUs / ENTRIES)).join(' / '),
        appenderLoopUsPerEntry: rounded(loopUs / ENTRIES),
        engineUsPerEntryKeysOnlyStore: rounded(keysOnlyUs),
        objects: best.objects,
        meanObjectBytes: best.meanObjectBytes,
      },
    },
  ];
}
