/**
 * Issue #50's script figures through the cloud lane, each command a new process of the built
 * CLI (`cli-process.ts`) against the bucket behind the added round trip, process start (the
 * median `cairn --version` of the run) taken off the CLI's side:
 * - `wal verify --no-cache` of a 2,000-object GreptimeDB prefix / list + raw whole-object GETs
 *   of the same keys at 64 in flight. Target <= 1.25. Best of alternating passes.
 * - `wal obsolete --take-over` (the region to its last id; its collection follows) then
 *   `wal gc --take-over` of a 2,000-object Cairn prefix, one fresh data directory for the pair
 *   / one raw open (list + one 64 KiB suffix read each, at 64) + as many register writes as
 *   the pair made (each a create of the next version and a head of the one below, as the
 *   register's update is) + DeleteObjects of as many keys as it deleted, on a twin prefix.
 *   Target <= 1.2. One pass each: a pass deletes its prefix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { MAX_DELETE_BATCH } from '../../src/main/engine/objectio/object-io';
import { manifestCell, objectsFolder } from '../../src/main/engine/wal/keys';
import { makeEntryId } from '../../src/main/engine/wal/ids';
import { formatEntryId, formatRegionId } from '../../src/shared/id-notation';
import { judged, percentile, type FigureResult } from '../harness';
import { cliBuilt, cliSeconds } from './cli-process';
import {
  BASELINE_IN_FLIGHT,
  bestOfAlternating,
  CLOUD_OBJECTS,
  keysUnder,
  onCloudLane,
  rawOpen,
  rawWholeReads,
  timedSeconds,
  writeCloudChain,
  type CloudLane,
} from './cloud-lane';
import { writeGreptimeChain } from './greptimedb-open';
import { BENCH_REGION, benchPrefix, rounded } from './wal-bench';

const GT_PREFIX = 'datanodes/7/epochs/3';
const NODE = 740;
const TWIN_NODE = 741;

export async function cliCloud(): Promise<FigureResult[]> {
  if (!cliBuilt()) return [];
  return onCloudLane(async (lane) => {
    const base = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-cloud-'));
    try {
      const start = processStart(base);
      return [await verifyRow(lane, base, start), await obsoleteGcRow(lane, base, start)];
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
}

/** The median of five `cairn --version`: what a command's process costs before its work. */
function processStart(base: string): number {
  const runs = Array.from({ length: 5 }, () => cliSeconds(['--version'], join(base, 'start')));
  return percentile(runs, 50);
}

async function verifyRow(lane: CloudLane, base: string, start: number): Promise<FigureResult> {
  await writeGreptimeChain(lane.direct, GT_PREFIX, CLOUD_OBJECTS);
  const raw = lane.remote();
  const verify = ['wal', 'verify', '--prefix', GT_PREFIX, ...lane.cliFlags, '--no-cache'];
  const timing = await bestOfAlternating(
    async () => cliSeconds(verify, join(base, 'verify'), lane.cliEnv),
    () => rawWholeReads(raw, objectsFolder(GT_PREFIX)),
  );
  const ratio = (timing.engine - start) / timing.raw;
  return {
    figure: `CLI: wal verify of ${CLOUD_OBJECTS.toLocaleString('en-US')} GreptimeDB objects, process start off / list + raw whole-object GETs (x${BASELINE_IN_FLIGHT})`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.25),
    detail: {
      verifySeconds: rounded(timing.engine, 3),
      processStartSeconds: rounded(start, 3),
      rawSeconds: rounded(timing.raw, 3),
      // The raw reads' first pass, on a new client whose S3 thread's code is not yet compiled
      // by V8's optimiser: what a new process's reads cost before the SDK warms.
      firstRawSeconds: rounded(timing.firstRaw, 3),
      rttMs: lane.rttMs,
    },
  };
}

async function obsoleteGcRow(lane: CloudLane, base: string, start: number): Promise<FigureResult> {
  const prefix = benchPrefix(NODE);
  const twin = benchPrefix(TWIN_NODE);
  await writeCloudChain(lane, prefix);
  await writeCloudChain(lane, twin);
  const dataDir = join(base, 'obsolete-gc');
  const last = formatEntryId(makeEntryId(BigInt(CLOUD_OBJECTS - 1), 1n));
  const flags = ['--prefix', prefix, ...lane.cliFlags, '--take-over'];
  const obsolete = ['wal', 'obsolete', '--region', formatRegionId(BENCH_REGION), '--to', last];
  const obsoleteSeconds = cliSeconds([...obsolete, ...flags], dataDir, lane.cliEnv);
  const gcSeconds = cliSeconds(['wal', 'gc', ...flags], dataDir, lane.cliEnv);
  const registerWrites = (await keysUnder(lane.direct, `${manifestCell(prefix)}/`)).length;
  const deleted = CLOUD_OBJECTS - (await keysUnder(lane.direct, objectsFolder(prefix))).length;
  const raw = lane.remote();
  await keysUnder(raw, objectsFolder(twin)); // its sockets warmed, untimed
  const rawSeconds = await timedSeconds(() => rawPair(raw, twin, registerWrites, deleted));
  const ratio = (obsoleteSeconds + gcSeconds - 2 * start) / rawSeconds;
  return {
    figure: `CLI: wal obsolete + wal gc of ${CLOUD_OBJECTS.toLocaleString('en-US')} Cairn objects, process starts off / raw open + register writes + DeleteObjects`,
    backend: lane.backend,
    value: ratio,
    unit: 'x',
    ...judged(ratio, '<=', 1.2),
    detail: {
      obsoleteSeconds: rounded(obsoleteSeconds, 3),
      gcSeconds: rounded(gcSeconds, 3),
      processStartSeconds: rounded(start, 3),
      rawSeconds: rounded(rawSeconds, 3),
      registerWrites,
      deleted,
      rttMs: lane.rttMs,
    },
  };
}

/** The requests the pair cannot do without, on the twin prefix. */
async function rawPair(io: ObjectIo, prefix: string, writes: number, deletes: number) {
  const keys = await rawOpen(io, objectsFolder(prefix));
  const cell = `${manifestCell(prefix)}/`;
  for (let version = 1; version <= writes; version++) {
    await io.putIfAbsent(`${cell}${String(version).padStart(20, '0')}.json`, new Uint8Array(64));
    if (version > 1) await io.head(`${cell}${String(version - 1).padStart(20, '0')}.json`);
  }
  for (let at = 0; at < deletes; at += MAX_DELETE_BATCH)
    await io.deleteMany!(keys.slice(at, Math.min(deletes, at + MAX_DELETE_BATCH)));
}
