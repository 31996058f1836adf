/** Runs the `cairn` command as a user would (node + bin/cairn.mjs), capturing its outcome. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const CAIRN_BIN = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCairn(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const result = spawnSync(process.execPath, [CAIRN_BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
