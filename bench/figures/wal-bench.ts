/**
 * What the WAL figures share: the backends a figure runs on (local always, S3 when the lane
 * is set, every object removed afterwards), a WAL store opened for benchmarking, closed-loop
 * appenders and closed-loop raw creates counted over the same kind of steady-state window,
 * and hand-built chains of WAL objects. It measures; it never judges a figure (the figure
 * modules do) and never changes the engine's behaviour.
 */
import { localBackend, s3Backend, type BenchBackend } from '../backends';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import type { ObjectStoreWalConfigInput } from '../../src/main/engine/wal/config';
import {
  encodeObject,
  type ObjectLink,
  type SegmentRecord,
} from '../../src/main/engine/wal/format';
import { makeEntryId } from '../../src/main/engine/wal/ids';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import type { HistogramSnapshot } from '../../src/main/engine/wal/metrics';
import { makeRegionId, type Provider, type RegionId } from '../../src/main/engine/wal/provider';
import { ObjectStoreLogStore, type StoreOptions } from '../../src/main/engine/wal/store';

export const ENTRY_BYTES = 1024;
export const BENCH_REGION: RegionId = makeRegionId(1, 1);
/** One payload for every append: the figures measure the WAL, not a random-bytes generator. */
export const PAYLOAD: Uint8Array = new Uint8Array(ENTRY_BYTES).fill(0x5a);

export function benchConfig(
  nodeId: number,
  overrides: Partial<ObjectStoreWalConfigInput> = {},
): ObjectStoreWalConfigInput {
  return { root: 'bench', nodeId: BigInt(nodeId), generation: 0, ...overrides };
}

export function benchPrefix(nodeId: number): string {
  return walPrefix('bench', BigInt(nodeId), 0);
}

/** A writer on a fresh prefix (one node id per store). The create-if-absent probe is skipped. */
export function openBenchStore(
  io: ObjectIo,
  nodeId: number,
  overrides: Partial<ObjectStoreWalConfigInput> = {},
  options: StoreOptions = {},
): Promise<ObjectStoreLogStore> {
  return ObjectStoreLogStore.open(io, benchConfig(nodeId, overrides), { probe: false, ...options });
}

export function providerOf(store: { prefix: string }, region: RegionId = BENCH_REGION): Provider {
  return { prefix: store.prefix, regionId: region };
}

/** How long past its window a run may take to finish before it counts as stalled. */
export const STALL_GRACE_MS = 5_000;

/** A run that did not finish: the engine stopped acknowledging (or storage stopped answering). */
export class StalledRunError extends Error {
  constructor(what: string) {
    super(`stalled: ${what}`);
    this.name = 'StalledRunError';
  }
}

/**
 * `work`, or a StalledRunError once `ms` passed. The timer also keeps the process alive: a
 * promise that never settles would otherwise end the run silently with an empty event loop.
 */
export async function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  what: () => string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StalledRunError(what())), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Stops a store, giving up (without throwing) if the stop itself never returns. */
export async function stopStore(store: ObjectStoreLogStore): Promise<void> {
  await withDeadline(
    store.stop(),
    STALL_GRACE_MS,
    () => `stop of ${store.prefix} did not return`,
  ).catch(() => undefined);
}

/** A steady-state window: work finished before `warmupSeconds` is not counted. */
export interface LoopWindow {
  readonly seconds: number;
  readonly warmupSeconds: number;
}

export interface LoopCount {
  /** Operations completed inside the counted window. */
  readonly operations: number;
  readonly bytes: number;
  /** Length of the counted window. */
  readonly seconds: number;
  /** Latency of each operation completed inside the window, in ms. */
  readonly latenciesMs: number[];
}

export function perSecond(count: LoopCount): number {
  return count.operations / count.seconds;
}

export function bytesPerSecond(count: LoopCount): number {
  return count.bytes / count.seconds;
}

