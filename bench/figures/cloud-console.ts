/**
 * Cloud lane figures of the console, driven through the WAL service the console calls, on a
 * connection's storage (a link of its own) through the lane's round trip:
 * - the fleet overview of the loopback figure's 1,000 prefixes: seconds to the first 20 rows
 *   (target < 1.5 s);
 * - the Regions view of a 2,000-object prefix never opened before, complete / the raw open
 *   baseline through the same link (list + 64 KiB suffix reads at 64 in flight): target <= 1.3.
 * Each is measured on a new service and a new link (no read model, no measured link); the
 * Regions passes share one client, whose sockets an untimed pass opened, as the baseline's.
 */
import { linkedIo } from '../../src/main/engine/objectio/link';
import { objectsFolder, walPrefix } from '../../src/main/engine/wal/keys';
import { EventBus } from '../../src/main/services/event-bus';
import { WalService } from '../../src/main/services/wal/wal-service';
import { judged, type FigureResult } from '../harness';
import {
  BASELINE_IN_FLIGHT,
  CLOUD_OBJECTS,
  CLOUD_PASSES,
  onCloudLane,
  writeCloudChain,
  rawOpen,
  timedSeconds,
  type CloudLane,
} from './cloud-lane';
import { fleetFill, FIRST_SCREEN_ROWS, writeFleet } from './fleet';
import { rounded } from './wal-bench';

const REGIONS_NODE = 901;

export async function cloudConsole(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => [await fleetRow(lane), await regionsRow(lane)]);
}

async function fleetRow(lane: CloudLane): Promise<FigureResult> {
  await writeFleet(lane.direct);
  const { firstRows, allRows, p99 } = await fleetFill(linkedIo(lane.remote()));
  return {
    figure: `cloud: console fleet overview of 1,000 prefixes, first ${FIRST_SCREEN_ROWS} rows read`,
    backend: lane.backend,
    value: firstRows,
    unit: 's',
    ...judged(firstRows, '<', 1.5),
    detail: {
      allRowsSeconds: rounded(allRows, 2),
      eventLoopDelayP99Ms: rounded(p99, 1),
      rttMs: lane.rttMs,
    },
  };
}

async function regionsRow(lane: CloudLane): Promise<FigureResult> {
  const prefix = walPrefix('wal', BigInt(REGIONS_NODE), 0);
  await writeCloudChain(lane, prefix);
  const raw = lane.remote();
  const rawPrefixOpen = () => rawOpen(raw, objectsFolder(prefix));
  // The connection's client is one for every pass, as a console's is: its sockets are opened
  // by an untimed pass of each side first. Each pass is a new service on a new link: no read
  // model, no measured link.
  const client = lane.remote();
  const regionsView = async (): Promise<number> => {
    const io = linkedIo(client);
    const wal = new WalService(
      { io: async () => ({ io, root: '' }), assertPresent: () => undefined },
      new EventBus(),
    );
    let regions = 0;
    const seconds = await timedSeconds(async () => {
      regions = (await wal.regions('bench', prefix, 0, 1_000)).regions.length;
    });
    await wal.closeAll();
    if (regions !== 1) throw new Error(`the Regions view showed ${regions} regions`);
    return seconds;
  };
  await rawPrefixOpen();
  await regionsView();
  let best = { view: Infinity, raw: Infinity };
  for (let pass = 0; pass < CLOUD_PASSES; pass++) {
    best = {
      view: Math.min(best.view, await regionsView()),
      raw: Math.min(best.raw, await timedSeconds(rawPrefixOpen)),
    };
  }
  const ratio = best.view / best.raw;
  return {
    figure: `cloud: console Regions of a ${CLOUD_OBJECTS.toLocaleString('en-US')}-object prefix never opened / raw open (x${BASELINE_IN_FLIGHT})`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.3),
    detail: {
      viewSeconds: rounded(best.view, 3),
      rawSeconds: rounded(best.raw, 3),
      rttMs: lane.rttMs,
    },
  };
}
