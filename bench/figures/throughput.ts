/**
 * Figure: WAL payload bytes/s (durable, 1 KiB entries, enough closed-loop appenders to keep
 * `maxInFlightCreates` creates busy) / raw `putIfAbsent` bytes/s of objects of the WAL's mean
 * object size (its bytes / objects created, from the store's metrics) at that same concurrency.
 * Rounds alternate WAL and raw so both see the same machine, each loop starting on an emptied
 * store and counted over the same window. Target >= 0.8.
 *
 * Closed-loop appenders only pipeline when batches seal by size: with a 10 ms interval every
 * appender's next entry lands in one batch and a single create is in flight, whatever their
 * number. So batches are capped at 1 MiB and 16,384 appenders keep ~16 MiB outstanding.
 *
 * Second figure of the same run: the event-loop delay p99 of this process during the WAL
 * rounds (the engine's host: in the app, Electron's main process, whose IPC waits on it).
 * Target <= 20 ms. The detail gives the same p99 during the raw rounds (`rawRoundsP99Ms`):
 * what the machine and the store alone leave the loop, with no engine in it.
 *
 * The detail adds `floorRatio`: the same appenders on a writer that does only what any writer
 * must for them (`floor-writer.ts`), over the same window / raw creates. The WAL's ratio is read
 * against it: below it lies what any writer pays for these appenders on this machine, between
 * the two what the engine adds. `answersOnlyRatio` is the same writer with neither copy nor
 * checksum, below anything a writer can do.
 *
 * And what the engine's load costs the store's own creates (`throughput-raw.ts`):
 * `contentionBound` (raw creates beside a second thread using the engine thread's share of a
 * CPU / alone) and `callbackBound` (raw creates with this thread's event loop kept as busy as
 * the engine's / alone); and
 * where the machine's CPU went in the WAL and the raw rounds (`cpu-budget.ts`): the box's busy
 * cores, this process's, and every other process's (on the S3 lane, the store server's).
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { WAL_CONFIG_DEFAULTS } from '../../src/main/engine/wal/config';
import { judged, type FigureResult } from '../harness';
import { withCpuBudget, type CpuBudget } from './cpu-budget';
import { RESOLUTION_MS, withEventLoopDelay, type EventLoopDelay } from './event-loop';
import { floorLoop, type FloorShape } from './floor-writer';
import { withThreadLoad, type ThreadLoad } from './thread-load';
import { cpuBudgetDetail, loadBounds, rawRound, type RawRound } from './throughput-raw';
import {
  appendLoop,
  bytesPerSecond,
  createdObjects,
  createLoop,
  emptySettledStore,
  emptyStore,
  onEachBackend,
  openBenchStore,
  PAYLOAD,
  rounded,
  stopStore,
  sumCounts,
  type LoopCount,
} from './wal-bench';

export const SATURATING_APPENDERS = 16_384;
export const SATURATING_BATCH_BYTES = 1024 * 1024;
const ROUNDS = 2;
/**
 * One window for every loop the ratio compares: a store's create rate falls over a loop's
 * first seconds (on the box of issue #13, raw creates of 1 MiB counted from 0.7 s to 3.2 s ran
 * at 0.65-0.77 of the same creates counted from 0.3 s to 1.8 s: memory freed more than 2 s
 * before takes 6-10 times longer to write into there), so a shorter raw window flattered raw.
 */
const WINDOW = { seconds: 2.5, warmupSeconds: 0.7 };
const CONCURRENCY = WAL_CONFIG_DEFAULTS.maxInFlightCreates;

export async function throughput(): Promise<FigureResult[]> {
  return onEachBackend((io, backend) => measure(io, backend));
}