/**
 * `workers` closed loops each running `operation` back to back until the window ends; counts
 * only what completes after the warm-up and before the end, each completion worth
 * `bytesPerOperation`. The first failure stops the run. One await per operation and one
 * clock read per completion: the loop shares the thread with what it measures.
 */
export async function closedLoop(
  workers: number,
  window: LoopWindow,
  bytesPerOperation: number,
  operation: (worker: number) => Promise<unknown>,
): Promise<LoopCount> {
  const started = performance.now();
  const countFrom = started + window.warmupSeconds * 1000;
  const end = countFrom + window.seconds * 1000;
  const latenciesMs: number[] = [];
  let operations = 0;
  let inFlight = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (index: number): Promise<void> => {
    let sent = performance.now();
    while (failure === null && sent < end) {
      inFlight += 1;
      try {
        await operation(index);
      } catch (error) {
        failure ??= { error };
        return;
      } finally {
        inFlight -= 1;
      }
      const now = performance.now();
      if (now >= countFrom && now <= end) {
        operations += 1;
        latenciesMs.push(now - sent);
      }
      sent = now;
    }
  };
  const loops = Promise.all(Array.from({ length: workers }, (_, index) => worker(index)));
  await withDeadline(
    loops,
    end - performance.now() + STALL_GRACE_MS,
    () => `${inFlight} operations unfinished ${STALL_GRACE_MS / 1000} s after the window closed`,
  );
  if (failure !== null) throw (failure as { error: unknown }).error;
  return {
    operations,
    bytes: operations * bytesPerOperation,
    seconds: window.seconds,
    latenciesMs,
  };
}

/**
 * `appenders` closed-loop appenders on `store`'s bench region, each appending
 * `entriesPerAppend` 1 KiB entries per call (one, unless a figure says otherwise).
 */
export function appendLoop(
  store: ObjectStoreLogStore,
  appenders: number,
  window: LoopWindow,
  entriesPerAppend = 1,
): Promise<LoopCount> {
  const provider = providerOf(store);
  // Locals: under tsx each read of an imported binding is a getter call, once per append.
  const payload = PAYLOAD;
  const region = BENCH_REGION;
  if (entriesPerAppend === 1) {
    return closedLoop(appenders, window, ENTRY_BYTES, () =>
      store.appendBatch([store.entry(payload, 0n, region, provider)]),
    );
  }
  return closedLoop(appenders, window, ENTRY_BYTES * entriesPerAppend, () =>
    store.appendBatch(
      Array.from({ length: entriesPerAppend }, () => store.entry(payload, 0n, region, provider)),
    ),
  );
}

/** Closed-loop raw creates of `bytes` under fresh keys below `keyPrefix`. */
export function createLoop(
  io: ObjectIo,
  keyPrefix: string,
  bytes: Uint8Array,
  concurrency: number,
  window: LoopWindow,
): Promise<LoopCount> {
  let next = 0;
  return closedLoop(concurrency, window, bytes.length, () =>
    io.putIfAbsent(`${keyPrefix}/${String(next++).padStart(12, '0')}`, bytes),
  );
}

