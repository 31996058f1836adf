/**
 * The big-prefix figures in the cloud lane (quality.md, "Big prefixes": "local and S3 at
 * 50 ms"): a prefix of `CAIRN_BENCH_CLOUD_BIG_OBJECTS` objects (default 10,000) in each format,
 * written straight on loopback, read through the latency proxy on a new link each open, as a
 * new console connection or CLI command reads it:
 * - first view: seconds until a view's read of the prefix never opened returns - target < 1 s;
 * - reopen with the local index / cold open - target <= 0.1 (a reopen costs a listing).
 * The cold open is reported with its seconds; its raw baseline is `cloud-open`'s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkedIo } from '../../src/main/engine/objectio/link';
import { locatePrefix } from '../../src/main/services/wal/wal-locate';
import { judged, type FigureResult } from '../harness';
import { BIG_PREFIX, writeBigPrefix, type BigFormat } from './big-prefix-data';
import { openWith, tipOf } from './big-prefix';
import { onCloudLane, type CloudLane } from './cloud-lane';
import { rounded } from './wal-bench';

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
  const name = `${objects.toLocaleString('en-US')}-object ${format === 'greptimedb-v1' ? 'GreptimeDB' : 'Cairn'} prefix`;
  const client = lane.remote();
  // One untimed listing opens the client's sockets, as a connection's Test does.
  for await (const page of client.list(BIG_PREFIX[format])) if (page.objects.length > 0) break;
  const firstIo = linkedIo(client);
  const first = await openWith(firstIo, format, null, true);
  // Let that open end before the next: its reads would share the link with the figure.
  await first.models.read(await locatePrefix(firstIo, '', 'bench', BIG_PREFIX[format]), 0);
  const cold = await openWith(linkedIo(client), format, null);
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-cloud-index-'));
  try {
    const keeping = await openWith(linkedIo(client), format, dataDir);
    await keeping.flush();
    const reopen = await openWith(linkedIo(client), format, dataDir);
    const reopenRatio = reopen.seconds / cold.seconds;
    return [
      {
        figure: `cloud: big prefix first view (tip, newest objects) of a ${name}`,
        backend: lane.backend,
        value: first.seconds,
        unit: 's',
        ...judged(first.seconds, '<', 1),
        detail: {
          objects,
          provisional: String(first.snapshot.progress?.done === false),
          tip: String(tipOf(first.snapshot)),
          indexedAtFirstView: first.snapshot.progress?.indexed ?? objects,
          rttMs: lane.rttMs,
        },
      },
      {
        figure: `cloud: big prefix reopen with the local index / cold open, ${name}`,
        backend: lane.backend,
        value: reopenRatio,
        unit: 'x',
        ...judged(reopenRatio, '<=', 0.1),
        detail: {
          objects,
          reopenSeconds: rounded(reopen.seconds, 3),
          coldSeconds: rounded(cold.seconds, 3),
          fromIndex: reopen.snapshot.progress?.fromIndex ?? 0,
          rttMs: lane.rttMs,
        },
      },
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function cloudBig(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => {
    const results: FigureResult[] = [];
    for (const format of FORMATS)
      results.push(...(await figuresOf(lane, format, cloudBigObjects())));
    return results;
  });
}