async function measure(io: ObjectIo, backend: string): Promise<FigureResult[]> {
  const wal: LoopCount[] = [];
  const walBudgets: (CpuBudget | null)[] = [];
  const rawRounds: RawRound[] = [];
  let objects = 0;
  let objectBytes = 0;
  const delays: EventLoopDelay[] = [];
  const floors: LoopCount[] = [];
  const floorLoads: ThreadLoad[] = [];
  const answersOnly: LoopCount[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await emptySettledStore(io);
    const store = await openBenchStore(io, 100 + round, {
      flushIntervalMs: 10,
      maxBatchBytes: SATURATING_BATCH_BYTES,
    });
    const { result: measured, budget } = await withCpuBudget(() =>
      withThreadLoad(() =>
        withEventLoopDelay(() => appendLoop(store, SATURATING_APPENDERS, WINDOW)),
      ),
    );
    const { result, delay } = measured.result;
    wal.push(result);
    walBudgets.push(budget);
    delays.push(delay);
    await stopStore(store);
    const created = createdObjects(store);
    objects += created.objects;
    objectBytes += created.bytes;
    const body = new Uint8Array(Math.round(objectBytes / objects)).fill(7);
    const shape = { body, concurrency: CONCURRENCY, window: WINDOW };
    rawRounds.push(await rawRound(io, round, shape, measured.load));
    await emptySettledStore(io);
    const floor = await withThreadLoad(() => floorLoop(io, `floor/throughput-${round}`, FLOOR));
    floors.push(floor.result);
    floorLoads.push(floor.load);
    await emptySettledStore(io);
    answersOnly.push(await floorLoop(io, `floor/answers-${round}`, ANSWERS_ONLY));
  }
  const raw = rawRounds.map((round) => round.alone);
  const batched = await batchedRound(io, objects === 0 ? 0 : Math.round(objectBytes / objects));
  const walRate = bytesPerSecond(sumCounts(wal));
  const rawRate = bytesPerSecond(sumCounts(raw));
  const ratio = walRate / rawRate;
  const answersOnlyRatio = bytesPerSecond(sumCounts(answersOnly)) / rawRate;
  // The worse round: a stall in either is a stall the UI would have felt.
  const delay = delays.reduce((worst, d) => (d.p99Ms > worst.p99Ms ? d : worst));
  return [
    {
      figure: 'throughput: WAL payload B/s / raw putIfAbsent B/s (same object size, concurrency 4)',
      backend,
      value: ratio,
      unit: 'x',
      ...throughputJudged(ratio, answersOnlyRatio),
      detail: {
        appenders: SATURATING_APPENDERS,
        maxBatchBytes: SATURATING_BATCH_BYTES,
        flushIntervalMs: 10,
        walMBps: rounded(walRate / 1e6),
        walEntriesPerSecond: Math.round(sumCounts(wal).operations / sumCounts(wal).seconds),
        meanObjectBytes: Math.round(objectBytes / objects),
        rawMBps: rounded(rawRate / 1e6),
        rawCreatesPerSecond: rounded(sumCounts(raw).operations / sumCounts(raw).seconds, 0),
        concurrency: CONCURRENCY,
        floorMBps: rounded(bytesPerSecond(sumCounts(floors)) / 1e6),
        floorRatio: rounded(bytesPerSecond(sumCounts(floors)) / rawRate),
        ...floorThreadCpu(floorLoads),
        answersOnlyRatio: rounded(answersOnlyRatio),
        ...loadBounds(rawRounds, rawRate),
        ...cpuBudgetDetail(
          walBudgets,
          rawRounds.map((round) => round.budget),
        ),
        rounds: ROUNDS,
        batchedAppends: `${BATCHED.appenders} appenders x ${BATCHED.entriesPerAppend} entries`,
        batchedWalMBps: rounded(batched.walRate / 1e6),
        batchedRatio: rounded(batched.walRate / batched.rawRate),
      },
    },
    {
      figure: 'event loop: delay p99 of the engine process (saturating durable run)',
      backend,
      value: delay.p99Ms,
      unit: 'ms',
      ...judged(delay.p99Ms, '<=', 20),
      detail: {
        appenders: SATURATING_APPENDERS,
        p50Ms: rounded(delay.p50Ms),
        maxMs: rounded(delay.maxMs),
        roundsP99Ms: delays.map((d) => rounded(d.p99Ms)).join(' / '),
        rawRoundsP99Ms: rawRounds.map((round) => rounded(round.delay.p99Ms)).join(' / '),
        resolutionMs: RESOLUTION_MS,
      },
    },
  ];
}

/** How much of the time the floor writer's thread was on a CPU, each round (as `engineThreadCpu`). */
function floorThreadCpu(loads: readonly ThreadLoad[]): { floorThreadCpu?: string } {
  const shares = loads.flatMap((load) => (load.cpuShare === null ? [] : [rounded(load.cpuShare)]));
  return shares.length === 0 ? {} : { floorThreadCpu: shares.join(' / ') };
}

/** The floor writer's load: the WAL rounds' appenders, batches, interval and creates in flight. */
const FLOOR: FloorShape = {
  appenders: SATURATING_APPENDERS,
  payload: PAYLOAD,
  maxBatchBytes: SATURATING_BATCH_BYTES,
  flushIntervalMs: 10,
  concurrency: CONCURRENCY,
  window: WINDOW,
  bodies: 'copied',
};

/**
 * Less than any writer can do for the same appenders: the floor writer creating its buffers
 * as they are, no copy and no checksum (`answersOnlyRatio`). Left are the appends' promises,
 * answered a batch at a time, and the creates: if this reads under the target, no writer
 * serving these appenders can meet it on the machine.
 */
const ANSWERS_ONLY: FloorShape = { ...FLOOR, bodies: 'untouched' };

/**
 * Reported beside the figure, not judged: the same outstanding bytes from appenders that hand
 * `appendBatch` 32 entries a call, as a GreptimeDB region worker hands it a write batch. The
 * gap between the two ratios is the cost of a call (its promise, its command) on the thread
 * the appenders share with the engine, not of the entries.
 */
const BATCHED = { appenders: SATURATING_APPENDERS / 32, entriesPerAppend: 32 } as const;

async function batchedRound(
  io: ObjectIo,
  meanObjectBytes: number,
): Promise<{ walRate: number; rawRate: number }> {
  await emptySettledStore(io);
  const store = await openBenchStore(io, 120, {
    flushIntervalMs: 10,
    maxBatchBytes: SATURATING_BATCH_BYTES,
  });
  const wal = await appendLoop(store, BATCHED.appenders, WINDOW, BATCHED.entriesPerAppend);
  await stopStore(store);
  await emptySettledStore(io);
  const raw = await createLoop(
    io,
    'raw/throughput-batched',
    new Uint8Array(meanObjectBytes).fill(7),
    CONCURRENCY,
    WINDOW,
  );
  await emptyStore(io);
  return { walRate: bytesPerSecond(wal), rawRate: bytesPerSecond(raw) };
}

/**
 * quality.md's target: >= 0.8, or, where the answers-only floor writer itself reads below 0.8
 * in the same run (the box's limit for one-entry appenders), >= 0.95 of that floor.
 */
function throughputJudged(ratio: number, answersOnly: number): { target: string; met: boolean } {
  if (answersOnly >= 0.8) return judged(ratio, '>=', 0.8);
  const bound = 0.95 * answersOnly;
  return { target: `>= ${rounded(bound, 3)} (0.95 x floor)`, met: ratio >= 0.8 || ratio >= bound };
}
