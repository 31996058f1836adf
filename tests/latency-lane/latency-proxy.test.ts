/**
 * The latency lane's proxy: every byte passes both ways intact and in order (jitter included),
 * and no answer comes back sooner than the round trip it adds. On the S3 lane, a GC through
 * the added round trip deletes 1,001 objects below its boundary in two requests.
 */
import { randomBytes } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startLatencyLane } from '../../bench/latency-lane';
import { S3ObjectIo } from '../../src/main/engine/objectio/s3-object-io';
import { deleteAscending, listObjectsBelow } from '../../src/main/engine/wal/gc';
import { objectKey } from '../../src/main/engine/wal/keys';
import { createAll } from '../objectio/object-io-contract';
import { s3Lane } from '../support/s3';
import { GcProbeIo, storedSeqs } from '../wal/gc/gc-support';

/** A TCP server that sends back whatever it is sent. */
async function echoServer(): Promise<{ server: Server; target: string }> {
  const server = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, target: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Sends `bytes` through `endpoint` and collects as many back; the ms to the first byte back. */
async function roundTrip(
  endpoint: string,
  bytes: Buffer,
): Promise<{ back: Buffer; firstMs: number }> {
  const { hostname, port } = new URL(endpoint);
  const socket = connect({ host: hostname, port: Number(port) });
  const started = performance.now();
  let firstMs = -1;
  const chunks: Buffer[] = [];
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      if (firstMs < 0) firstMs = performance.now() - started;
      chunks.push(chunk);
      received += chunk.length;
      if (received >= bytes.length) resolve();
    });
    socket.on('error', reject);
    for (let at = 0; at < bytes.length; at += 64 * 1024)
      socket.write(bytes.subarray(at, at + 64 * 1024));
  });
  socket.destroy();
  return { back: Buffer.concat(chunks), firstMs };
}

describe('latency proxy', () => {
  it('passes every byte both ways in order, never sooner than the round trip it adds', async () => {
    const { server, target } = await echoServer();
    const lane = await startLatencyLane(target, 40, 15);
    try {
      const bytes = randomBytes(3 * 1024 * 1024);
      const { back, firstMs } = await roundTrip(lane.endpoint, bytes);
      expect(back.equals(bytes)).toBe(true);
      // A new connection: the handshake's round trip, then the request's and the answer's halves.
      expect(firstMs).toBeGreaterThanOrEqual(80);
    } finally {
      lane.stop();
      server.close();
    }
  });
});

const s3 = s3Lane();
describe.skipIf(s3 === null)('GC through the latency lane', () => {
  afterAll(() => s3?.dispose());

  it('deletes 1,001 objects below the boundary in two requests', async () => {
    const direct = await s3!.makeIo('gc-lane');
    const prefix = 'wal/nodes/3/generations/0';
    await createAll(
      direct,
      Array.from({ length: 1_001 }, (_, seq) => objectKey(prefix, BigInt(seq))),
      32,
    );
    const bucket = /^s3:\/\/(\S+) at /.exec(direct.endpoint)![1]!;
    const lane = await startLatencyLane(s3!.settings.endpoint!, 20);
    const remote = new S3ObjectIo({ ...s3!.settings, bucket, endpoint: lane.endpoint });
    try {
      const io = new GcProbeIo(remote);
      const outcome = await deleteAscending(io, await listObjectsBelow(io, prefix, null));
      expect(outcome.error).toBeNull();
      expect(outcome.deleted).toHaveLength(1_001);
      expect(io.deleteRequests).toBe(2);
      expect(await storedSeqs(direct, prefix)).toEqual([]);
    } finally {
      remote.destroy();
      lane.stop();
    }
  });
});
