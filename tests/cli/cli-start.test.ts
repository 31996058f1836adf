/**
 * The `cairn` command starts at once because it loads only what the command runs: `--version`
 * and `--help` load no package but commander, a command on a local store never loads the AWS
 * SDK, and a `wal` subcommand loads only its own file (not the decoders of replay or search). Checked by what the process loaded (a preload lists the module cache at exit), not
 * by timing; the time itself is the bench's `cli-start` figure.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { groupNamed, groupWord } from '../../src/main/cli/command-groups';
import { WAL_COMMAND_FILES, walFilesFor } from '../../src/main/cli/commands/wal';
import { runCairn } from '../support/cairn-cli';

const scratch = mkdtempSync(join(tmpdir(), 'cairn-cli-start-'));
const preload = join(scratch, 'loaded.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => require('node:fs').writeFileSync(process.env.CAIRN_TEST_LOADED, Object.keys(require.cache).join('\\n')));\n",
);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** commander, and tsx with its own packages when the source runs (the bundle is not current). */
const ALLOWED_AT_START = new Set([
  'commander',
  'tsx',
  'esbuild',
  'get-tsconfig',
  'resolve-pkg-maps',
]);

/** Runs cairn; returns its outcome and the packages (node_modules names) it loaded. */
function runLoading(args: readonly string[], name: string) {
  const listed = join(scratch, `${name}.txt`);
  const run = runCairn(args, {
    CAIRN_DATA_DIR: join(scratch, 'data'),
    CAIRN_TEST_LOADED: listed,
    NODE_OPTIONS: `--require ${preload}`,
  });
  const packages = new Set(
    readFileSync(listed, 'utf8')
      .split('\n')
      .map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1])
      .filter((name): name is string => name !== undefined),
  );
  return { ...run, packages };
}

describe('cairn starts at once', () => {
  it('answers --version and --help loading no package but commander', () => {
    for (const flag of ['--version', '--help']) {
      const run = runLoading([flag], flag.slice(2));
      expect(run.code).toBe(0);
      const others = [...run.packages].filter((name) => !ALLOWED_AT_START.has(name));
      expect(others, flag).toEqual([]);
    }
  });

  it('lists every group in --help without loading any', () => {
    const help = runLoading(['--help'], 'help-groups');
    for (const group of [
      'serve',
      'demo',
      'connections',
      'objects',
      'segments',
      'ns',
      'wal',
      'cache',
    ])
      expect(help.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
  });

  it('never loads the AWS SDK for a local store, nor what other commands use', () => {
    const ls = runLoading(['wal', 'ls'], 'wal-ls');
    expect(ls.code).toBe(0);
    expect(ls.stdout).toBe('no WAL prefix under the bucket root\n'); // the group did run
    expect([...ls.packages].filter((name) => name.startsWith('@aws-sdk'))).toEqual([]);
    // Replay's and search's Arrow decoder, and the process log until a line is written.
    expect(ls.packages.has('apache-arrow')).toBe(false);
    expect(ls.packages.has('pino')).toBe(false);
  });

  it("loads only the file of the wal subcommand named, and every file's commands are its own", async () => {
    const [ls] = walFilesFor(['wal', 'ls', '--json']);
    expect(walFilesFor(['wal', 'ls', '--json'])).toHaveLength(1);
    expect(ls?.commands).toContain('ls');
    // No subcommand, help, or a word that names none: all of them, for the help and commander.
    for (const args of [['wal'], ['wal', '--help'], ['wal', 'help', 'ls'], ['wal', 'lss']])
      expect(walFilesFor(args)).toBe(WAL_COMMAND_FILES);
    for (const file of WAL_COMMAND_FILES) {
      const wal = new Command('wal');
      (await file.load())(wal);
      expect(wal.commands.map((command) => command.name()).sort()).toEqual(
        [...file.commands].sort(),
      );
    }
  });

  it('finds the group a command line runs: its first word, or the one after help', () => {
    expect(groupNamed(['wal', 'inspect', '--prefix', 'p'])?.name).toBe('wal');
    expect(groupNamed(['help', 'ns'])?.name).toBe('ns');
    expect(groupNamed(['--version'])).toBeNull();
    expect(groupNamed(['no-such-group'])).toBeNull();
    expect(groupWord(['help', 'wal'])?.from).toEqual(['wal']);
    expect(groupWord(['wal', 'ls', '--json'])?.from).toEqual(['wal', 'ls', '--json']);
  });
});
