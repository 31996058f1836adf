/**
 * The throughput figure's raw side: a round's raw creates, each loop on the store emptied and
 * settled first as the WAL round found it (a store's create rate moves with how many objects it
 * holds: on this box's ext4 raw creates on top of a WAL round's objects ran at 327-443 MB/s,
 * on the emptied store at 345-554). Given how busy the engine's thread was in the WAL round
 * before, two more loops show what that load costs the store's own creates:
 *   - beside a second thread on a CPU the engine thread's share of the time
 *     (`contentionBound`): what the cores alone take;
 *   - with this thread's event loop kept as busy as the engine's was (`callbackBound`): the
 *     creates' answers then wait for turns in progress, as they wait for the engine's.
 * The loops' order reverses every other round. It measures; the figure judges.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { withCpuBudget, type CpuBudget } from './cpu-budget';
import { withEventLoopDelay, type EventLoopDelay } from './event-loop';
import { BUSY_TURN_MS, withBusyEventLoop, withBusyThread, type ThreadLoad } from './thread-load';
import {
  bytesPerSecond,
  createLoop,
  emptySettledStore,
  rounded,
  sumCounts,
  type LoopCount,
  type LoopWindow,
} from './wal-bench';

/** Raw creates beside a load like the engine thread's: the share asked, the share reached. */
export interface BesideLoad {
  readonly result: LoopCount;
  readonly engineShare: number;
  readonly busyShare: number;
}

export interface RawRound {
  readonly alone: LoopCount;
  readonly delay: EventLoopDelay;
  readonly budget: CpuBudget | null;
  readonly besideBusyThread: BesideLoad | null;
  readonly withBusyLoop: BesideLoad | null;
}

export interface RawShape {
  readonly body: Uint8Array;
  readonly concurrency: number;
  readonly window: LoopWindow;
}

export async function rawRound(
  io: ObjectIo,
  round: number,
  shape: RawShape,
  engine: ThreadLoad,
): Promise<RawRound> {
  const loop = (name: string) => () =>
    createLoop(io, `raw/throughput-${name}-${round}`, shape.body, shape.concurrency, shape.window);
  const alone = async () => {
    await emptySettledStore(io);
    const { result, budget } = await withCpuBudget(() => withEventLoopDelay(loop('alone')));
    return { alone: result.result, delay: result.delay, budget };
  };
  const cpuShare = engine.cpuShare;
  const beside = async (): Promise<BesideLoad | null> => {
    if (cpuShare === null) return null;
    await emptySettledStore(io);
    return { ...(await withBusyThread(cpuShare, loop('beside'))), engineShare: cpuShare };
  };
  const busyLoop = async (): Promise<BesideLoad> => {
    await emptySettledStore(io);
    return {
      ...(await withBusyEventLoop(engine.loopUtilization, loop('busy-loop'))),
      engineShare: engine.loopUtilization,
    };
  };
  if (round % 2 === 0) {
    const first = await alone();
    const besideBusyThread = await beside();
    return { ...first, besideBusyThread, withBusyLoop: await busyLoop() };
  }
  const withBusyLoop = await busyLoop();
  const besideBusyThread = await beside();
  return { ...(await alone()), besideBusyThread, withBusyLoop };
}

/** The detail's load bounds (raw creates beside each load / raw creates alone); none unmeasured. */
export function loadBounds(
  rounds: readonly RawRound[],
  rawRate: number,
): Record<string, number | string> {
  const thread = rounds.flatMap((round) => round.besideBusyThread ?? []);
  const loop = rounds.flatMap((round) => round.withBusyLoop ?? []);
  const rate = (loads: BesideLoad[]) => bytesPerSecond(sumCounts(loads.map((l) => l.result)));
  const shares = (loads: BesideLoad[], share: (load: BesideLoad) => number) =>
    loads.map((load) => rounded(share(load))).join(' / ');
  const threadBound: Record<string, number | string> =
    thread.length === 0
      ? {}
      : {
          engineThreadCpu: shares(thread, (load) => load.engineShare),
          secondThreadCpu: shares(thread, (load) => load.busyShare),
          rawBesideBusyThreadMBps: rounded(rate(thread) / 1e6),
          contentionBound: rounded(rate(thread) / rawRate),
        };
  if (loop.length === 0) return threadBound;
  return {
    ...threadBound,
    engineLoopUtilization: shares(loop, (load) => load.engineShare),
    busyLoopUtilization: shares(loop, (load) => load.busyShare),
    busyTurnMs: BUSY_TURN_MS,
    rawWithBusyLoopMBps: rounded(rate(loop) / 1e6),
    callbackBound: rounded(rate(loop) / rawRate),
  };
}

/** The detail's CPU budget: mean box and process cores over the WAL rounds and the raw ones. */
export function cpuBudgetDetail(
  wal: readonly (CpuBudget | null)[],
  raw: readonly (CpuBudget | null)[],
): Record<string, string> {
  const known = (budgets: readonly (CpuBudget | null)[]) =>
    budgets.filter((budget): budget is CpuBudget => budget !== null);
  const [walBudgets, rawBudgets] = [known(wal), known(raw)];
  if (walBudgets.length === 0 || rawBudgets.length === 0) return {};
  const mean = (budgets: CpuBudget[], cores: (budget: CpuBudget) => number) =>
    rounded(budgets.reduce((sum, budget) => sum + cores(budget), 0) / budgets.length);
  const pair = (cores: (budget: CpuBudget) => number) =>
    `wal ${mean(walBudgets, cores)} / raw ${mean(rawBudgets, cores)}`;
  return {
    boxBusyCores: pair((budget) => budget.boxCores),
    processCores: pair((budget) => budget.processCores),
    otherProcessesCores: pair((budget) => budget.boxCores - budget.processCores),
  };
}
