import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startWebServer, type RunningWebServer } from '../../src/main/web/web-server';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { makeTestApp, type TestApp } from '../support/app-services';

let app: TestApp;
let server: RunningWebServer;

beforeAll(async () => {
  app = await makeTestApp();
  const rendererDir = join(app.dataDir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html><meta name="cairn-style-nonce" content="__CAIRN_STYLE_NONCE__"><title>Cairn</title>',
  );
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  server = await startWebServer({
    router: app.router,
    events: app.services.events,
    rendererDir,
    port: 0,
  });
});
afterAll(async () => {
  await server.close();
  await app.dispose();
});

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(
  query: string,
  headers: Record<string, string> = {},
): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api${query}`, { headers });
    socket.on('open', () => resolve(socket));
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
  });
}

function callOver(
  socket: WebSocket,
  frame: string,
): Promise<{ id: number; ok: boolean; result?: unknown; error?: { code: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = decodeWire(data.toString()) as { id?: number };
      if ('id' in message) {
        socket.off('message', onMessage);
        resolve(message as { id: number; ok: boolean });
      }
    };
    socket.on('message', onMessage);
    socket.send(frame);
  });
}

describe('browser mode transport', () => {
  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('gives each page a fresh style nonce, named in its CSP and nowhere in a script', async () => {
    const pages = [await get(`/?token=${server.token}`), await get(`/?token=${server.token}`)];
    const nonces = pages.map((page) => {
      const nonce = /content="([^"]+)"/.exec(page.body)?.[1] ?? '';
      expect(nonce).not.toBe('__CAIRN_STYLE_NONCE__');
      expect(String(page.headers['content-security-policy'])).toContain(
        `style-src 'self' 'nonce-${nonce}'`,
      );
      expect(String(page.headers['content-security-policy'])).toContain("script-src 'self';");
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);
    const asset = await get(`/assets/app.js?token=${server.token}`);
    expect(String(asset.headers['content-security-policy'])).toContain("style-src 'self';");
  });

  it('answers 401 without the token and 200 with it, then by cookie', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=wrong')).status).toBe(401);
    const first = await get(`/?token=${server.token}`);
    expect(first.status).toBe(200);
    expect(first.headers['content-security-policy']).toContain("script-src 'self'");
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const cookie = setCookie.split(';')[0]!;
    const asset = await get('/assets/app.js', { cookie });
    expect([asset.status, asset.headers['content-type'], asset.body]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'console.log(1)',
    ]);
  });

  it('refuses foreign Host headers (DNS rebinding) and paths outside the renderer', async () => {
    expect(
      (await get(`/?token=${server.token}`, { host: `evil.example:${server.port}` })).status,
    ).toBe(421);
    const escape = await get(`/..%2f..%2fconnections.json?token=${server.token}`);
    expect(escape.body).toContain('<title>Cairn</title>');
  });

  it('refuses a socket without the token or from another origin', async () => {
    expect(await openSocket('')).toBe(401);
    expect(await openSocket(`?token=${server.token}`, { origin: 'https://evil.example' })).toBe(
      401,
    );
  });

  it('carries calls, typed errors and events over the socket', async () => {
    const socket = (await openSocket(`?token=${server.token}`)) as WebSocket;
    const info = await callOver(socket, `1\napp.info\n${encodeWire({})}`);
    expect(info).toMatchObject({ id: 1, ok: true, result: { mode: 'browser' } });
    const bad = await callOver(socket, `2\nconnections.add\n${encodeWire({ kind: 'local' })}`);
    expect(bad).toMatchObject({ id: 2, ok: false, error: { code: 'InvalidInput' } });
    const malformed = await callOver(socket, 'garbage');
    expect(malformed).toMatchObject({ id: -1, ok: false, error: { code: 'MalformedCall' } });
    const event = new Promise<unknown>((resolve) =>
      socket.once('message', (data: Buffer) => resolve(decodeWire(data.toString()))),
    );
    await app.services.connections.setOperator('embedded', true);
    expect(await event).toMatchObject({ event: { type: 'connections.changed' } });
    socket.close();
  });
});
