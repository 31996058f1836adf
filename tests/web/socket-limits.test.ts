/**
 * Per-socket limits of browser mode (issue #16): a socket that floods calls and never reads
 * its replies gets at most its calls in flight and its queued bytes - the rest stays unread -
 * while another socket is still answered; a socket's replay jobs are capped and cancelled
 * when it closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ReplayProgress } from '../../src/shared/contract/wal';
import { encodeWire } from '../../src/shared/wire';
import type { RunningWebServer } from '../../src/main/web/web-server';
import type { SocketLimits } from '../../src/main/web/socket-session';
import { callOverSocket, openApiSocket } from '../support/cairn-serve';
import { PREFIX, seed, type WalApp } from '../wal-api/support';
import { countCalls, serveWalApp } from './web-support';

const LIMITS: SocketLimits = {
  maxCallsInFlight: 4,
  maxQueuedBytes: 2 * 1024 * 1024,
  maxReplayJobs: 2,
  maxWaitingCalls: 1024,
};
const FLOOD = 2000;

let app: WalApp | undefined;
let server: RunningWebServer | undefined;
afterEach(async () => {
  await server?.close();
  await app?.close();
  server = undefined;
  app = undefined;
});

async function start(): Promise<{ app: WalApp; server: RunningWebServer }> {
  ({ app, server } = await serveWalApp(LIMITS));
  return { app, server };
}

function closed(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) resolve();
    else socket.once('close', () => resolve());
  });
}

describe('per-socket limits', () => {
  it('bounds a socket that floods reads without reading replies; others are answered', async () => {
    const { app, server } = await start();
    await app.io.putIfAbsent('big/object', new Uint8Array(1024 * 1024).fill(7));
    const calls = countCalls(app);
    const flood = await openApiSocket(server.port, server.token);
    flood.pause();
    const frame = encodeWire({ connectionId: 'embedded', key: 'big/object' });
    for (let id = 1; id <= FLOOD; id++) flood.send(`${id}\nobjects.get\n${frame}`);

    const probe = await openApiSocket(server.port, server.token);
    expect(await callOverSocket(probe, 1, 'app.info', {})).toMatchObject({ ok: true });
    // Fill the queue: probe again until the flooding socket has stopped being read.
    for (let id = 2; id < 40; id++)
      expect(await callOverSocket(probe, id, 'app.info', {})).toMatchObject({ ok: true });

    flood.terminate();
    await closed(flood);
    expect(await callOverSocket(probe, 99, 'app.info', {})).toMatchObject({ ok: true });
    expect(calls.peak()).toBeLessThanOrEqual(LIMITS.maxCallsInFlight + 1);
    // Far fewer than the flood ran: the rest stayed unread and died with the socket.
    expect(calls.started()).toBeLessThan(FLOOD / 4);
    probe.close();
  });

  it('caps the replay jobs of a socket and cancels them when it closes', async () => {
    const { app, server } = await start();
    await seed(app.io, 40);
    const cookie = `cairn_session_${server.port}=${'s'.repeat(32)}`;
    const socket = await openApiSocket(server.port, server.token, cookie);
    const replay = { connectionId: 'embedded', prefix: PREFIX, region: '1:1', chunkSize: 1 };
    const paced = { ...replay, ratePerSecond: 1 };
    const first = await callOverSocket(socket, 1, 'wal.replay.start', paced);
    const second = await callOverSocket(socket, 2, 'wal.replay.start', paced);
    const third = await callOverSocket(socket, 3, 'wal.replay.start', paced);
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(third).toMatchObject({ ok: false, error: { code: 'TooManyReplayJobs' } });

    socket.close();
    await closed(socket);
    // The same browser session, on a new socket, sees why they ended.
    const again = await openApiSocket(server.port, server.token, cookie);
    for (const reply of [first, second]) {
      const jobId = (reply.result as ReplayProgress).jobId;
      await expect
        .poll(async () => (await callOverSocket(again, 9, 'wal.replay.progress', { jobId })).result)
        .toMatchObject({
          state: 'cancelled',
          cancelReason: 'the console that started it disconnected',
        });
    }
    again.close();
  });
});
