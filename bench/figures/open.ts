/**
 * Figure: opening a prefix of many objects / what any recovery must do at least - list the
 * objects and read each one's last 64 KiB, at concurrency 8 (target <= 1.0, quality.md; the engine
 * may read at a higher concurrency than the baseline). Two rows: the
 * writer open (`ObjectStoreLogStore.open`: recovery plus the epoch CAS, the takeover seal and
 * the start object) and the read-only open (`openReadOnly`: the recovery alone). Best of two
 * alternating passes on local (one on S3). On S3 also the absolute writer open of 2,000 objects (< 0.9 s, the
 * RFC's figure on MinIO).
 *
 * The prefix is built straight with create-if-absent (a chain of small one-entry objects,
 * 16 at a time): setup, not measured.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { objectsFolder } from '../../src/main/engine/wal/keys';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { TAIL_WINDOW_BYTES } from '../../src/main/engine/wal/format';
import { judged, timedPool, type FigureResult } from '../harness';
import {
  benchConfig,
  benchPrefix,
  onEachBackend,
  rounded,
  stopStore,
  writeChain,
} from './wal-bench';

/** Local: the spec's 10,000. S3: 2,000 - on this radosgw every GET on a kept-alive connection costs ~44 ms. */
const OBJECTS = { local: 10_000, s3: 2_000 } as const;
const ABSOLUTE_OBJECTS = 2_000;
const RECOVERY_CONCURRENCY = 8;
/** Alternating passes per backend (best of them); S3 gets one, a pass there takes ~12 s. */
const PASSES = { local: 3, s3: 1 } as const;
const NODE = 500;

export async function open(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => {
    const objects = OBJECTS[backend];
    await writeChain(io, benchPrefix(NODE), objects, {
      entries: 1,
      entryBytes: 64,
      concurrency: 16,
    });
    const timings = await timeOpens(io, PASSES[backend]);
    const rows = [
      openRow(backend, 'writer open', timings, 'writer', objects),
      openRow(backend, 'read-only open', timings, 'readOnly', objects),
    ];
    if (backend === 's3') rows.push(absoluteRow(backend, timings.writer, objects));
    return rows;
  });
}

/** The baseline: list the objects, then one suffix read of the tail window per object, 8 at a time. */
async function rawRecoveryReads(io: ObjectIo): Promise<number> {
  const started = performance.now();
  const keys: string[] = [];
  for await (const page of io.list(objectsFolder(benchPrefix(NODE))))
    for (const object of page.objects) keys.push(object.key);
  await timedPool(keys.length, RECOVERY_CONCURRENCY, async (index) => {
    await io.get(keys[index]!, { suffix: TAIL_WINDOW_BYTES });
  });
  return (performance.now() - started) / 1000;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

interface OpenTimings {
  readonly raw: number;
  readonly readOnly: number;
  readonly writer: number;
  readonly passes: number;
}

async function timeOpens(io: ObjectIo, passes: number): Promise<OpenTimings> {
  const config = benchConfig(NODE);
  const best = { raw: Infinity, readOnly: Infinity, writer: Infinity };
  for (let pass = 0; pass < passes; pass++) {
    best.raw = Math.min(best.raw, await rawRecoveryReads(io));
    best.readOnly = Math.min(best.readOnly, await timed(() => openReadOnly(io, config)));
    let store: ObjectStoreLogStore | null = null;
    best.writer = Math.min(
      best.writer,
      await timed(
        async () => (store = await ObjectStoreLogStore.open(io, config, { probe: false })),
      ),
    );
    if (store !== null) await stopStore(store);
  }
  return { ...best, passes };
}

function openRow(
  backend: string,
  what: string,
  timings: OpenTimings,
  which: 'writer' | 'readOnly',
  objects: number,
): FigureResult {
  const seconds = timings[which];
  const ratio = seconds / timings.raw;
  return {
    figure: `open: ${what} of ${objects.toLocaleString('en-US')} objects / list + 64 KiB suffix read each (x8)`,
    backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.0),
    detail: {
      objects,
      openSeconds: rounded(seconds, 3),
      rawSeconds: rounded(timings.raw, 3),
      concurrency: RECOVERY_CONCURRENCY,
      bestOfPasses: timings.passes,
    },
  };
}

function absoluteRow(backend: string, seconds: number, objects: number): FigureResult {
  return {
    figure: `open: writer open of ${ABSOLUTE_OBJECTS.toLocaleString('en-US')} objects, absolute (RFC: 0.9 s on MinIO)`,
    backend,
    value: seconds,
    unit: 's',
    ...judged(seconds, '<', 0.9),
    detail: { objects, perObjectMs: rounded((seconds * 1000) / objects) },
  };
}
