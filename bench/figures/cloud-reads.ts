/**
 * Cloud lane figures over one prefix of 2,000 objects, each holding one segment of the bench
 * region (four 1 KiB entries), through the lane's round trip:
 * - replay of the region after a read-only open (the open not timed) / raw ranged GETs of the
 *   same segments at 64 in flight: bytes/s, so raw time / replay time. Target >= 0.8.
 * - verify of every object / raw whole-object GETs of the same keys (after a listing) at 64 in
 *   flight. Target <= 1.25.
 * Each pass of Cairn's side opens on a new link, as a CLI command does (quality.md).
 */
import { ioControllerFor, linkIo } from '../../src/main/engine/objectio/link';
import { segmentRange } from '../../src/main/engine/wal/format';
import { objectsFolder } from '../../src/main/engine/wal/keys';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { verifyPrefix } from '../../src/main/engine/wal/verify';
import { judged, type FigureResult } from '../harness';
import {
  BASELINE_IN_FLIGHT,
  CLOUD_OBJECTS,
  CLOUD_PASSES,
  onCloudLane,
  writeCloudChain,
  rawPerKey,
  rawWholeReads,
  timedSeconds,
  type CloudLane,
} from './cloud-lane';
import { benchConfig, benchPrefix, providerOf, rounded } from './wal-bench';

const NODE = 710;
const ENTRIES = 4;

export async function cloudReads(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => {
    await writeCloudChain(lane, benchPrefix(NODE), ENTRIES, 1024);
    return [await replayRow(lane), await verifyRow(lane)];
  });
}

async function replayRow(lane: CloudLane): Promise<FigureResult> {
  const engine = lane.remote();
  const raw = lane.remote();
  let best = { replay: Infinity, raw: Infinity, limit: 0, entries: 0 };
  // The first pass of each is not counted (new sockets pay a handshake round trip).
  for (let pass = 0; pass <= CLOUD_PASSES; pass++) {
    const link = ioControllerFor(engine);
    const log = await openReadOnly(linkIo(engine, link), benchConfig(NODE));
    const provider = providerOf(log);
    const segments = log.catalog.objectsForRegion(provider.regionId, 1n);
    let entries = 0;
    const replay = await timedSeconds(async () => {
      for await (const batch of log.readBatches(provider, 0n)) entries += batch.length;
    });
    const rawSeconds = await timedSeconds(() =>
      rawPerKey(
        segments.map((_, at) => String(at)),
        (at) => {
          const segment = segments[Number(at)]!;
          return raw.get(segment.key, segmentRange(segment));
        },
      ),
    );
    if (entries !== CLOUD_OBJECTS * ENTRIES) throw new Error(`replay read ${entries} entries`);
    if (pass === 0) continue;
    best = {
      replay: Math.min(best.replay, replay),
      raw: Math.min(best.raw, rawSeconds),
      limit: link.stats().limit,
      entries,
    };
  }
  const ratio = best.raw / best.replay;
  return {
    figure: `cloud: replay of a region over ${CLOUD_OBJECTS.toLocaleString('en-US')} objects, after open, B/s / raw ranged GETs (x${BASELINE_IN_FLIGHT})`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '>=', 0.8),
    detail: {
      replaySeconds: rounded(best.replay, 3),
      rawSeconds: rounded(best.raw, 3),
      entries: best.entries,
      linkLimitAtEnd: best.limit,
      rttMs: lane.rttMs,
    },
  };
}

async function verifyRow(lane: CloudLane): Promise<FigureResult> {
  const engine = lane.remote();
  const raw = lane.remote();
  let best = { verify: Infinity, raw: Infinity, limit: 0 };
  for (let pass = 0; pass <= CLOUD_PASSES; pass++) {
    const link = ioControllerFor(engine);
    let checked = 0;
    const verify = await timedSeconds(async () => {
      checked = (await verifyPrefix(linkIo(engine, link), benchConfig(NODE))).checked;
    });
    if (checked !== CLOUD_OBJECTS) throw new Error(`verify checked ${checked} objects`);
    const rawSeconds = await timedSeconds(() =>
      rawWholeReads(raw, objectsFolder(benchPrefix(NODE))),
    );
    if (pass === 0) continue;
    best = {
      verify: Math.min(best.verify, verify),
      raw: Math.min(best.raw, rawSeconds),
      limit: link.stats().limit,
    };
  }
  const ratio = best.verify / best.raw;
  return {
    figure: `cloud: verify of ${CLOUD_OBJECTS.toLocaleString('en-US')} objects / list + raw whole-object GETs (x${BASELINE_IN_FLIGHT})`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.25),
    detail: {
      verifySeconds: rounded(best.verify, 3),
      rawSeconds: rounded(best.raw, 3),
      linkLimitAtEnd: best.limit,
      rttMs: lane.rttMs,
    },
  };
}
