/**
 * The `cairn` command starts at once because it loads only what the command runs: `--version`
 * and `--help` load no package but commander, and a command on a local store never loads the
 * AWS SDK. Checked by what the process loaded (a preload lists the module cache at exit), not
 * by timing; the time itself is the bench's `cli-start` figure.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupNamed } from '../../src/main/cli/command-groups';
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

  it('never loads the AWS SDK for a local store', () => {
    const inspect = runLoading(['wal', 'ls'], 'wal-ls');
    expect(inspect.code).toBe(0);
    expect(inspect.packages.has('zod')).toBe(true); // the group did load
    expect([...inspect.packages].filter((name) => name.startsWith('@aws-sdk'))).toEqual([]);
  });

  it('finds the group a command line runs: its first word, or the one after help', () => {
    expect(groupNamed(['wal', 'inspect', '--prefix', 'p'])?.name).toBe('wal');
    expect(groupNamed(['help', 'ns'])?.name).toBe('ns');
    expect(groupNamed(['--version'])).toBeNull();
    expect(groupNamed(['no-such-group'])).toBeNull();
  });
});
