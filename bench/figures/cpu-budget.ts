/**
 * Where the machine's CPU went while some work ran: the box's busy cores (Linux `/proc/stat`,
 * every process and the kernel) and this process's own (`process.cpuUsage`). The difference is
 * everyone else: on the S3 lane mostly the store server (radosgw and its OSD), which shares the
 * same cores, so whatever this process takes in a round is CPU the server's answers do not
 * get. It measures; the figure that runs it reports it.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface CpuBudget {
  /** Cores busy on the whole machine, on average over the work (of `availableParallelism`). */
  readonly boxCores: number;
  /** Cores this process used. */
  readonly processCores: number;
}

interface Ticks {
  readonly busy: number;
  readonly total: number;
}

/** The machine's CPU time so far, in clock ticks; null where `/proc/stat` is not readable. */
function machineTicks(): Ticks | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const ticks = fields.slice(1).map(Number);
    const idle = ticks[3]! + ticks[4]!; // idle and iowait
    const total = ticks.reduce((sum, tick) => sum + tick, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Runs `work`, and how the machine's CPU was spent meanwhile (null: not measurable here). */
export async function withCpuBudget<T>(
  work: () => Promise<T>,
): Promise<{ result: T; budget: CpuBudget | null }> {
  const ticksBefore = machineTicks();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const ticksAfter = machineTicks();
  if (ticksBefore === null || ticksAfter === null || ticksAfter.total === ticksBefore.total)
    return { result, budget: null };
  const busyShare = (ticksAfter.busy - ticksBefore.busy) / (ticksAfter.total - ticksBefore.total);
  return {
    result,
    budget: {
      boxCores: busyShare * availableParallelism(),
      processCores: (cpu.user + cpu.system) / 1e6 / seconds,
    },
  };
}
