/**
 * Loads like the engine's, with no engine in the process: how busy this thread was over some
 * work (on a CPU, from Linux's `/proc/thread-self/schedstat`; in event-loop turns), a second
 * thread using a given share of a CPU, and this thread's event loop kept busy a given share
 * of the time. With cores to spare a second thread changes nothing; on 2 shared cores it
 * shows how much of a ratio the CPU an engine needs costs the store's own requests, and the
 * busy loop shows what the store's answers lose waiting for the engine's turns. It measures;
 * the figure that runs it reports it.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** Milliseconds the calling thread has spent on a CPU, or null where Linux does not say. */
export function threadCpuMs(): number | null {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

/** How busy this thread was over some work. */
export interface ThreadLoad {
  /** The share of the wall time it spent on a CPU (null: unknown). */
  readonly cpuShare: number | null;
  /** The share its event loop spent in turns, on a CPU or waiting for one. */
  readonly loopUtilization: number;
}

/** Runs `work`, and how busy this thread was meanwhile. */
export async function withThreadLoad<T>(
  work: () => Promise<T>,
): Promise<{ result: T; load: ThreadLoad }> {
  const cpuBefore = threadCpuMs();
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  const result = await work();
  const cpuAfter = threadCpuMs();
  const wall = performance.now() - started;
  const cpuShare = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / wall;
  const loopUtilization = performance.eventLoopUtilization(loopBefore).utilization;
  return { result, load: { cpuShare, loopUtilization } };
}

// Plain CommonJS for `eval`. Every 2 ms it spins until its CPU time catches up with `share` of
// the wall time since it started (a spin preempted by another thread counts only what it got),
// then sleeps; on 'stop' it answers with the CPU and wall milliseconds it measured.
const SOURCE = `
const { readFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const cpuMs = () => Number(readFileSync('${SCHEDSTAT}', 'utf8').split(' ')[0]) / 1e6;
const startedWall = performance.now();
const startedCpu = cpuMs();
let timer;
function cycle() {
  const owed = workerData.share * (performance.now() - startedWall) - (cpuMs() - startedCpu);
  const until = performance.now() + Math.min(Math.max(owed, 0), 5);
  while (performance.now() < until);
  timer = setTimeout(cycle, 2 * (1 - workerData.share));
}
parentPort.on('message', () => {
  clearTimeout(timer);
  parentPort.postMessage({ cpuMs: cpuMs() - startedCpu, wallMs: performance.now() - startedWall });
});
cycle();
`;

/** Runs `work` while a worker thread uses `share` (0-1) of a CPU; the share it used. */
export async function withBusyThread<T>(
  share: number,
  work: () => Promise<T>,
): Promise<{ result: T; busyShare: number }> {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { share: Math.min(1, Math.max(0, share)) },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  try {
    const result = await work();
    const report = new Promise<{ cpuMs: number; wallMs: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.postMessage('stop');
    const { cpuMs, wallMs } = await report;
    return { result, busyShare: wallMs > 0 ? cpuMs / wallMs : 0 };
  } finally {
    await worker.terminate();
  }
}

/** The longest a busy turn of the calling thread runs before it lets the event loop turn. */
export const BUSY_TURN_MS = 0.5;

/**
 * Runs `work` while this thread's event loop is kept busy `utilization` (0-1) of the wall
 * time, its own work counted towards it (`performance.eventLoopUtilization`): between turns
 * it spins, at most `BUSY_TURN_MS` at a time, until the loop's busy time catches up with
 * `utilization` of the time since it started. This is the engine's thread as the store's
 * callbacks meet it: every answer from libuv's pool (ten a local create) or from the S3
 * thread waits for the turn in progress to end, whether that turn is on a CPU or waiting for
 * one. Answers the utilization reached.
 */
export async function withBusyEventLoop<T>(
  utilization: number,
  work: () => Promise<T>,
): Promise<{ result: T; busyShare: number }> {
  const started = performance.eventLoopUtilization();
  const owed = (): number => {
    const { active, idle } = performance.eventLoopUtilization(started);
    return utilization * (active + idle) - active;
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const turn = (): void => {
    if (stopped) return;
    const spinMs = Math.min(owed(), BUSY_TURN_MS);
    if (spinMs <= 0) {
      timer = setTimeout(turn, 1);
      return;
    }
    const until = performance.now() + spinMs;
    while (performance.now() < until);
    setImmediate(turn);
  };
  turn();
  try {
    const result = await work();
    return { result, busyShare: performance.eventLoopUtilization(started).utilization };
  } finally {
    stopped = true;
    clearTimeout(timer);
  }
}
