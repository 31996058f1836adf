/**
 * A zero-byte object in a Cairn prefix is `CorruptObject (object-size)` on every path a user
 * reaches - recovery with the local read thread running, the API through a real `cairn serve`
 * (`wal.verifyObject`, `wal.inspect`, `wal.decodeObject`) and the CLI (`wal inspect`,
 * `wal verify`) - on the local store and on S3, never the `Backend` 416 of a range read on
 * nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { LocalReadThread } from '../../src/main/engine/objectio/local-read-thread';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { GT_HEADER_MAGIC_BYTES } from '../../src/main/engine/greptimedb/layout';
import { detectFormat, formatOfObject } from '../../src/main/engine/wal-read/format';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { inspectPrefix } from '../../src/main/engine/wal/inspect';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { runCairn } from '../support/cairn-cli';
import {
  callOverSocket,
  openApiSocket,
  startServe,
  type ServeProcess,
} from '../support/cairn-serve';
import { s3Lane } from '../support/s3';
import { seed } from '../wal-api/support';

const PREFIX = walPrefix('wal', 0n, 0);
const EMPTY_KEY = objectKey(PREFIX, 99_999n);
const CORRUPT = { code: 'CorruptObject', key: EMPTY_KEY };

/** A few acknowledged entries on the prefix, then the zero-byte object above its chain. */
async function seedWithEmptyObject(io: ObjectIo): Promise<void> {
  await seed(io, 4, 1);
  await io.putIfAbsent(EMPTY_KEY, new Uint8Array(0));
}

/** The lane's keys as the AWS credential chain reads them (the app never stores a secret). */
const S3_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: process.env.CAIRN_S3_ACCESS_KEY ?? '',
  AWS_SECRET_ACCESS_KEY: process.env.CAIRN_S3_SECRET_KEY ?? '',
};

let serve: ServeProcess;
let socket: WebSocket;
let callId = 0;
async function call(name: string, input: Record<string, unknown>): Promise<unknown> {
  const reply = await callOverSocket(socket, ++callId, name, input);
  expect(reply.error).toBeUndefined();
  return reply.result;
}

/** The API's answers for the empty object on `connectionId`, as the console shows them. */
async function expectTypedThroughServe(connectionId: string): Promise<void> {
  expect(await call('wal.verifyObject', { connectionId, key: EMPTY_KEY })).toMatchObject({
    ok: false,
    check: 'object-size',
    size: 0,
  });
  expect(await call('wal.inspect', { connectionId, prefix: PREFIX })).toMatchObject({
    failure: CORRUPT,
  });
  expect(await call('wal.decodeObject', { connectionId, key: EMPTY_KEY })).toMatchObject({
    failure: { check: 'object-size' },
  });
}

/** `cairn wal inspect` and `wal verify` with the store flags given. */
function expectTypedThroughCli(storeFlags: readonly string[], env: NodeJS.ProcessEnv = {}): void {
  const inspected = runCairn(['wal', 'inspect', '--json', ...storeFlags], env);
  expect(inspected.stderr).not.toMatch(/Backend/);
  expect(inspected.code).toBe(1);
  expect(JSON.parse(inspected.stdout)).toMatchObject({ failure: CORRUPT });
  const human = runCairn(['wal', 'inspect', ...storeFlags], env);
  expect(human.stdout).toMatch(/OPEN WOULD FAIL {2}CorruptObject: .*object-size/);
  const verified = runCairn(['wal', 'verify', '--json', ...storeFlags], env);
  expect(verified.stderr).not.toMatch(/Backend/);
  expect(verified.code).toBe(1);
  expect((JSON.parse(verified.stdout) as { objects: unknown[] }).objects).toContainEqual(
    expect.objectContaining({ key: EMPTY_KEY, ok: false, check: 'object-size' }),
  );
}

beforeAll(async () => {
  serve = await startServe(S3_CREDENTIALS);
  socket = await openApiSocket(serve.port, serve.token);
});

afterAll(async () => {
  socket.close();
  serve.process.kill('SIGTERM');
  await serve.exited;
  await rm(serve.dataDir, { recursive: true, force: true });
});

describe('format detection', () => {
  it('reads no magic from an empty object and passes over it to the next', async () => {
    const io = new MemoryObjectIo();
    const gtPrefix = 'datanodes/1/epochs/2';
    await io.putIfAbsent(objectKey(gtPrefix, 0n), new Uint8Array(0));
    expect(await formatOfObject(io, objectKey(gtPrefix, 0n))).toBe('unknown');
    expect(await detectFormat(io, gtPrefix)).toBeNull();
    await io.putIfAbsent(objectKey(gtPrefix, 1n), Uint8Array.from([...GT_HEADER_MAGIC_BYTES, 0]));
    expect(await detectFormat(io, gtPrefix)).toBe('greptimedb-v1');
  });
});

describe('a zero-byte object on the local store', () => {
  const store = () => join(serve.dataDir, 'cairn-data');

  it('is object-size damage to recovery with the read thread answering', async () => {
    const thread = new LocalReadThread(1);
    const io = new LocalObjectIo(store(), { readThread: thread });
    await seedWithEmptyObject(io);
    await io.readTail(objectKey(PREFIX, 64n), 16, (await io.head(objectKey(PREFIX, 64n))).size);
    await expect.poll(() => thread.running, { timeout: 10_000 }).toBe(true);
    const answered = thread.answered;
    const report = await inspectPrefix(io, { root: 'wal', nodeId: 0n, generation: 0 });
    expect(thread.answered).toBeGreaterThan(answered);
    expect(report.failure).toMatchObject(CORRUPT);
    await thread.stop();
  });

  it('is object-size damage through cairn serve, its read thread started', async () => {
    // A listing of 300 keys stats each one: past the shared thread's start threshold (256).
    const pad = join(store(), 'pad');
    mkdirSync(pad, { recursive: true });
    for (let i = 0; i < 300; i++) writeFileSync(join(pad, String(i).padStart(3, '0')), 'x');
    await call('objects.list', { connectionId: 'embedded', prefix: 'pad/', pageSize: 1000 });
    await expectTypedThroughServe('embedded');
  });

  it('is object-size damage through the CLI', () => {
    expectTypedThroughCli(['--store', store()]);
  });
});

const lane = s3Lane();
describe.skipIf(!lane)('a zero-byte object on S3', () => {
  afterAll(() => lane?.dispose());

  it('is object-size damage through cairn serve and the CLI', async () => {
    const io = await lane!.makeIo('zero-byte');
    await seedWithEmptyObject(io);
    const endpoint = String(lane!.settings.endpoint);
    const added = (await call('connections.add', {
      kind: 's3',
      name: 'radosgw',
      bucket: io.bucket,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      root: '',
    })) as { id: string };
    await expectTypedThroughServe(added.id);
    expectTypedThroughCli(['--bucket', io.bucket, '--s3-endpoint', endpoint, '--path-style'], {
      ...S3_CREDENTIALS,
    });
  });
});
