/** The `cairn` command as a user runs it: exit codes, JSON output, typed errors on stderr. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCairn } from '../support/cairn-cli';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  return runCairn(args, { CAIRN_DATA_DIR: join(dir, 'data') });
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

  it("exits 1 with the typed error's name and fields on stderr, no stack", () => {
    const missing = run('objects', 'get', 'nope/missing', '--store', join(dir, 'store'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^NotFound: object not found: nope\/missing/);
    expect(JSON.parse(missing.stderr.split('\n')[1]!)).toMatchObject({
      error: 'NotFound',
      key: 'nope/missing',
    });
    expect(missing.stderr).not.toContain('    at ');
  });

  it('adds, lists, tests and removes connections in the app data directory', () => {
    const added = run(
      'connections',
      'add-local',
      '--name',
      'Scratch',
      '--path',
      join(dir, 'scratch'),
      '--json',
    );
    expect(added.code).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const listed = JSON.parse(run('connections', 'ls', '--json').stdout) as Array<{ id: string }>;
    expect(listed.map((c) => c.id)).toEqual(['embedded', id]);
    const tested = JSON.parse(run('connections', 'test', id, '--json').stdout) as {
      reachable: boolean;
      createIfAbsent: boolean;
      link: { requests: number; p50Ms: number; p99Ms: number } | null;
    };
    expect(tested).toMatchObject({ reachable: true, createIfAbsent: true });
    expect(tested.link?.requests).toBe(64);
    expect(tested.link!.p50Ms).toBeLessThanOrEqual(tested.link!.p99Ms);
    expect(run('connections', 'rm', id).code).toBe(0);
    expect(run('connections', 'rm', 'embedded').code).toBe(1);
    const invalid = run('connections', 'add-s3', '--name', 'x', '--bucket', 'BAD');
    expect([invalid.code, invalid.stderr]).toEqual([2, expect.stringContaining('bucket')]);
  });
});

const s3Endpoint = process.env.CAIRN_S3_ENDPOINT;

describe.skipIf(!s3Endpoint)('the cairn CLI on S3', () => {
  it('adds and tests an S3 connection and lists its objects', async () => {
    const { createBucketIfMissing, S3ObjectIo } =
      await import('../../src/main/engine/objectio/s3-object-io');
    const bucket = `cairn-cli-${Date.now().toString(36)}`;
    const credentials = {
      accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
      secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
    };
    await createBucketIfMissing({
      bucket,
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials,
    });
    const io = new S3ObjectIo({ bucket, endpoint: s3Endpoint, forcePathStyle: true, credentials });
    await io.putIfAbsent('logs/one.txt', new TextEncoder().encode('one'));
    const env = {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const runS3 = (...args: string[]) =>
      runCairn(args, { ...env, CAIRN_DATA_DIR: join(dir, 'data-s3') });
    const added = runS3(
      'connections',
      'add-s3',
      '--name',
      'Lab',
      '--bucket',
      bucket,
      '--s3-endpoint',
      s3Endpoint!,
      '--path-style',
      '--json',
    );
    expect(added.code).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const tested = runS3('connections', 'test', id, '--json');
    expect(JSON.parse(tested.stdout)).toMatchObject({
      reachable: true,
      writable: true,
      createIfAbsent: true,
    });
    const listed = runS3(
      'objects',
      'ls',
      'logs/',
      '--bucket',
      bucket,
      '--s3-endpoint',
      s3Endpoint!,
      '--path-style',
      '--json',
    );
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { key: string }).key),
    ).toEqual(['logs/one.txt']);
    io.destroy();
  });
});
