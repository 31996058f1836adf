/**
 * Hostile requests against a real `cairn serve` process (issue #16): each one gets a status,
 * and after all of them the process is alive and answers a valid call.
 */
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callOverSocket,
  openApiSocket,
  startServe,
  type ServeProcess,
} from '../support/cairn-serve';

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe();
});
afterAll(async () => {
  serve.process.kill('SIGTERM');
  await serve.exited;
  await rm(serve.dataDir, { recursive: true, force: true });
});

/** Sends `head` as raw bytes and resolves with the status line of the answer ('' if none). */
function rawRequest(head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(serve.port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.setTimeout(5000, () => socket.destroy());
  });
}

/** Rows are built before the server starts: HOST is replaced by its Host header then. */
const HOST = 'HOST\r\n';

const UPGRADE =
  'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

describe('cairn serve under hostile requests', () => {
  it.each([
    [
      'a malformed token cookie',
      `GET / HTTP/1.1\r\n${HOST}Cookie: cairn_token=%E0%A4%A\r\n`,
      '401',
    ],
    [
      'a malformed token cookie on the upgrade',
      `GET /api HTTP/1.1\r\n${HOST}${UPGRADE}Cookie: cairn_token=%E0%A4%A\r\n`,
      '401',
    ],
    ['the path //', `GET // HTTP/1.1\r\n${HOST}`, '400'],
    ['the target http://[', `GET http://[ HTTP/1.1\r\n${HOST}`, '400'],
    ['the target http://[ on the upgrade', `GET http://[ HTTP/1.1\r\n${HOST}${UPGRADE}`, '400'],
    ['the path // on the upgrade', `GET //api HTTP/1.1\r\n${HOST}${UPGRADE}`, '400'],
  ])('answers %s with a status', async (_what, head, status) => {
    const line = await rawRequest(
      `${head.replace(HOST, `Host: 127.0.0.1:${serve.port}\r\n`)}Connection: close\r\n\r\n`,
    );
    expect(line.split(' ')[1]).toBe(status);
  });

  it('is still alive and answers a valid call after all of them', async () => {
    const socket = await openApiSocket(serve.port, serve.token);
    const reply = await callOverSocket(socket, 1, 'app.info', {});
    expect(reply).toMatchObject({ ok: true, result: { mode: 'browser' } });
    socket.close();
    expect(serve.process.exitCode).toBeNull();
  });
});
