/**
 * CPU taken by a second thread while some work runs: what a store's requests do beside a
 * thread that uses as much CPU as the engine's thread used, with no engine in the process.
 * With cores to spare it changes nothing; on 2 shared cores it shows how much of a ratio the
 * CPU an engine needs costs the store's own requests. Thread CPU time is read from Linux's
 * `/proc/thread-self/schedstat` (nanoseconds on a CPU); elsewhere there is no measurement.
 * It measures; the figure that runs it reports it.
 */
import { readFileSync } from 'node:fs';
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

/** Runs `work`, and the share of its wall time this thread spent on a CPU (null: unknown). */
export async function withThreadCpu<T>(
  work: () => Promise<T>,
): Promise<{ result: T; cpuShare: number | null }> {
  const cpuBefore = threadCpuMs();
  const started = performance.now();
  const result = await work();
  const cpuAfter = threadCpuMs();
  const wall = performance.now() - started;
  const cpuShare = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / wall;
  return { result, cpuShare };
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
