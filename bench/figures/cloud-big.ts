/**
 * The big-prefix figures in the cloud lane (quality.md, "Big prefixes": "local and S3 at
 * 50 ms"): a prefix of `CAIRN_BENCH_CLOUD_BIG_OBJECTS` objects (default 10,000) in each format,
 * written straight on loopback, read through the latency proxy on a new link each open, as a
 * new console connection or CLI command reads it:
 * - first view: seconds until a view's read of the prefix never opened returns - target < 1 s;
 * - reopen with the local index / cold open - target <= 0.1.
 * The cold open is reported with its seconds; its raw baseline is `cloud-open`'s.
 */
import { linkedIo } from '../../src/main/engine/objectio/link';
import type { FigureResult } from '../harness';
import { BIG_PREFIX, writeBigPrefix, type BigFormat } from './big-prefix-data';
import { firstViewAndReopen, openSequence, prefixName } from './big-prefix';
import { onCloudLane, type CloudLane } from './cloud-lane';

const FORMATS: readonly BigFormat[] = ['greptimedb-v1', 'cairn-v1'];

function cloudBigObjects(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = Number(env.CAIRN_BENCH_CLOUD_BIG_OBJECTS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : 10_000;
}

async function figuresOf(
  lane: CloudLane,
  format: BigFormat,
  objects: number,
): Promise<FigureResult[]> {
  await writeBigPrefix(lane.direct, format, objects, 'shared');
  const name = prefixName(objects, format);
  const client = lane.remote();
  // One untimed listing opens the client's sockets, as a connection's Test does.
  for await (const page of client.list(BIG_PREFIX[format])) if (page.objects.length > 0) break;
  const opens = await openSequence(() => linkedIo(client), format);
  const rtt = { rttMs: lane.rttMs };
  return firstViewAndReopen(
    {
      firstView: `cloud: big prefix first view (tip, newest objects) of a ${name}`,
      reopen: `cloud: big prefix reopen with the local index / cold open, ${name}`,
    },
    lane.backend,
    objects,
    opens,
    { firstView: rtt, reopen: rtt },
  );
}

export function cloudBig(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => {
    const results: FigureResult[] = [];
    for (const format of FORMATS)
      results.push(...(await figuresOf(lane, format, cloudBigObjects())));
    return results;
  });
}
