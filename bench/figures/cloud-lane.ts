/**
 * What the cloud lane's figures share (quality.md, "The cloud lane"): a fresh bucket on the S3
 * of `CAIRN_S3_ENDPOINT`, written straight on loopback (setup, not measured), and read through
 * the latency proxy (`latency-lane.ts`) that adds the lane's round trip. Cairn's side runs on
 * its own client, each pass on a new link (as a CLI command does); the baselines run
 * the same raw requests through the same link at `BASELINE_IN_FLIGHT`, what the link allows
 * rather than what the engine chose. A figure's timed passes alternate the two after one
 * untimed pass of each (new sockets each pay a handshake round trip). Measures; never judges.
 */
import { randomBytes } from 'node:crypto';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import {
  createBucketIfMissing,
  S3ObjectIo,
  type S3ObjectIoConfig,
} from '../../src/main/engine/objectio/s3-object-io';
import { rttOf, startLatencyLane } from '../latency-lane';
import { TAIL_WINDOW_BYTES } from '../../src/main/engine/wal/format';
import { timedPool } from '../harness';
import { emptyStore, writeChain } from './wal-bench';

/** Requests the baselines keep in flight: the store's limit, not the engine's. */
export const BASELINE_IN_FLIGHT = 64;
/** Objects of a prefix in the lane's figures (the 2,000-object prefixes). */
export const CLOUD_OBJECTS = 2_000;
/** Timed passes of each side, after one untimed pass each. */
export const CLOUD_PASSES = 3;

/**
 * The objects of a figure that may run smaller: `CAIRN_BENCH_CLOUD_OBJECTS` (a proof that it
 * runs), else `CLOUD_OBJECTS`.
 */
export function cloudObjects(): number {
  const asked = Number(process.env.CAIRN_BENCH_CLOUD_OBJECTS ?? CLOUD_OBJECTS);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : CLOUD_OBJECTS;
}

export interface CloudLane {
  /** The bucket on loopback: for setup only. */
  readonly direct: ObjectIo;
  /**
   * A new client of the bucket through the added round trip. A baseline uses it raw; Cairn's
   * side puts it on a new link each pass (`linkedIo`), as each CLI command and each new
   * connection starts with a controller that has measured nothing yet.
   */
  remote(): S3ObjectIo;
  readonly rttMs: number;
  /** `s3 +50 ms`, for the table. */
  readonly backend: string;
  /** The `cairn` store flags of the bucket through the added round trip. */
  readonly cliFlags: readonly string[];
  /** The environment that gives a `cairn` process the bucket's credentials. */
  readonly cliEnv: NodeJS.ProcessEnv;
}

/** Runs `measure` on a fresh bucket behind the lane's link; nothing when S3 is not set. */
export async function onCloudLane<T>(measure: (lane: CloudLane) => Promise<T[]>): Promise<T[]> {
  const endpoint = process.env.CAIRN_S3_ENDPOINT;
  if (!endpoint) return [];
  const settings: Omit<S3ObjectIoConfig, 'bucket'> = {
    forcePathStyle: true,
    credentials: {
      accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
      secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
    },
  };
  const bucket = `cairn-cloud-${randomBytes(4).toString('hex')}`;
  await createBucketIfMissing({ ...settings, bucket, endpoint });
  const rttMs = rttOf(process.argv);
  const proxy = await startLatencyLane(endpoint, rttMs);
  const clients: S3ObjectIo[] = [];
  const client = (at: string): S3ObjectIo => {
    const io = new S3ObjectIo({ ...settings, bucket, endpoint: at });
    clients.push(io);
    return io;
  };
  const direct = client(endpoint);
  try {
    return await measure({
      direct,
      remote: () => client(proxy.endpoint),
      rttMs,
      backend: `s3 +${rttMs} ms`,
      cliFlags: ['--bucket', bucket, '--s3-endpoint', proxy.endpoint, '--path-style'],
      cliEnv: {
        AWS_ACCESS_KEY_ID: settings.credentials?.accessKeyId,
        AWS_SECRET_ACCESS_KEY: settings.credentials?.secretAccessKey,
      },
    });
  } finally {
    await emptyStore(direct).catch(() => undefined);
    for (const io of clients) io.destroy();
    proxy.stop();
  }
}

/**
 * A chain of `CLOUD_OBJECTS` objects of `entries` entries of `entryBytes` under `prefix`,
 * written straight on loopback, 32 at a time: setup, not measured.
 */
export async function writeCloudChain(
  lane: CloudLane,
  prefix: string,
  entries = 1,
  entryBytes = 64,
): Promise<void> {
  await writeChain(lane.direct, prefix, CLOUD_OBJECTS, { entries, entryBytes, concurrency: 32 });
}

/** Seconds `work` took. */
export async function timedSeconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/**
 * The best of `CLOUD_PASSES` timed passes of `engine` and of `raw`, alternating, after one
 * untimed pass of each.
 */
export async function bestOfAlternating(
  engine: () => Promise<unknown>,
  raw: () => Promise<unknown>,
): Promise<{ engine: number; raw: number; firstEngine: number; firstRaw: number }> {
  const firstRaw = await timedSeconds(raw);
  const firstEngine = await timedSeconds(engine);
  let best = { engine: Infinity, raw: Infinity };
  for (let pass = 0; pass < CLOUD_PASSES; pass++) {
    best = {
      raw: Math.min(best.raw, await timedSeconds(raw)),
      engine: Math.min(best.engine, await timedSeconds(engine)),
    };
  }
  return { ...best, firstEngine, firstRaw };
}

/** Every key under `folder`, listed through `io`. */
export async function keysUnder(io: ObjectIo, folder: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of io.list(folder))
    for (const object of page.objects) keys.push(object.key);
  return keys;
}

/** `request` of each key, `BASELINE_IN_FLIGHT` at a time. */
export async function rawPerKey(
  keys: readonly string[],
  request: (key: string) => Promise<unknown>,
): Promise<void> {
  await timedPool(keys.length, BASELINE_IN_FLIGHT, async (index) => {
    await request(keys[index]!);
  });
}

/**
 * The raw requests any open of a prefix must make: list `folder`, then one suffix read of each
 * object (64 KiB, the tail both formats' opens read), at the baseline's width. The keys listed.
 */
export async function rawOpen(io: ObjectIo, folder: string): Promise<string[]> {
  const keys = await keysUnder(io, folder);
  await rawPerKey(keys, (key) => io.get(key, { suffix: TAIL_WINDOW_BYTES }));
  return keys;
}

/** The raw requests of a verify: list `folder`, then each object read whole, at the baseline's width. */
export async function rawWholeReads(io: ObjectIo, folder: string): Promise<void> {
  await rawPerKey(await keysUnder(io, folder), (key) => io.get(key));
}
