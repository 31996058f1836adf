/**
 * Figure: the cost of the durability fence - durable throughput with `ackFence: 'register'`
 * / with `ackFence: 'none'`, rounds alternating the two, under two loads: the throughput
 * figure's saturating one (creates pipelined) and the batching figure's 1,024 appenders
 * (one create in flight, so every fence read adds to every cycle). Target >= 0.9.
 * A run that stops acknowledging is reported as a failed row naming the stall.
 *
 * The detail gives each run's append p50 and the fenced runs' mean fence read. Under the
 * 1,024-appender load every appender waits on the same batch, so the protocol alone bounds the
 * ratio at `cycleBound` = none's append p50 / (that + one fence read): a ratio near it means
 * the engine adds nothing but the reads control.md requires.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import type { AckFence } from '../../src/main/engine/wal/config';
import { judged, percentile, type FigureResult } from '../harness';
import { SATURATING_APPENDERS, SATURATING_BATCH_BYTES } from './throughput';
import {
  appendLoop,
  bytesPerSecond,
  emptyStore,
  histogramMean,
  onEachBackend,
  openBenchStore,
  rounded,
  stopStore,
  sumCounts,
  type LoopCount,
} from './wal-bench';

const ROUNDS = 2;
const WINDOW = { seconds: 2.5, warmupSeconds: 0.5 };
const TARGET = 0.9;

interface Load {
  readonly name: string;
  readonly appenders: number;
  readonly maxBatchBytes?: number;
  /** Every appender waits on the same batch: each cycle holds one whole fence round. */
  readonly fenceInEveryCycle: boolean;
}

const LOADS: readonly Load[] = [
  {
    name: 'saturating',
    appenders: SATURATING_APPENDERS,
    maxBatchBytes: SATURATING_BATCH_BYTES,
    fenceInEveryCycle: false,
  },
  { name: '1,024 appenders', appenders: 1024, fenceInEveryCycle: true },
];

interface Run {
  readonly count: LoopCount;
  /** Mean duration of the run's fence reads, in ms (NaN without a fence). */
  readonly fenceReadMs: number;
}

export async function fence(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => {
    const rows: FigureResult[] = [];
    for (const [index, load] of LOADS.entries())
      rows.push(await measure(io, backend, load, 400 + index * 10));
    return rows;
  });
}

async function durableRun(
  io: ObjectIo,
  nodeId: number,
  load: Load,
  ackFence: AckFence,
): Promise<Run> {
  const store = await openBenchStore(io, nodeId, {
    flushIntervalMs: 10,
    maxBatchBytes: load.maxBatchBytes,
    ackFence,
  });
  try {
    const count = await appendLoop(store, load.appenders, WINDOW);
    return { count, fenceReadMs: histogramMean(store.metrics().fenceReadSeconds) * 1000 };
  } catch (error) {
    throw new Error(
      `ackFence '${ackFence}': ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await stopStore(store);
    await emptyStore(io);
  }
}

async function measure(
  io: ObjectIo,
  backend: string,
  load: Load,
  firstNode: number,
): Promise<FigureResult> {
  const figure = `fence: durable throughput, ackFence 'register' / 'none' (${load.name})`;
  const shape = {
    appenders: load.appenders,
    maxBatchBytes: load.maxBatchBytes ?? 'default',
    flushIntervalMs: 10,
    rounds: ROUNDS,
  };
  const fenced: Run[] = [];
  const unfenced: Run[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      fenced.push(await durableRun(io, firstNode + 2 * round, load, 'register'));
      unfenced.push(await durableRun(io, firstNode + 2 * round + 1, load, 'none'));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      figure,
      backend,
      value: Number.NaN,
      unit: 'x',
      ...judged(Number.NaN, '>=', TARGET),
      detail: { ...shape, error: message },
    };
  }
  const fencedCount = sumCounts(fenced.map((run) => run.count));
  const unfencedCount = sumCounts(unfenced.map((run) => run.count));
  const fencedRate = bytesPerSecond(fencedCount);
  const unfencedRate = bytesPerSecond(unfencedCount);
  const ratio = fencedRate / unfencedRate;
  const fenceReadMs = fenced.reduce((sum, run) => sum + run.fenceReadMs, 0) / fenced.length;
  const unfencedP50 = percentile(unfencedCount.latenciesMs, 50);
  return {
    figure,
    backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '>=', TARGET),
    detail: {
      ...shape,
      registerMBps: rounded(fencedRate / 1e6),
      noneMBps: rounded(unfencedRate / 1e6),
      appendP50Ms: `${rounded(percentile(fencedCount.latenciesMs, 50))} / ${rounded(unfencedP50)}`,
      fenceReadMeanMs: rounded(fenceReadMs),
      ...(load.fenceInEveryCycle && {
        cycleBound: rounded(unfencedP50 / (unfencedP50 + fenceReadMs), 3),
      }),
    },
  };
}
