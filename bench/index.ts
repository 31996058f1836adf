/**
 * `npm run bench`: every figure of spec/quality.md's table, each measured against its
 * baseline in the same run, on the local store and on S3 when CAIRN_S3_ENDPOINT is set.
 * `npm run bench -- NAME...` runs only the named figures. It runs bundled (bench/vite.config.mts),
 * as the engine runs in the app, with the app's V8 flags for the engine's host
 * (scripts/bench.mjs, scripts/engine-host-flags.mjs).
 */
import { join } from 'node:path';
import { printTable, writeResults, type FigureResult } from './harness';
import { describeMachine, describeMachineHardware, machineCosts } from './machine';
import { projectRoot } from '../src/main/project-root';
import { batching } from './figures/batching';
import { catalog } from './figures/catalog';
import { consoleListing } from './figures/console-listing';
import { cpu } from './figures/cpu';
import { fence } from './figures/fence';
import { fleet } from './figures/fleet';
import { greptimeDecode } from './figures/greptimedb-decode';
import { greptimeOpen } from './figures/greptimedb-open';
import { latency } from './figures/latency';
import { open } from './figures/open';
import { readModel } from './figures/read-model';
import { replay } from './figures/replay';
import { throughput } from './figures/throughput';
import { socketFlood } from './figures/socket-flood';
import { cloudOpen } from './figures/cloud-open';
import { cloudReads } from './figures/cloud-reads';
import { cloudGc } from './figures/cloud-gc';
import { cloudConsole } from './figures/cloud-console';
import { bigPrefix } from './figures/big-prefix';
import { bigConsole } from './figures/big-console';
import { cloudBig } from './figures/cloud-big';
import { cloudMerged } from './figures/cloud-merged';
import { search } from './figures/search';
import { cliReopen } from './figures/cli-reopen';
import { cliStart } from './figures/cli-start';
import { cliCloud } from './figures/cli-cloud';
import { cliRows } from './figures/cli-rows';

/** In the order of quality.md's Benchmarks table. */
const FIGURES: Record<string, () => Promise<FigureResult[]>> = {
  throughput,
  batching,
  latency,
  fence,
  open,
  greptimedb: greptimeOpen,
  replay,
  'greptimedb-decode': greptimeDecode,
  cpu,
  catalog,
  console: consoleListing,
  flood: socketFlood,
  'read-model': readModel,
  fleet,
  'cloud-open': cloudOpen,
  'cloud-reads': cloudReads,
  'cloud-gc': cloudGc,
  'cloud-console': cloudConsole,
  'cloud-big': cloudBig,
  'cloud-merged': cloudMerged,
  'big-prefix': bigPrefix,
  'big-console': bigConsole,
  search,
  'cli-reopen': cliReopen,
  'cli-cloud': cliCloud,
  'cli-start': cliStart,
  'cli-rows': cliRows,
};

/** Names that run several figures: `npm run bench -- cloud [--rtt 50]`. */
const GROUPS: Record<string, readonly string[]> = {
  cloud: [
    'cloud-open',
    'cloud-reads',
    'cloud-gc',
    'cloud-console',
    'cloud-big',
    'cloud-merged',
    'cli-cloud',
  ],
};

/** The figure names among `args`: not a flag, nor a flag's value (`--rtt 50`). */
function figureNames(args: readonly string[]): string[] {
  return args.filter((arg, at) => !arg.startsWith('-') && args[at - 1] !== '--rtt');
}

async function main(): Promise<void> {
  // The SDK version is pinned (see package.json): its notice about future releases is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const wanted = figureNames(process.argv.slice(2)).flatMap((name) => GROUPS[name] ?? [name]);
  const names = wanted.length > 0 ? wanted : Object.keys(FIGURES);
  const machine = await machineCosts();
  const results: FigureResult[] = [];
  for (const name of names) {
    const figure = FIGURES[name];
    if (!figure)
      throw new Error(`no figure named ${name}; known: ${Object.keys(FIGURES).join(', ')}`);
    process.stderr.write(`bench: ${name}…\n`);
    results.push(...(await figure()));
  }
  printTable(results);
  console.log(`\nV8 flags: ${process.execArgv.join(' ') || 'none'}`);
  console.log(describeMachine(machine));
  const file = writeResults(results, join(projectRoot(), 'bench', 'results'), {
    machine,
    machineLine: `${describeMachineHardware()}; ${describeMachine(machine)}`,
    figures: names,
  });
  console.log(`\nresults: ${file}`);
}

// Exits once the table is written: a bench that never returns looks like a hang. (It did once:
// the tail-read thread stayed referenced when it came online after its reads were done.)
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