/** Runs `operation` `count` times one after another; the latency of each, in ms. */
export async function serialLatencies(
  count: number,
  operation: (index: number) => Promise<unknown>,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await operation(index);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Mean of a metrics histogram (NaN when empty). */
export function histogramMean(snapshot: number | HistogramSnapshot): number {
  return typeof snapshot === 'number' || snapshot.count === 0
    ? Number.NaN
    : snapshot.sum / snapshot.count;
}

/** Bytes of WAL objects the store created, and how many (from its metrics). */
export function createdObjects(store: ObjectStoreLogStore): { objects: number; bytes: number } {
  const sizes = store.metrics().objectBytes;
  return typeof sizes === 'number'
    ? { objects: 0, bytes: 0 }
    : { objects: sizes.count, bytes: sizes.sum };
}

/** An object of `entries` records of `entryBytes` each in the bench region, linked to `link`. */
export function chainObject(
  seq: bigint,
  link: ObjectLink | null,
  entries: number,
  entryBytes: number,
): Uint8Array {
  const records: SegmentRecord[] = Array.from({ length: entries }, (_, i) => ({
    id: makeEntryId(seq, BigInt(i + 1)),
    bytes: PAYLOAD.subarray(0, entryBytes),
  }));
  return encodeObject({ seq, epoch: 1n, link, segments: new Map([[BENCH_REGION, records]]) }).bytes;
}

/**
 * Writes a chain of `objects` objects (epoch 1, sequences 0..n-1, each linked to the one
 * before) straight with create-if-absent, `concurrency` at a time: setup, not measured.
 * Returns the bytes written.
 */
export async function writeChain(
  io: ObjectIo,
  prefix: string,
  objects: number,
  shape: { entries: number; entryBytes: number; concurrency: number },
): Promise<number> {
  let next = 0;
  let written = 0;
  const worker = async (): Promise<void> => {
    while (next < objects) {
      const seq = BigInt(next++);
      const link = seq === 0n ? null : { seq: seq - 1n, epoch: 1n };
      const bytes = chainObject(seq, link, shape.entries, shape.entryBytes);
      await io.putIfAbsent(objectKey(prefix, seq), bytes);
      written += bytes.length;
    }
  };
  await Promise.all(Array.from({ length: shape.concurrency }, worker));
  return written;
}

/**
 * Removes every object of the store: radosgw's memstore keeps them in RAM (and blocks every
 * writer once nearly full), so heavy figures empty the store between rounds.
 */
export async function emptyStore(io: ObjectIo): Promise<void> {
  const keys: string[] = [];
  for await (const page of io.list('')) for (const object of page.objects) keys.push(object.key);
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < keys.length) await io.delete(keys[next++]!);
    }),
  );
}

/**
 * How long memory freed by an emptying takes to settle. A guest that hands freed memory back
 * to its host (Linux's free page reporting, 2 s after the free) writes into it slowly from then
 * on: on the box of issue #13, 1 GB into the page cache ran at 6.8-8.7 GB/s right after another
 * 1 GB file was removed, and at 0.8-1.2 GB/s 2-4 s after. A loop started sooner writes its
 * first objects into the memory its store's last objects freed, faster than the loop after it.
 */
const FREED_MEMORY_SETTLE_MS = 3_000;

/**
 * Empties the store and lets the memory it freed settle, so that loops compared with each other
 * each start from the same machine: an empty store and no memory freed just before.
 */
export async function emptySettledStore(io: ObjectIo): Promise<void> {
  await emptyStore(io);
  await new Promise((resolve) => setTimeout(resolve, FREED_MEMORY_SETTLE_MS));
}

/** Runs `measure` on a fresh store of each backend in turn (local, then S3 when set). */
export async function onEachBackend<T>(
  measure: (io: ObjectIo, backend: BenchBackend['name']) => Promise<T[]>,
): Promise<T[]> {
  const backends = [localBackend(), s3Backend()].filter(
    (backend): backend is BenchBackend => backend !== null,
  );
  const results: T[] = [];
  for (const backend of backends) {
    try {
      const io = await backend.fresh();
      try {
        results.push(...(await measure(io, backend.name)));
      } finally {
        await emptyStore(io);
      }
    } finally {
      backend.dispose();
    }
  }
  return results;
}

/** `value` rounded for the detail table. */
export function rounded(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}

export function sumCounts(counts: readonly LoopCount[]): LoopCount {
  return {
    operations: counts.reduce((sum, count) => sum + count.operations, 0),
    bytes: counts.reduce((sum, count) => sum + count.bytes, 0),
    seconds: counts.reduce((sum, count) => sum + count.seconds, 0),
    // Not flatMap: a saturating run counts a few hundred thousand latencies.
    latenciesMs: ([] as number[]).concat(...counts.map((count) => count.latenciesMs)),
  };
}
