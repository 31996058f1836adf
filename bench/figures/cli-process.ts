/**
 * The built CLI (out/main/cli.js) run as a script runs it: a new process per command, wall
 * time from spawn to exit. What the CLI figures share.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/main/project-root';

export function cliBuilt(): boolean {
  return existsSync(cliScript());
}

function cliScript(): string {
  return join(projectRoot(), 'out', 'main', 'cli.js');
}

/** Seconds one CLI process took, spawn to exit; it must exit 0. */
export function cliSeconds(
  args: readonly string[],
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [cliScript(), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, ...env, CAIRN_DATA_DIR: dataDir },
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0)
    throw new Error(`cairn ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return seconds;
}
