/** The `cairn` command as a user runs it: exit codes, JSON output, typed errors on stderr. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cairn = resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [cairn, ...args], { encoding: 'utf8', env: { ...process.env, CAIRN_DATA_DIR: join(dir, 'data') } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the cairn CLI', () => {
  it('prints help and exits 0', () => {
    const help = run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('serve');
    expect(help.stdout).toContain('objects');
  });

  it('exits 2 on bad usage', () => {
    expect(run('no-such-command').code).toBe(2);
    expect(run('serve', '--port', 'abc').code).toBe(2);
  });

  it('exits 1 with the typed error\'s name and fields on stderr, no stack', () => {
    const missing = run('objects', 'get', 'nope/missing', '--dir', join(dir, 'store'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^NotFound: object not found: nope\/missing/);
    expect(JSON.parse(missing.stderr.split('\n')[1]!)).toMatchObject({ error: 'NotFound', key: 'nope/missing' });
    expect(missing.stderr).not.toContain('    at ');
  });

  it('adds, lists, tests and removes connections in the app data directory', () => {
    const added = run('connections', 'add-local', '--name', 'Scratch', '--path', join(dir, 'scratch'), '--json');
    expect(added.code).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const listed = JSON.parse(run('connections', 'ls', '--json').stdout) as Array<{ id: string }>;
    expect(listed.map((c) => c.id)).toEqual(['embedded', id]);
    const tested = JSON.parse(run('connections', 'test', id, '--json').stdout) as { reachable: boolean; createIfAbsent: boolean };
    expect(tested).toMatchObject({ reachable: true, createIfAbsent: true });
    expect(run('connections', 'rm', id).code).toBe(0);
    expect(run('connections', 'rm', 'embedded').code).toBe(1);
    const invalid = run('connections', 'add-s3', '--name', 'x', '--bucket', 'BAD');
    expect([invalid.code, invalid.stderr]).toEqual([2, expect.stringContaining('bucket')]);
  });
});
