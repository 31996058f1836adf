/**
 * Issue #38's reproductions of clients that do not read (browser mode, security review round
 * 3), each a test of its own:
 * - an unpaced replay was read faster than its own console read it: the reading socket was
 *   closed with 1013 and the job cancelled, and its chunks went to every socket, closing a
 *   bystander too. Here the reader stops reading mid-replay; the job waits for it and it gets
 *   every entry; a bystander gets none of them.
 * - a job the server cancels says why; another session cannot see it.
 * - idle sockets that never read were kept, each holding what was sent to it: here they are
 *   terminated by the heartbeat, and the server's queued bytes go back to nothing.
 * - nothing capped the number of sockets or the bytes queued for all of them together.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { ApiEvent } from '../../src/shared/contract';
import type { ReplayEntryView, ReplayProgress } from '../../src/shared/contract/wal';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { runLoad } from '../../src/main/services/wal/load-generator';
import {
  SERVER_LIMITS,
  type RunningWebServer,
  type ServerLimits,
} from '../../src/main/web/web-server';
import { SOCKET_LIMITS, type SocketLimits } from '../../src/main/web/socket-session';
import { callOverSocket, openApiSocket } from '../support/cairn-serve';
import type { WalApp } from '../wal-api/support';
import { countCalls, serveWalApp } from './web-support';

const PREFIX = walPrefix('wal', 0n, 0);
const KIB = 1024;

let app: WalApp | undefined;
let server: RunningWebServer | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await server?.close();
  await app?.close();
  server = undefined;
  app = undefined;
});

async function start(
  socketLimits: SocketLimits,
  serverLimits: ServerLimits,
): Promise<{ app: WalApp; server: RunningWebServer }> {
  ({ app, server } = await serveWalApp(socketLimits, serverLimits));
  return { app, server };
}

async function open(cookie?: string): Promise<WebSocket> {
  const socket = await openApiSocket(server!.port, server!.token, cookie);
  sockets.push(socket);
  return socket;
}

/** `count` entries of `size` bytes in region 1:1 of PREFIX. */
async function seedRegion(target: WalApp, count: number, size: number): Promise<void> {
  const store = await ObjectStoreLogStore.open(target.io, {
    root: 'wal',
    nodeId: 0n,
    generation: 0,
    flushIntervalMs: 10,
  });
  const report = await runLoad(store, { regions: 1, writers: 32, count, size }, () => undefined);
  await store.stop();
  expect(report.acknowledged).toBe(count);
}

/** Every event a socket receives, decoded. */
function eventsOf(socket: WebSocket): ApiEvent[] {
  const events: ApiEvent[] = [];
  socket.on('message', (data: Buffer) => {
    const message = decodeWire(data.toString()) as { event?: ApiEvent };
    if (message.event !== undefined) events.push(message.event);
  });
  return events;
}

const chunksOf = (events: readonly ApiEvent[], jobId: string): ReplayEntryView[] =>
  events.flatMap((event) =>
    event.type === 'wal.replay.chunk' && event.jobId === jobId ? [...event.entries] : [],
  );

const doneOf = (events: readonly ApiEvent[], jobId: string): ReplayProgress | undefined =>
  events.flatMap((event) =>
    event.type === 'wal.replay.done' && event.jobId === jobId ? [event.progress] : [],
  )[0];

