/**
 * `cairn ns ...` as a user runs it, on a temp local directory and (when CAIRN_S3_ENDPOINT is
 * set) on radosgw: outputs, exit codes, typed errors on stderr, and the fencing of a node
 * whose shard another node took.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOfName } from '../../src/main/engine/namespaces';
import { runCairn } from '../support/cairn-cli';

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runWith(env: Record<string, string>, args: readonly string[]): Ran {
  return runCairn(['ns', ...args], env);
}

interface ShardRow {
  shard: number;
  owner: { nodeId: number; ownerEpoch: number } | null;
  records: number;
}

/** The one scenario both lanes run: every command, in order, against one store. */
function exerciseRegistry(ns: (...args: string[]) => Ran): void {
  const first = ns('register', 'orders');
  expect([first.code, first.stdout]).toEqual([0, 'created\n']);
  expect(ns('register', 'orders', '--origin', 'explicit').stdout).toBe('touched\n');
  expect(JSON.parse(ns('register', 'orders', '--json').stdout)).toEqual({
    name: 'orders',
    outcome: 'touched',
  });

  const put = ns(
    'put',
    'team/billing',
    '--config',
    '{"retention":{"days":7},"tags":["a"]}',
    '--json',
  );
  expect([put.code, JSON.parse(put.stdout)]).toEqual([
    0,
    { name: 'team/billing', outcome: 'created' },
  ]);
  expect(JSON.parse(ns('get', 'team/billing', '--json').stdout)).toMatchObject({
    name: 'team/billing',
    origin: 'explicit',
    state: 'active',
    config: { retention: { days: 7 }, tags: ['a'] },
    placement: null,
  });

  const placed = ns(
    'placement',
    'orders',
    '--placement-node',
    'n1',
    '--placement-region',
    'eu',
    '--pinned',
    '--json',
  );
  expect([placed.code, JSON.parse(placed.stdout)]).toEqual([
    0,
    expect.objectContaining({
      origin: 'minted',
      placement: { node: 'n1', region: 'eu', pinned: true },
    }),
  ]);
  const deprecated = ns('deprecate', 'team/billing', '--json');
  expect([deprecated.code, JSON.parse(deprecated.stdout)]).toEqual([
    0,
    expect.objectContaining({ state: 'deprecated' }),
  ]);

  const listed = JSON.parse(ns('ls', '--json').stdout) as Array<{ name: string }>;
  expect(listed.map((record) => record.name)).toEqual(['orders', 'team/billing']);

  // Another node takes the shard holding "orders": node 0 (the default) is fenced from it.
  const shards = JSON.parse(ns('shards', '--json').stdout) as ShardRow[];
  expect(shards).toHaveLength(16);
  const shard = shardOfName('orders', shards.length);
  expect(shards[shard]).toMatchObject({ owner: { nodeId: 0, ownerEpoch: 1 } });
  const before = JSON.parse(ns('get', 'orders', '--json').stdout) as unknown;
  expect(JSON.parse(ns('take-ownership', String(shard), '--node', '2', '--json').stdout)).toEqual({
    shard,
    nodeId: 2,
    ownerEpoch: 2,
  });
  const fenced = ns('deprecate', 'orders');
  expect(fenced.code).toBe(1);
  const [headline, fields, explanation] = fenced.stderr.split('\n');
  expect(headline).toMatch(/^NotOwner: namespace "orders" \(shard \d+\) is owned by node 2/);
  expect(JSON.parse(fields!)).toEqual({
    error: 'NotOwner',
    namespace: 'orders',
    shard,
    nodeId: 0,
    ownerNodeId: 2,
    ownerEpoch: 2,
    exitCode: 1,
    cause: 'unhealthy',
  });
  expect(explanation).toContain(
    `shard ${String(shard).padStart(2, '0')} is owned by node 2 (epoch 2); take ownership to write here`,
  );
  expect(fenced.stderr).not.toContain('    at ');
  expect(JSON.parse(ns('get', 'orders', '--json').stdout)).toEqual(before);

  // Node 2 now writes there; node 0 takes it back and node 2 is the fenced one.
  expect(ns('placement', 'orders', '--placement-tier', 'warm', '--node', '2').code).toBe(0);
  expect(JSON.parse(ns('take-ownership', String(shard), '--json').stdout)).toEqual({
    shard,
    nodeId: 0,
    ownerEpoch: 3,
  });
  expect(ns('deprecate', 'orders', '--node', '2').code).toBe(1);
  expect(JSON.parse(ns('deprecate', 'orders', '--json').stdout)).toMatchObject({
    state: 'deprecated',
    placement: { tier: 'warm' },
  });
}

