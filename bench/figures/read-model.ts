/**
 * Figure: refreshing a prefix's read model / opening it (issue #15): a console view's model of
 * a 2,000-object prefix is opened once (list, one index read per object, recovery), then each
 * refresh of the unchanged prefix lists after the highest known key, checks the lowest key and
 * re-reads Cairn's register - no object read. Median of 5 refreshes over the first open, both
 * formats, target <= 0.05.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { PrefixModel } from '../../src/main/services/wal/read-model/prefix-model';
import { locatePrefix } from '../../src/main/services/wal/wal-locate';
import { judged, percentile, type FigureResult } from '../harness';
import { writeGreptimeChain } from './greptimedb-open';
import { onEachBackend, rounded, writeChain } from './wal-bench';

const OBJECTS = 2_000;
const REFRESHES = 5;
const CAIRN = walPrefix('wal', 1n, 0);
const GREPTIME = 'datanodes/3/epochs/1';

async function seconds(step: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await step();
  return (performance.now() - started) / 1000;
}

async function refreshRow(
  io: ObjectIo,
  backend: string,
  prefix: string,
  format: string,
): Promise<FigureResult> {
  const model = new PrefixModel(await locatePrefix(io, '', 'bench', prefix));
  const open = await seconds(() => model.read(0));
  const refreshes: number[] = [];
  for (let at = 0; at < REFRESHES; at++) refreshes.push(await seconds(() => model.read(0)));
  const refresh = percentile(refreshes, 50);
  const snapshot = await model.read(0);
  const ratio = refresh / open;
  return {
    figure: `read model: refresh of an unchanged ${OBJECTS.toLocaleString('en-US')}-object ${format} prefix / first open`,
    backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 0.05),
    detail: {
      objects: OBJECTS,
      openSeconds: rounded(open, 3),
      refreshMs: rounded(refresh * 1000, 1),
      wholeListings: snapshot.wholeListings,
    },
  };
}

export async function readModel(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => {
    await writeChain(io, CAIRN, OBJECTS, { entries: 1, entryBytes: 64, concurrency: 16 });
    await writeGreptimeChain(io, GREPTIME, OBJECTS);
    return [
      await refreshRow(io, backend, CAIRN, 'Cairn'),
      await refreshRow(io, backend, GREPTIME, 'GreptimeDB'),
    ];
  });
}
