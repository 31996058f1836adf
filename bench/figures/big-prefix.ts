/**
 * Figures of issue #40 (quality.md, "Big prefixes"), for a prefix of 100,000 objects in each
 * format on the local store (S3: `CAIRN_BENCH_BIG_S3_OBJECTS`, default 20,000, as radosgw's
 * memstore holds every object in RAM):
 * - first view: seconds until a view's read of a prefix never opened returns (a provisional
 *   snapshot with the tip and the newest objects, or the whole) - target < 1 s;
 * - cold open / raw: the read model's whole first open / a plain listing then one suffix read
 *   of each object, at the best of 8, 16, 32 and 64 in flight - target <= 1.1;
 * - reopen / cold: the open in a new process (new store client, new read models, the local
 *   index loaded from disk) / the cold open - target <= 0.1;
 * and, reported: the model's weight against the read models' budget, and the peak RSS of the
 * CLI's cold `wal inspect` (local).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { s3Backend } from '../backends';
import { GT_TAIL_WINDOW_BYTES } from '../../src/main/engine/greptimedb/layout';
import { linkedIo } from '../../src/main/engine/objectio/link';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { TAIL_WINDOW_BYTES } from '../../src/main/engine/wal/format';
import { objectsFolder } from '../../src/main/engine/wal/keys';
import { projectRoot } from '../../src/main/project-root';
import { ObjectIndexStore } from '../../src/main/services/object-index/index-store';
import { prefixIndexesIn } from '../../src/main/services/object-index/prefix-indexes';
import type { PrefixSnapshot } from '../../src/main/services/wal/read-model/prefix-model';
import {
  DEFAULT_READ_MODEL_BUDGET_BYTES,
  ReadModels,
} from '../../src/main/services/wal/read-model/read-models';
import { locatePrefix } from '../../src/main/services/wal/wal-locate';
import { judged, timedPool, type FigureResult } from '../harness';
import { BIG_PREFIX, writeBigPrefix, writeBigPrefixFiles, type BigFormat } from './big-prefix-data';
import { emptyStore, rounded } from './wal-bench';

const LOCAL_OBJECTS = 100_000;
const RAW_CONCURRENCIES = [8, 16, 32, 64] as const;
const FORMATS: readonly BigFormat[] = ['greptimedb-v1', 'cairn-v1'];

function s3Objects(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = Number(env.CAIRN_BENCH_BIG_S3_OBJECTS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : 20_000;
}

async function seconds<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

/** A plain listing, then one suffix read of each object, `concurrency` at a time. */
async function rawOpen(io: ObjectIo, format: BigFormat, concurrency: number): Promise<number> {
  const window = format === 'greptimedb-v1' ? GT_TAIL_WINDOW_BYTES : TAIL_WINDOW_BYTES;
  const { seconds: took } = await seconds(async () => {
    const keys: string[] = [];
    for await (const page of io.list(objectsFolder(BIG_PREFIX[format])))
      for (const object of page.objects) keys.push(object.key);
    await timedPool(keys.length, concurrency, async (at) => {
      await io.get(keys[at]!, { suffix: window });
    });
  });
  return took;
}

/** A plain listing of the prefix, every page: what a reopen from the index cannot go below. */
async function listingSeconds(io: ObjectIo, format: BigFormat): Promise<number> {
  const { seconds: took } = await seconds(async () => {
    for await (const page of io.list(objectsFolder(BIG_PREFIX[format]))) void page;
  });
  return took;
}

/** One process's read models, with the local index of `dataDir` (none when null). */
function modelsOf(dataDir: string | null) {
  const store = dataDir === null ? null : new ObjectIndexStore(dataDir);
  const models = new ReadModels(undefined, store === null ? undefined : prefixIndexesIn(store));
  return { models, flush: async () => store?.settled() };
}