describe('cairn ns on a local directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-ns-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const ns = (...args: string[]) =>
    runWith({ CAIRN_DATA_DIR: join(dir, 'data') }, [...args, '--store', join(dir, 'store')]);

  it('registers, puts, places, deprecates, and is fenced after another node takes the shard', () => {
    exerciseRegistry(ns);
  });

  it('prints people-readable tables by default', () => {
    expect(ns('register', 'plain').code).toBe(0);
    expect(ns('ls').stdout.split('\n')[0]).toMatch(
      /^NAME\s+ORIGIN\s+STATE\s+CREATED\s+LAST SEEN\s+PLACEMENT$/,
    );
    expect(ns('shards').stdout.split('\n')[0]).toMatch(
      /^SHARD\s+OWNER\s+EPOCH\s+VERSION\s+RECORDS$/,
    );
    expect(ns('get', 'plain').stdout).toMatch(/^name\s+plain$/m);
  });

  it.each<{ label: string; args: string[]; code: number; stderr: RegExp }>([
    {
      label: 'a name with a leading slash',
      args: ['register', '/team'],
      code: 1,
      stderr:
        /^InvalidName: .*must not start with "\/"\n\{"error":"InvalidName","namespace":"\/team","shard":null,"rule":"leading-slash","exitCode":1,"cause":"unhealthy"\}/,
    },
    {
      label: 'a name with a space',
      args: ['register', 'a b'],
      code: 1,
      stderr: /"rule":"charset"/,
    },
    {
      label: 'a config that is not JSON',
      args: ['put', 'x', '--config', '{nope'],
      code: 1,
      stderr: /^InvalidConfig: .*"reason":"not-json"/s,
    },
    {
      label: 'a config that is an array',
      args: ['put', 'x', '--config', '[1]'],
      code: 1,
      stderr: /"reason":"not-an-object"/,
    },
    {
      label: 'an absent namespace to place',
      args: ['placement', 'ghost', '--placement-region', 'eu'],
      code: 1,
      stderr: /^NamespaceNotFound: no namespace is named "ghost"/,
    },
    {
      label: 'an absent namespace to deprecate',
      args: ['deprecate', 'ghost'],
      code: 1,
      stderr: /^NamespaceNotFound/,
    },
    {
      label: 'a shard beyond the count',
      args: ['take-ownership', '99'],
      code: 1,
      stderr: /^InvalidShard: invalid shard 99/,
    },
    { label: 'put without --config', args: ['put', 'x'], code: 2, stderr: /--config/ },
    {
      label: 'an unknown origin',
      args: ['register', 'x', '--origin', 'forged'],
      code: 2,
      stderr: /--origin must be minted or explicit/,
    },
    {
      label: 'a placement with no field',
      args: ['placement', 'x'],
      code: 2,
      stderr: /give at least one of/,
    },
    {
      label: '--clear with a field',
      args: ['placement', 'x', '--clear', '--pinned'],
      code: 2,
      stderr: /--clear cannot be combined/,
    },
    {
      label: 'a shard that is not a number',
      args: ['take-ownership', 'three'],
      code: 2,
      stderr: /shard must be a non-negative integer/,
    },
  ])('refuses $label (exit $code)', ({ args, code, stderr }) => {
    const ran = ns(...args);
    expect([ran.code, ran.stdout]).toEqual([code, '']);
    expect(ran.stderr).toMatch(stderr);
    expect(ran.stderr).not.toContain('    at ');
  });

  it('gets an absent name as null, exit 0', () => {
    expect(ns('get', 'ghost', '--json')).toEqual({ code: 0, stdout: 'null\n', stderr: '' });
  });
});

const s3Endpoint = process.env.CAIRN_S3_ENDPOINT;

describe.skipIf(!s3Endpoint)('cairn ns on S3 (radosgw)', () => {
  it('runs the same scenario against a fresh bucket', async () => {
    const { createBucketIfMissing } = await import('../../src/main/engine/objectio/s3-object-io');
    const { freshBucketName } = await import('../support/s3');
    const bucket = freshBucketName('ns-cli');
    const credentials = {
      accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
      secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
    };
    await createBucketIfMissing({
      bucket,
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials,
      region: 'us-east-1',
    });
    const env = {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const ns = (...args: string[]) =>
      runWith(env, [
        ...args,
        '--bucket',
        bucket,
        '--s3-endpoint',
        s3Endpoint!,
        '--path-style',
        '--root',
        'cli-lane',
      ]);
    exerciseRegistry(ns);
  });
});
