/**
 * Issue #50's "a second `wal inspect` of a 100,000-object local prefix takes a fraction of the
 * first", measured as a script runs it: each step a new process of the built CLI
 * (out/main/cli.js), wall time from spawn to exit, on a GreptimeDB prefix of
 * `CAIRN_BENCH_CLI_OBJECTS` objects (default 100,000) on a local directory:
 * - cold: `wal inspect --no-cache` (every object read, nothing kept);
 * - first: `wal inspect` with an empty data directory (reads, then writes the index and the
 *   judged report);
 * - reopen: `wal inspect` again (the judged report beside the index, the folder unchanged).
 * The figure is reopen / cold, target <= 0.15. Cold and reopen alternate (A/B), best of
 * `PASSES` each; `cairn --version` (the process start alone) is reported beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { QUIET_FOLDER_MS } from '../../src/main/engine/objectio/local-object-io';
import { judged, type FigureResult } from '../harness';
import { BIG_PREFIX, writeBigPrefixFiles } from './big-prefix-data';
import { cliBuilt, cliSeconds } from './cli-process';
import { rounded } from './wal-bench';

const FORMAT = 'greptimedb-v1';
const PASSES = 3;

function objectsOf(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = Number(env.CAIRN_BENCH_CLI_OBJECTS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : 100_000;
}

export async function cliReopen(): Promise<FigureResult[]> {
  if (!cliBuilt()) return [];
  const objects = objectsOf();
  const base = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-reopen-'));
  try {
    const store = join(base, 'store');
    const dataDir = join(base, 'data');
    writeBigPrefixFiles(store, FORMAT, objects, 'shared');
    // A folder has a stamp once it has been quiet a while (local-object-io's QUIET_FOLDER_MS).
    await sleep(QUIET_FOLDER_MS + 100);
    const inspect = ['wal', 'inspect', '--store', store, '--prefix', BIG_PREFIX[FORMAT], '--json'];
    const start = cliSeconds(['--version'], dataDir);
    const first = cliSeconds(inspect, dataDir);
    let best = { cold: Infinity, reopen: Infinity };
    for (let pass = 0; pass < PASSES; pass++) {
      best = {
        cold: Math.min(best.cold, cliSeconds([...inspect, '--no-cache'], dataDir)),
        reopen: Math.min(best.reopen, cliSeconds(inspect, dataDir)),
      };
    }
    const ratio = best.reopen / best.cold;
    return [
      {
        figure: `CLI: wal inspect of ${objects.toLocaleString('en-US')} local objects, reopen from the index / cold (processes)`,
        backend: 'local',
        value: ratio,
        unit: 'x',
        ...judged(ratio, '<=', 0.15),
        detail: {
          objects,
          coldSeconds: rounded(best.cold, 3),
          firstSeconds: rounded(first, 3),
          reopenSeconds: rounded(best.reopen, 3),
          processStartSeconds: rounded(start, 3),
        },
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