async function openWith(
  io: ObjectIo,
  format: BigFormat,
  dataDir: string | null,
  provisional = false,
): Promise<{
  snapshot: PrefixSnapshot;
  seconds: number;
  models: ReadModels;
  flush: () => Promise<unknown>;
}> {
  const host = modelsOf(dataDir);
  const at = await locatePrefix(io, '', 'bench', BIG_PREFIX[format]);
  const { value, seconds: took } = await seconds(() => host.models.read(at, 0, provisional));
  return { snapshot: value, seconds: took, models: host.models, flush: host.flush };
}

function tipOf(snapshot: PrefixSnapshot): bigint | null {
  const report = snapshot.format === 'greptimedb-v1' ? snapshot.report : snapshot.inspected.report;
  return report.tip?.seq ?? null;
}

interface Lane {
  readonly backend: 'local' | 's3';
  readonly objects: number;
  /** A new client of the same store: what a new process would hold. */
  readonly client: () => ObjectIo;
}

/** What one prefix's opens measured: the first view, the cold open, the reopen from the index. */
export interface OpenSequence {
  readonly first: { readonly seconds: number; readonly snapshot: PrefixSnapshot };
  readonly cold: { readonly seconds: number; readonly modelBytes: number };
  readonly reopen: { readonly seconds: number; readonly fromIndex: number };
}

/**
 * The prefix opened as a new process would, each open on a link of its own from `engine()`:
 * a first view (its open then left to end, so its reads share nothing with the next), a cold
 * open, an open that keeps the local index in a scratch data directory, and the reopen with it.
 */
