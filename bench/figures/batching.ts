/**
 * Figure: entries/s of the WAL with 1,024 closed-loop appenders (1 KiB entries, 10 ms
 * interval, durable) / a naive writer that creates one WAL object per append (one encoded
 * 1-entry object, one `putIfAbsent`) with the same 1,024 closed-loop appenders. Rounds
 * alternate the two. Target >= 20.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { objectKey } from '../../src/main/engine/wal/keys';
import { judged, type FigureResult } from '../harness';
import {
  appendLoop,
  benchPrefix,
  chainObject,
  closedLoop,
  emptyStore,
  ENTRY_BYTES,
  onEachBackend,
  openBenchStore,
  perSecond,
  stopStore,
  sumCounts,
  type LoopCount,
  type LoopWindow,
} from './wal-bench';

const APPENDERS = 1024;
const ROUNDS = 2;
const WINDOW = { seconds: 2, warmupSeconds: 0.5 };

export async function batching(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => [await measure(io, backend)]);
}

/** One object per append, at the next sequence of a prefix of its own. */
function naiveWriter(io: ObjectIo, nodeId: number, window: LoopWindow): Promise<LoopCount> {
  const prefix = benchPrefix(nodeId);
  let next = 0n;
  return closedLoop(APPENDERS, window, ENTRY_BYTES, () => {
    const seq = next++;
    return io.putIfAbsent(objectKey(prefix, seq), chainObject(seq, null, 1, ENTRY_BYTES));
  });
}

async function measure(io: ObjectIo, backend: string): Promise<FigureResult> {
  const wal: LoopCount[] = [];
  const naive: LoopCount[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const store = await openBenchStore(io, 200 + round, { flushIntervalMs: 10 });
    wal.push(await appendLoop(store, APPENDERS, WINDOW));
    await stopStore(store);
    // On the store emptied, as the WAL's round found it: a store's create rate moves with
    // how many objects it holds.
    await emptyStore(io);
    naive.push(await naiveWriter(io, 210 + round, WINDOW));
    await emptyStore(io);
  }
  const walRate = perSecond(sumCounts(wal));
  const naiveRate = perSecond(sumCounts(naive));
  const ratio = walRate / naiveRate;
  return {
    figure: 'batching: entries/s, WAL / one create per append (1,024 appenders)',
    backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '>=', 20),
    detail: {
      appenders: APPENDERS,
      flushIntervalMs: 10,
      walEntriesPerSecond: Math.round(walRate),
      naiveEntriesPerSecond: Math.round(naiveRate),
      rounds: ROUNDS,
      windowSeconds: WINDOW.seconds,
      naive: 'one encoded 1-entry WAL object per append, no batching',
    },
  };
}
