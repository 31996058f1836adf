/**
 * The S3 thread: what crosses to it and back (a create's body exactly as the caller's view,
 * the caller's buffer left usable; a read's body refused past its limit), and what a thread
 * that dies mid-request means (a lost connection: a create's outcome unknown, a read
 * unavailable; the next request runs on a new thread with the store's clients open again).
 */
import { spawnSync } from 'node:child_process';
import { crc32, crc32c } from '@node-rs/crc32';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { S3Thread } from '../../src/main/engine/objectio/s3-thread';
import { bytesOf, storageFailure } from './object-io-contract';
import { closeScriptedServers, failWith, scriptedS3, succeedWith } from './scripted-s3';

afterEach(closeScriptedServers);

const threads: S3Thread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.stop()));
});
function ownThread(sdkPath?: string): S3Thread {
  const thread = new S3Thread(sdkPath);
  threads.push(thread);
  return thread;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('S3Thread', () => {
  it("sends a create's body as the caller's view of a larger buffer, and leaves that buffer usable", async () => {
    const s3 = await scriptedS3(succeedWith());
    const io = s3.io({ thread: ownThread() });
    const whole = bytesOf('header|payload|trailer');
    const view = whole.subarray(7, 14);
    expect(await io.putIfAbsent('view', view)).toEqual({ etag: 'e1' });
    const exact = bytesOf('a whole buffer');
    await io.putIfAbsent('exact', exact);
    expect(s3.bodies.map((body) => body.toString())).toEqual(['payload', 'a whole buffer']);
    // Neither buffer was transferred away from the caller.
    expect(whole.byteLength).toBe(22);
    expect(Buffer.from(view).toString()).toBe('payload');
    expect(Buffer.from(exact).toString()).toBe('a whole buffer');
  });

  it('sends a large create body through a reused buffer, taken back only after a successful answer', async () => {
    const s3 = await scriptedS3(succeedWith());
    const thread = ownThread();
    const io = s3.io({ thread });
    const whole = new Uint8Array(300 * 1024).map((_, index) => index % 251);
    const first = whole.subarray(7, 7 + 200 * 1024);
    const second = whole.subarray(1000, 1000 + 128 * 1024);

    await io.putIfAbsent('first', first);
    expect(thread.idleBodyBuffers()).toBe(1);
    await io.putIfAbsent('second', second);
    expect(thread.idleBodyBuffers()).toBe(1);
    s3.answerWith(failWith(412, 'PreconditionFailed'));
    await storageFailure(io.putIfAbsent('third', first), 'AlreadyExists', 'third');
    expect(thread.idleBodyBuffers()).toBe(0);

    // Each sent exactly as the caller's view, though the second went in the first's buffer.
    expect(s3.bodies.map((body) => body.length)).toEqual([200 * 1024, 128 * 1024, 200 * 1024]);
    expect(s3.bodies[0]!.equals(first)).toBe(true);
    expect(s3.bodies[1]!.equals(second)).toBe(true);
    expect(s3.bodies[2]!.equals(first)).toBe(true);
    // The caller's buffer was neither moved nor changed.
    expect(whole.byteLength).toBe(300 * 1024);
    expect(whole.every((byte, index) => byte === index % 251)).toBe(true);
  });

  it('hands back a read body with the checksum asked for, and drops one longer than the limit unread', async () => {
    const s3 = await scriptedS3(succeedWith('0123456789'));
    const thread = ownThread();
    const client = thread.open({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 's' },
      requestHandler: {
        connectionTimeout: 1000,
        requestTimeout: 5000,
        throwOnRequestTimeout: true,
      },
    });
    const read = await thread.send(
      client,
      'GetObject',
      { Bucket: 'b', Key: 'k' },
      { maxBodyBytes: 10 },
    );
    expect(Buffer.from(read.body!).toString()).toBe('0123456789');
    expect(read.ETag).toBe('"e1"');
    const refused = await thread.send(
      client,
      'GetObject',
      { Bucket: 'b', Key: 'k' },
      { maxBodyBytes: 9 },
    );
    expect(refused.body).toBeUndefined();
    expect(refused.ContentLength).toBe(10);
    const summed = await thread.send(
      client,
      'GetObject',
      { Bucket: 'b', Key: 'k' },
      { maxBodyBytes: 10, checksum: { algorithm: 'crc32c', from: 3 } },
    );
    const ieee = await thread.send(
      client,
      'GetObject',
      { Bucket: 'b', Key: 'k' },
      { maxBodyBytes: 10, checksum: { algorithm: 'crc32', from: 0 } },
    );
    // Taken on the thread with the read: none is asked of a plain read, none of a refused body.
    expect([summed.checksum, ieee.checksum, read.checksum, refused.checksum]).toEqual([
      crc32c(bytesOf('3456789')),
      crc32(bytesOf('0123456789')),
      undefined,
      undefined,
    ]);
    thread.close(client);
  });

  it('fails requests in flight when the thread stops - a create OutcomeUnknown, a read Unavailable - and runs the next on a new thread', async () => {
    const s3 = await scriptedS3(() => undefined); // holds every request open
    const thread = ownThread();
    const io = s3.io({ thread });
    const failures = Promise.all([
      storageFailure(io.putIfAbsent('k', bytesOf('x')), 'OutcomeUnknown', 'k'),
      storageFailure(io.head('k'), 'Unavailable', 'k'),
    ]);
    await until(() => s3.requests.length === 2);
    await thread.stop();
    await failures;

    s3.answerWith(succeedWith());
    expect(await io.putIfAbsent('k2', bytesOf('y'))).toEqual({ etag: 'e1' });
    expect(s3.bodies.at(-1)?.toString()).toBe('y');
    io.destroy();
  });

  it('fails requests as a terminal error naming why when the SDK cannot load, and fails fast after that', async () => {
    const s3 = await scriptedS3(succeedWith());
    const io = s3.io({ thread: ownThread('/nowhere/client-s3.js') });
    for (const attempt of [() => io.putIfAbsent('k', bytesOf('x')), () => io.head('k')]) {
      const failure = await storageFailure(attempt(), 'Backend', 'k');
      expect(failure.message).toMatch(
        /S3ClientUnavailable: the S3 client could not start \(.*nowhere/,
      );
    }
    expect(s3.requests).toEqual([]);
  });

  it('keeps the SDK out of the process that hosts the engine: requests run, the SDK loads only on the thread', () => {
    const root = resolve(__dirname, '..', '..');
    const child = spawnSync(
      process.execPath,
      [resolve(root, 'bin', 'run-ts.mjs'), resolve(__dirname, 's3-main-process.ts')],
      { encoding: 'utf8' },
    );
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ code: 'Unavailable', sdkLoaded: false });
  });
});
