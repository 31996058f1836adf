/**
 * What this machine charges for the things the engine's I/O is made of, measured at the start
 * of a run and printed under the table (and kept in the JSON): a page of fresh memory touched
 * for the first time, a system call made through Node, and a message to a worker thread and
 * back. The figures are ratios against raw store calls, but how much the engine's own threads,
 * wake-ups and young-generation collections (which copy into fresh pages) weigh in a ratio
 * depends on these costs, and they differ by an order of magnitude between machines: on a
 * paravirtualized guest every page fault and system call leaves the guest's kernel.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { availableParallelism, cpus, totalmem, type as osType, release } from 'node:os';
import { startScriptThread } from '../src/main/engine/objectio/script-thread';

export interface MachineCosts {
  readonly cores: number;
  /** Microseconds to touch one 4 KiB page of memory the process never touched before. */
  readonly pageFirstTouchUs: number;
  /** Microseconds for `fstatSync` of an open file: one system call and Node's binding. */
  readonly fstatUs: number;
  /** Microseconds for a message to a worker thread and its answer (two wake-ups). */
  readonly threadRoundTripUs: number;
}

const PAGE = 4096;
const TOUCHED_BYTES = 64 * 1024 * 1024;
const FSTATS = 20_000;
const ROUND_TRIPS = 2_000;

/** A large zeroed ArrayBuffer comes straight from mmap: none of its pages is mapped yet. */
function pageFirstTouchUs(): number {
  const memory = new Uint8Array(TOUCHED_BYTES);
  const started = performance.now();
  for (let at = 0; at < TOUCHED_BYTES; at += PAGE) memory[at] = 1;
  return ((performance.now() - started) * 1000) / (TOUCHED_BYTES / PAGE);
}

function fstatUs(): number {
  const fd = openSync(process.execPath, 'r');
  try {
    const started = performance.now();
    for (let call = 0; call < FSTATS; call++) fstatSync(fd);
    return ((performance.now() - started) * 1000) / FSTATS;
  } finally {
    closeSync(fd);
  }
}

async function threadRoundTripUs(): Promise<number> {
  const echo = startScriptThread(
    "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));",
    {},
  );
  try {
    const roundTrip = (): Promise<unknown> =>
      new Promise((resolve) => {
        echo.once('message', resolve);
        echo.postMessage(0);
      });
    await roundTrip(); // the thread's start is not a round trip
    const started = performance.now();
    for (let trip = 0; trip < ROUND_TRIPS; trip++) await roundTrip();
    return ((performance.now() - started) * 1000) / ROUND_TRIPS;
  } finally {
    await echo.terminate();
  }
}

export async function machineCosts(): Promise<MachineCosts> {
  const rounded = (value: number): number => Number(value.toFixed(2));
  return {
    cores: availableParallelism(),
    pageFirstTouchUs: rounded(pageFirstTouchUs()),
    fstatUs: rounded(fstatUs()),
    threadRoundTripUs: rounded(await threadRoundTripUs()),
  };
}

export function describeMachine(costs: MachineCosts): string {
  return (
    `machine: ${costs.cores} cores; first touch of a 4 KiB page ${costs.pageFirstTouchUs} us, ` +
    `fstat ${costs.fstatUs} us, worker-thread round trip ${costs.threadRoundTripUs} us`
  );
}

/** The hardware and system a run was on, in one line: CPU model, cores, memory, kernel, Node. */
export function describeMachineHardware(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = `${Math.round(totalmem() / 2 ** 30)} GiB`;
  return `${model}, ${availableParallelism()} cores, ${memory}, ${osType()} ${release()}, Node ${process.versions.node}`;
}
