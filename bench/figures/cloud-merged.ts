/**
 * Cloud lane figure for GreptimeDB's merged layout (34-byte header): the read-only open of a
 * 2,000-object prefix through the lane's round trip, against two baselines through the same
 * link: the raw requests any open must make (list, one 64 KiB suffix read each) at 64 in
 * flight - target <= 1.2 - and GreptimeDB's own recovery pattern (list, a 34-byte header read
 * and a 64 KiB suffix read per object, 8 objects at a time: `RECOVERY_CONCURRENCY`), whose
 * ratio is reported. Also the preflight of that prefix (open, every region read, every entry
 * decoded) / raw ranged GETs of every segment at 64 in flight - target <= 1.3.
 * `CAIRN_BENCH_CLOUD_OBJECTS` runs it smaller (a proof that it runs).
 */
import { ioControllerFor, linkIo } from '../../src/main/engine/objectio/link';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';
import { GT_TAIL_WINDOW_BYTES } from '../../src/main/engine/greptimedb/layout';
import { objectKey, objectsFolder } from '../../src/main/engine/wal/keys';
import { segmentRange } from '../../src/main/engine/wal/format';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { metricsPayloads } from '../../src/main/services/demo/metrics-entries';
import { preflightPrefix } from '../../src/main/services/wal/preflight/preflight';
import {
  demoWriterInstance,
  encodeMergedObject,
} from '../../src/main/services/demo/greptimedb-merged-demo';
import { judged, timedPool, type FigureResult } from '../harness';
import {
  BASELINE_IN_FLIGHT,
  bestOfAlternating,
  cloudObjects,
  keysUnder,
  onCloudLane,
  rawOpen,
  rawPerKey,
  timedSeconds,
  type CloudLane,
} from './cloud-lane';
import { rounded } from './wal-bench';

const PREFIX = 'wal/datanodes/7/epochs/0';
/** GreptimeDB's recovery reads this many objects at a time (store.rs). */
const GREPTIME_IN_FLIGHT = 8;
const GREPTIME_HEADER_BYTES = 34;
const REGIONS = [0, 1, 2].map((n) => makeRegionId(1025, n));
/** Two metrics `WalEntry`s per region and object: preflight decodes every one. */
const PAYLOADS = REGIONS.map(
  (region) => metricsPayloads(Number(region & 0xffn), 0, 2, 0n).payloads,
);

/** `objects` merged-layout objects of three regions, a restart halfway: setup, not measured. */
async function writeMergedPrefix(io: ObjectIo, objects: number): Promise<void> {
  await timedPool(objects, 32, async (index) => {
    const seq = BigInt(index);
    const writer = demoWriterInstance(index < objects / 2 ? 1 : 2);
    const regions = REGIONS.map((region, at) => [region, PAYLOADS[at] ?? []] as const);
    await io.putIfAbsent(objectKey(PREFIX, seq), encodeMergedObject(seq, writer, regions));
  });
}

/** GreptimeDB's own recovery requests: list, then header + suffix per object, 8 objects at a time. */
async function greptimeRecovery(io: ObjectIo): Promise<void> {
  const keys = await keysUnder(io, objectsFolder(PREFIX));
  await timedPool(keys.length, GREPTIME_IN_FLIGHT, async (index) => {
    const key = keys[index]!;
    await Promise.all([
      io.get(key, { start: 0, end: GREPTIME_HEADER_BYTES - 1 }),
      io.get(key, { suffix: GT_TAIL_WINDOW_BYTES }),
    ]);
  });
}

export async function cloudMerged(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => {
    const objects = cloudObjects();
    await writeMergedPrefix(lane.direct, objects);
    const engineClient = lane.remote();
    const rawClient = lane.remote();
    let limit = 0;
    const open = async (): Promise<void> => {
      const link = ioControllerFor(engineClient);
      const log = await openGtReadOnly(linkIo(engineClient, link), PREFIX);
      if (log.recovery.selection.chain.length !== objects)
        throw new Error(`the open found ${log.recovery.selection.chain.length} objects`);
      limit = link.stats().limit;
    };
    const timing = await bestOfAlternating(open, () => rawOpen(rawClient, objectsFolder(PREFIX)));
    const greptimeClient = lane.remote();
    await timedSeconds(() => greptimeRecovery(greptimeClient)); // its sockets warmed, untimed
    const greptime = await timedSeconds(() => greptimeRecovery(greptimeClient));
    return [...rows(lane, objects, timing, greptime, limit), await preflightRow(lane, objects)];
  });
}

/** Preflight (a new link each pass) / raw ranged GETs of every segment at 64, best of alternating. */
async function preflightRow(lane: CloudLane, objects: number): Promise<FigureResult> {
  const engineClient = lane.remote();
  const rawClient = lane.remote();
  const segments = (await openGtReadOnly(lane.direct, PREFIX)).recovery.selection.chain.flatMap(
    (object) => object.segments.map((segment) => ({ key: object.key, segment })),
  );
  let entries = 0;
  const timing = await bestOfAlternating(
    async () => {
      const report = await preflightPrefix(
        linkIo(engineClient, ioControllerFor(engineClient)),
        PREFIX,
      );
      if (!report.allOpen) throw new Error('the bench prefix should open in every region');
      entries = report.regions.reduce((sum, region) => sum + region.entries, 0);
    },
    () =>
      rawPerKey(
        segments.map((_, at) => String(at)),
        (at) => {
          const { key, segment } = segments[Number(at)]!;
          return rawClient.get(key, segmentRange(segment));
        },
      ),
  );
  const ratio = timing.engine / timing.raw;
  return {
    figure: `cloud: preflight of ${objects.toLocaleString('en-US')} merged-layout objects (open, every region, every entry decoded) / raw ranged GETs of every segment (x${BASELINE_IN_FLIGHT})`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.3),
    detail: {
      objects,
      segments: segments.length,
      entries,
      preflightSeconds: rounded(timing.engine, 3),
      rawSeconds: rounded(timing.raw, 3),
      rttMs: lane.rttMs,
    },
  };
}

function rows(
  lane: CloudLane,
  objects: number,
  timing: { engine: number; raw: number; firstEngine: number; firstRaw: number },
  greptime: number,
  limit: number,
): FigureResult[] {
  const ratio = timing.engine / timing.raw;
  const detail = {
    objects,
    openSeconds: rounded(timing.engine, 3),
    rawSeconds: rounded(timing.raw, 3),
    greptimeRecoverySeconds: rounded(greptime, 3),
    firstOpenSeconds: rounded(timing.firstEngine, 3),
    rttMs: lane.rttMs,
    linkLimitAtEnd: limit,
  };
  const count = objects.toLocaleString('en-US');
  return [
    {
      figure: `cloud: read-only open of ${count} merged-layout objects, GreptimeDB / list + 64 KiB suffix reads (x${BASELINE_IN_FLIGHT})`,
      backend: lane.backend,
      value: ratio,
      unit: 'x',
      ...judged(ratio, '<=', 1.2),
      detail,
    },
    {
      figure: `cloud: read-only open of ${count} merged-layout objects / GreptimeDB's own recovery (header + suffix, x${GREPTIME_IN_FLIGHT})`,
      backend: lane.backend,
      value: timing.engine / greptime,
      unit: 'x',
      target: '',
      met: null,
      detail,
    },
  ];
}