describe('hostile clients', () => {
  it('paces an unpaced replay by the socket that asked for it: every entry, no close, nothing to a bystander', async () => {
    // 12 MB: past what the kernel's socket buffers take (4 MB here) and the old event limit
    // (4 x the queue), so a reader that stops reading makes the server hold the rest.
    const limits = { ...SOCKET_LIMITS, maxQueuedBytes: 256 * KIB };
    const { app, server } = await start(limits, { ...SERVER_LIMITS, heartbeatMs: 60_000 });
    const count = 3_000;
    await seedRegion(app, count, 4 * KIB);
    const reader = await open();
    const bystander = await open();
    const readerEvents = eventsOf(reader);
    const bystanderEvents = eventsOf(bystander);

    const started = callOverSocket(reader, 1, 'wal.replay.start', {
      connectionId: 'embedded',
      prefix: PREFIX,
      region: '1:1',
      chunkSize: 500,
    });
    reader.pause(); // a console busy elsewhere: nothing is read for a while
    await expect
      .poll(() => server.stats().queuedBytes, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(limits.maxQueuedBytes);
    expect(server.stats().sockets).toBe(2);
    reader.resume();
    const { jobId } = (await started).result as ReplayProgress;

    await expect.poll(() => doneOf(readerEvents, jobId), { timeout: 30_000 }).toBeDefined();
    expect(doneOf(readerEvents, jobId)).toMatchObject({ state: 'finished', delivered: count });
    const ids = chunksOf(readerEvents, jobId).map((entry) => entry.id);
    expect(ids).toHaveLength(count);
    expect(ids.every((id, at) => at === 0 || id > ids[at - 1]!)).toBe(true);
    expect(chunksOf(readerEvents, jobId).every((entry) => entry.data.length === 4 * KIB)).toBe(
      true,
    );

    expect(bystanderEvents.filter((event) => event.type.startsWith('wal.replay'))).toEqual([]);
    expect(await callOverSocket(bystander, 2, 'app.info', {})).toMatchObject({ ok: true });
    expect(server.stats().sockets).toBe(2);
  });

  it('says why a job the server cancelled was cancelled, to its own session only', async () => {
    const { app } = await start(SOCKET_LIMITS, SERVER_LIMITS);
    await seedRegion(app, 40, 64);
    const cookie = `cairn_session_${server!.port}=${'a'.repeat(32)}`;
    const first = await open(cookie);
    const started = await callOverSocket(first, 1, 'wal.replay.start', {
      connectionId: 'embedded',
      prefix: PREFIX,
      region: '1:1',
      chunkSize: 1,
      ratePerSecond: 2,
    });
    const { jobId } = started.result as ReplayProgress;
    first.close();

    const again = await open(cookie); // the same browser, reconnected
    await expect
      .poll(async () => (await callOverSocket(again, 2, 'wal.replay.progress', { jobId })).result, {
        timeout: 10_000,
      })
      .toMatchObject({
        state: 'cancelled',
        cancelReason: 'the console that started it disconnected',
      });
    const other = await open(`cairn_session_${server!.port}=${'b'.repeat(32)}`);
    expect(await callOverSocket(other, 3, 'wal.replay.cancel', { jobId })).toMatchObject({
      ok: false,
      error: { code: 'ReplayJobNotFound' },
    });
  });

  it('terminates sockets that never read, during a paced replay; the reader gets its replay', async () => {
    const { app, server } = await start(SOCKET_LIMITS, {
      ...SERVER_LIMITS,
      heartbeatMs: 50,
    });
    await seedRegion(app, 30, 64);
    const reader = await open();
    const readerEvents = eventsOf(reader);
    const idle = await Promise.all(Array.from({ length: 5 }, () => open()));
    for (const socket of idle) socket.pause();
    const started = await callOverSocket(reader, 1, 'wal.replay.start', {
      connectionId: 'embedded',
      prefix: PREFIX,
      region: '1:1',
      chunkSize: 1,
      ratePerSecond: 20,
    });
    const { jobId } = started.result as ReplayProgress;

    await expect.poll(() => server.stats().sockets, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => doneOf(readerEvents, jobId), { timeout: 10_000 }).toBeDefined();
    expect(doneOf(readerEvents, jobId)).toMatchObject({ state: 'finished', delivered: 30 });
    expect(chunksOf(readerEvents, jobId)).toHaveLength(30);
    await expect.poll(() => server.stats().queuedBytes).toBe(0);
    expect(server.stats().sockets).toBe(1);
  });

  it('caps the sockets of the server: one past the cap is refused with 503', async () => {
    await start(SOCKET_LIMITS, { ...SERVER_LIMITS, maxSockets: 3 });
    const three = await Promise.all([open(), open(), open()]);
    const refused = await openApiSocket(server!.port, server!.token).then(
      () => 'open',
      (error: Error) => error.message,
    );
    expect(refused).toContain('503');
    three[0].close();
    await expect.poll(() => server!.stats().sockets).toBe(2);
    expect(await callOverSocket(await open(), 1, 'app.info', {})).toMatchObject({ ok: true });
  });

  it('caps the bytes queued for all sockets together', async () => {
    const perSocket = { ...SOCKET_LIMITS, maxCallsInFlight: 1, maxQueuedBytes: 2 * 1024 * KIB };
    const global = 1024 * KIB;
    const { app, server } = await start(perSocket, { ...SERVER_LIMITS, maxQueuedBytes: global });
    await app.io.putIfAbsent('big/object', new Uint8Array(256 * KIB).fill(7));
    const reply = (256 * KIB * 4) / 3; // base64
    const calls = countCalls(app);
    const floods = await Promise.all([open(), open(), open()]);
    const frame = encodeWire({ connectionId: 'embedded', key: 'big/object' });
    for (const socket of floods) {
      socket.pause();
      for (let id = 1; id <= 200; id++) socket.send(`${id}\nobjects.get\n${frame}`);
    }
    // Once no call has started for a while, every socket is waiting for room.
    let peak = 0;
    let last = -1;
    let still = 0;
    while (still < 10) {
      peak = Math.max(peak, server.stats().queuedBytes);
      still = calls.started() === last ? still + 1 : 0;
      last = calls.started();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Each socket alone could hold 2 MiB; together they hold the global cap and one reply each.
    expect(peak).toBeLessThanOrEqual(global + floods.length * (reply + KIB));
    expect(calls.started()).toBeLessThan(3 * 200);
    for (const socket of floods) socket.resume();
    await expect.poll(() => calls.started(), { timeout: 30_000 }).toBe(3 * 200);
  });
});