export async function openSequence(
  engine: () => ObjectIo,
  format: BigFormat,
): Promise<OpenSequence> {
  const firstIo = engine();
  const first = await openWith(firstIo, format, null, true);
  await first.models.read(await locatePrefix(firstIo, '', 'bench', BIG_PREFIX[format]), 0);
  const cold = await openWith(engine(), format, null);
  const modelBytes = cold.models.stats().bytes;
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-index-'));
  try {
    const keeping = await openWith(engine(), format, dataDir);
    await keeping.flush();
    const reopen = await openWith(engine(), format, dataDir);
    return {
      first: { seconds: first.seconds, snapshot: first.snapshot },
      cold: { seconds: cold.seconds, modelBytes },
      reopen: { seconds: reopen.seconds, fromIndex: reopen.snapshot.progress?.fromIndex ?? 0 },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `12,345-object GreptimeDB prefix`, for a figure's name. */
export function prefixName(objects: number, format: BigFormat): string {
  return `${objects.toLocaleString('en-US')}-object ${format === 'greptimedb-v1' ? 'GreptimeDB' : 'Cairn'} prefix`;
}

/** The first-view figure (target < 1 s) and the reopen / cold figure (target <= 0.1). */
export function firstViewAndReopen(
  names: { readonly firstView: string; readonly reopen: string },
  backend: string,
  objects: number,
  opens: OpenSequence,
  detail: { readonly firstView?: object; readonly reopen?: object } = {},
): [FigureResult, FigureResult] {
  const { first, cold, reopen } = opens;
  const reopenRatio = reopen.seconds / cold.seconds;
  return [
    {
      figure: names.firstView,
      backend,
      value: first.seconds,
      unit: 's',
      ...judged(first.seconds, '<', 1),
      detail: {
        objects,
        provisional: String(first.snapshot.progress?.done === false),
        tip: String(tipOf(first.snapshot)),
        indexedAtFirstView: first.snapshot.progress?.indexed ?? objects,
        ...detail.firstView,
      },
    },
    {
      figure: names.reopen,
      backend,
      value: reopenRatio,
      unit: 'x',
      ...judged(reopenRatio, '<=', 0.1),
      detail: {
        objects,
        reopenSeconds: rounded(reopen.seconds, 3),
        coldSeconds: rounded(cold.seconds, 3),
        fromIndex: reopen.fromIndex,
        ...detail.reopen,
      },
    },
  ];
}

async function figuresOf(lane: Lane, format: BigFormat): Promise<FigureResult[]> {
  const name = prefixName(lane.objects, format);
  const raws: Record<string, number> = {};
  for (const concurrency of RAW_CONCURRENCIES)
    raws[`rawSecondsAt${concurrency}`] = rounded(
      await rawOpen(lane.client(), format, concurrency),
      3,
    );
  const raw = Math.min(...Object.values(raws));
  // Cairn's opens run on a link of their own each, as the app's connections and the CLI's
  // commands do (the baselines above are the raw client's requests).
  const opens = await openSequence(() => linkedIo(lane.client()), format);
  const listing = await listingSeconds(lane.client(), format);
  const coldRatio = opens.cold.seconds / raw;
  const [firstView, reopen] = firstViewAndReopen(
    {
      firstView: `big prefix: first view (tip, newest objects) of a ${name}`,
      reopen: `big prefix: reopen in a new process with the local index / cold open, ${name}`,
    },
    lane.backend,
    lane.objects,
    opens,
    {
      reopen: {
        listingSeconds: rounded(listing, 3),
        listingOfCold: rounded(listing / opens.cold.seconds, 3),
      },
    },
  );
  return [
    firstView,
    {
      figure: `big prefix: cold open of a ${name} / list + suffix read each (best of ${RAW_CONCURRENCIES.join(', ')} in flight)`,
      backend: lane.backend,
      value: coldRatio,
      unit: 'x',
      ...judged(coldRatio, '<=', 1.1),
      detail: {
        objects: lane.objects,
        coldSeconds: rounded(opens.cold.seconds, 3),
        ...raws,
        modelBytes: opens.cold.modelBytes,
        readModelBudgetBytes: DEFAULT_READ_MODEL_BUDGET_BYTES,
        bytesPerObject: Math.round(opens.cold.modelBytes / lane.objects),
      },
    },
    reopen,
  ];
}

/** Peak RSS (MB) of the built CLI's cold `wal inspect --json` of the prefix, output discarded. */
function cliPeakRss(root: string, format: BigFormat): number | null {
  const cli = join(projectRoot(), 'out', 'main', 'cli.js');
  if (!existsSync(cli)) return null;
  const probe = join(root, '..', 'peak-rss.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => process.stderr.write(`peak-rss ${process.resourceUsage().maxRSS}\\n`));\n",
  );
  const run = spawnSync(
    process.execPath,
    [
      '-r',
      probe,
      cli,
      'wal',
      'inspect',
      '--prefix',
      BIG_PREFIX[format],
      '--dir',
      root,
      '--json',
      '--no-cache',
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CAIRN_DATA_DIR: join(root, '..', 'data') },
    },
  );
  const kib = /peak-rss (\d+)/.exec(run.stderr)?.[1];
  return kib === undefined ? null : Math.round(Number(kib) / 1024);
}

export async function bigPrefix(): Promise<FigureResult[]> {
  const results: FigureResult[] = [];
  const base = mkdtempSync(join(tmpdir(), 'cairn-bench-big-'));
  try {
    for (const format of FORMATS) {
      const root = join(base, format, 'store');
      writeBigPrefixFiles(root, format, LOCAL_OBJECTS, 'shared');
      const lane: Lane = {
        backend: 'local',
        objects: LOCAL_OBJECTS,
        client: () => new LocalObjectIo(root),
      };
      results.push(...(await figuresOf(lane, format)));
      const rss = cliPeakRss(root, format);
      results.push({
        figure: `big prefix: peak RSS of the CLI's cold wal inspect of ${LOCAL_OBJECTS.toLocaleString('en-US')} objects (${format})`,
        backend: 'local',
        value: rss ?? Number.NaN,
        unit: 'MB',
        target: '',
        met: null,
        detail: { objects: LOCAL_OBJECTS },
      });
      rmSync(join(base, format), { recursive: true, force: true });
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const s3 = s3Backend();
  if (s3 === null) return results;
  try {
    for (const format of FORMATS) {
      const io = await s3.fresh();
      const objects = s3Objects();
      try {
        await writeBigPrefix(io, format, objects, 'shared');
        results.push(...(await figuresOf({ backend: 's3', objects, client: () => io }, format)));
      } finally {
        await emptyStore(io);
      }
    }
  } finally {
    s3.dispose();
  }
  return results;
}
