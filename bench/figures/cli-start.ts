/**
 * Figure: how soon the `cairn` command answers - each command run as a user runs it
 * (`node bin/cairn.mjs ...`, the bundle current), in a child process, on the demo data of a
 * fresh data directory (written first by `cairn demo`). Two measures per command, the median of
 * five runs: the process's whole CPU (user + system, all threads, read by a preload at exit)
 * and the wall time from spawn to the first byte on stdout. The baseline is bare Node in the
 * same run (`node -e` printing one byte): what no change to Cairn can take away.
 * Targets (quality.md): `--version` and `--help` under 0.15 s CPU; every command on a local
 * store under 0.3 s to its first line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/main/project-root';
import { judged, type FigureResult } from '../harness';
import { rounded } from './wal-bench';

const RUNS = 5;
const CPU_TARGET_S = 0.15;
const FIRST_LINE_TARGET_S = 0.3;
const CPU_MARK = 'cairn-bench-cpu-us ';

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  /** Which target judges it: the CPU one (`--version`, `--help`) or the first line's. */
  readonly judge: 'cpu' | 'first-line';
  /** Its exit code on the demo data (fleet's is 1: the demo holds unhealthy prefixes). */
  readonly exit?: number;
}

const CASES: readonly Case[] = [
  { name: '--version', args: ['--version'], judge: 'cpu' },
  { name: '--help', args: ['--help'], judge: 'cpu' },
  { name: 'wal ls', args: ['wal', 'ls'], judge: 'first-line' },
  {
    name: 'wal inspect (Cairn)',
    args: ['wal', 'inspect', '--prefix', 'wal/nodes/0/generations/0'],
    judge: 'first-line',
  },
  { name: 'wal fleet', args: ['wal', 'fleet'], judge: 'first-line', exit: 1 },
  {
    name: 'wal replay (Cairn)',
    args: ['wal', 'replay', '--prefix', 'wal/nodes/0/generations/0', '--region', '1:2'],
    judge: 'first-line',
  },
  { name: 'ns ls', args: ['ns', 'ls'], judge: 'first-line' },
  { name: 'segments ls', args: ['segments', 'ls'], judge: 'first-line' },
  { name: 'objects ls', args: ['objects', 'ls', 'wal/'], judge: 'first-line' },
];

interface Sample {
  readonly cpuS: number;
  readonly firstLineS: number;
}

/** One run: spawn to first stdout byte, and the CPU the preload reports at exit. */
function runOnce(argv: readonly string[], env: NodeJS.ProcessEnv, exit: number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstLineS = Number.NaN;
    let stderr = '';
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => {
      if (Number.isNaN(firstLineS)) firstLineS = (performance.now() - started) / 1000;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const mark = stderr.split('\n').find((line) => line.startsWith(CPU_MARK));
      if (mark === undefined || code !== exit)
        return reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.trim()}`));
      resolve({ cpuS: Number(mark.slice(CPU_MARK.length)) / 1e6, firstLineS });
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(argv: readonly string[], env: NodeJS.ProcessEnv, exit = 0): Promise<Sample> {
  const samples: Sample[] = [];
  for (let run = 0; run < RUNS; run++) samples.push(await runOnce(argv, env, exit));
  return {
    cpuS: median(samples.map((sample) => sample.cpuS)),
    firstLineS: median(samples.map((sample) => sample.firstLineS)),
  };
}

async function caseRow(
  each: Case,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  bare: Sample,
): Promise<FigureResult> {
  const sample = await measure(argv, env, each.exit);
  const cpu = each.judge === 'cpu';
  const value = cpu ? sample.cpuS : sample.firstLineS;
  return {
    figure: `cli ${each.name} ${cpu ? 'CPU' : 'first line'}`,
    backend: 'local',
    value: rounded(value, 3),
    unit: 's',
    ...judged(value, '<', cpu ? CPU_TARGET_S : FIRST_LINE_TARGET_S),
    detail: {
      cpuS: rounded(sample.cpuS, 3),
      firstLineS: rounded(sample.firstLineS, 3),
      bareNodeCpuS: rounded(bare.cpuS, 3),
      bareNodeFirstLineS: rounded(bare.firstLineS, 3),
      runs: RUNS,
    },
  };
}

export async function cliStart(): Promise<FigureResult[]> {
  const root = projectRoot();
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-'));
  try {
    const preload = join(scratch, 'cpu-at-exit.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, '\\n${CPU_MARK}' + (u.user + u.system) + '\\n'); });\n`,
    );
    const dataDir = join(scratch, 'data');
    const env = { ...process.env, CAIRN_DATA_DIR: dataDir, NODE_OPTIONS: `--require ${preload}` };
    const cairn = join(root, 'bin', 'cairn.mjs');
    const demo = spawnSync(process.execPath, [cairn, 'demo'], { env, encoding: 'utf8' });
    if (demo.status !== 0) throw new Error(`cairn demo failed: ${demo.stderr}`);
    const bare = await measure(['-e', "process.stdout.write('x')"], env);
    const rows: FigureResult[] = [];
    for (const each of CASES) rows.push(await caseRow(each, [cairn, ...each.args], env, bare));
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
