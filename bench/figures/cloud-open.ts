/**
 * Cloud lane figure: read-only open of a 2,000-object prefix, each format, through the lane's
 * round trip / the raw requests any open must make through the same link - list the objects,
 * one 64 KiB suffix read each - at 64 in flight. Target <= 1.2 (quality.md).
 */
import { ioControllerFor, linkIo } from '../../src/main/engine/objectio/link';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';
import { objectsFolder } from '../../src/main/engine/wal/keys';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { judged, type FigureResult } from '../harness';
import {
  BASELINE_IN_FLIGHT,
  bestOfAlternating,
  CLOUD_OBJECTS,
  onCloudLane,
  writeCloudChain,
  rawOpen,
  type CloudLane,
} from './cloud-lane';
import { writeGreptimeChain } from './greptimedb-open';
import { benchConfig, benchPrefix, rounded } from './wal-bench';

const NODE = 700;
const GT_PREFIX = 'datanodes/7/epochs/1';

export async function cloudOpen(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => {
    await writeCloudChain(lane, benchPrefix(NODE));
    await writeGreptimeChain(lane.direct, GT_PREFIX, CLOUD_OBJECTS);
    const cairn = await measure(
      lane,
      async (io) => (await openReadOnly(io, benchConfig(NODE))).summary.chain.length,
      objectsFolder(benchPrefix(NODE)),
    );
    const gt = await measure(
      lane,
      async (io) => (await openGtReadOnly(io, GT_PREFIX)).recovery.selection.chain.length,
      objectsFolder(GT_PREFIX),
    );
    return [row(lane, 'Cairn', cairn), row(lane, 'GreptimeDB', gt)];
  });
}

interface Timing {
  readonly engine: number;
  readonly raw: number;
  readonly firstEngine: number;
  readonly firstRaw: number;
  /** The link's limit when the last open ended. */
  readonly limit: number;
}

async function measure(
  lane: CloudLane,
  open: (io: ObjectIo) => Promise<number>,
  folder: string,
): Promise<Timing> {
  const engineClient = lane.remote();
  const rawClient = lane.remote();
  let limit = 0;
  const timing = await bestOfAlternating(
    async () => {
      const link = ioControllerFor(engineClient);
      const chain = await open(linkIo(engineClient, link));
      if (chain !== CLOUD_OBJECTS) throw new Error(`the open found ${chain} objects on its chain`);
      limit = link.stats().limit;
    },
    () => rawOpen(rawClient, folder),
  );
  return { ...timing, limit };
}

function row(lane: CloudLane, format: string, timing: Timing): FigureResult {
  const ratio = timing.engine / timing.raw;
  return {
    figure: `cloud: read-only open of ${CLOUD_OBJECTS.toLocaleString('en-US')} objects, ${format} / list + 64 KiB suffix reads (x${BASELINE_IN_FLIGHT})`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.2),
    detail: {
      openSeconds: rounded(timing.engine, 3),
      rawSeconds: rounded(timing.raw, 3),
      firstOpenSeconds: rounded(timing.firstEngine, 3),
      firstRawSeconds: rounded(timing.firstRaw, 3),
      rttMs: lane.rttMs,
      linkLimitAtEnd: timing.limit,
    },
  };
}
