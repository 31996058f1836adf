/**
 * Runs the `cairn` command as a user would (node + bin/cairn.mjs), capturing its outcome. A
 * run given no data directory gets one of its own (a temp folder per test file): commands that
 * keep files there (the local object index of `wal inspect`) never touch the user's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CAIRN_BIN = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let ownDataDir: string | undefined;

export function runCairn(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliRun {
  ownDataDir ??= mkdtempSync(join(tmpdir(), 'cairn-cli-data-'));
  const result = spawnSync(process.execPath, [CAIRN_BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CAIRN_DATA_DIR: ownDataDir, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
