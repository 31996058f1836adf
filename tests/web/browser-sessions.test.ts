/**
 * Browser mode's sessions (issue #38): each browser gets its own session cookie on its first
 * page; a second browser on the same server starts read-only whatever the first switched on;
 * the tabs (sockets) of one browser share its session; a socket with no session cookie is a
 * session of its own, which ends with it; the audit log names the session that acted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { Connection } from '../../src/shared/contract';
import { startWebServer, type RunningWebServer } from '../../src/main/web/web-server';
import { makeTestApp, type TestApp } from '../support/app-services';
import { callOverSocket, openApiSocket } from '../support/cairn-serve';
import { addInput } from '../tiering-api/support';

let app: TestApp;
let server: RunningWebServer;
const ended: string[] = [];

beforeAll(async () => {
  app = await makeTestApp();
  const rendererDir = join(app.dataDir, 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Cairn</title>');
  server = await startWebServer({
    router: app.router,
    events: app.services.events,
    rendererDir,
    port: 0,
    onSessionEnd: (session) => {
      ended.push(session.name);
      app.services.connections.endSession(session);
    },
  });
});
afterAll(async () => {
  await server.close();
  await app.dispose();
});

/** The page's session cookie (`name=value`), as a browser would keep it; null if none was set. */
function pageCookie(cookie?: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const headers = cookie === undefined ? {} : { cookie };
    const req = request(
      { host: '127.0.0.1', port: server.port, path: `/?token=${server.token}`, headers },
      (res) => {
        res.resume();
        const set = (res.headers['set-cookie'] ?? []).find((value) =>
          value.startsWith('cairn_session_'),
        );
        resolve(set === undefined ? null : set.split(';')[0]!);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function operatorSeenBy(socket: WebSocket, id: number): Promise<boolean | undefined> {
  const reply = await callOverSocket(socket, id, 'connections.list', {});
  return (reply.result as Connection[]).find((connection) => connection.id === 'embedded')
    ?.operator;
}

describe('browser sessions', () => {
  it('keeps operator mode per browser: a second browser starts read-only', async () => {
    const firstBrowser = await pageCookie();
    const secondBrowser = await pageCookie();
    expect(firstBrowser).toMatch(/^cairn_session_\d+=[A-Za-z0-9_-]{32}$/);
    expect(secondBrowser).not.toBe(firstBrowser);
    // A page load that carries its cookie keeps its session: nothing new is set.
    expect(await pageCookie(firstBrowser!)).toBeNull();

    const firstTab = await openApiSocket(server.port, server.token, firstBrowser!);
    const secondTab = await openApiSocket(server.port, server.token, firstBrowser!);
    const colleague = await openApiSocket(server.port, server.token, secondBrowser!);
    expect(
      await callOverSocket(firstTab, 1, 'connections.setOperator', {
        id: 'embedded',
        operator: true,
      }),
    ).toMatchObject({ ok: true });
    expect(await operatorSeenBy(firstTab, 2)).toBe(true);
    expect(await operatorSeenBy(secondTab, 3)).toBe(true);
    expect(await operatorSeenBy(colleague, 4)).toBe(false);
    const add = { connectionId: 'embedded', ...addInput() };
    const refused = await callOverSocket(colleague, 5, 'segments.add', add);
    expect(refused).toMatchObject({ ok: false, error: { code: 'ReadOnly' } });
    expect(await callOverSocket(secondTab, 6, 'segments.add', add)).toMatchObject({ ok: true });

    const switched = (await app.services.audit.recent(5)).find(
      (entry) => entry.action === 'connections.setOperator',
    );
    expect(switched).toMatchObject({
      action: 'connections.setOperator',
      connection: 'Embedded store',
      session: expect.stringMatching(/^browser [0-9a-f]{6}$/) as string,
    });
    for (const socket of [firstTab, secondTab, colleague]) socket.close();
  });

  it('makes a socket without a session cookie a session of its own, ended when it closes', async () => {
    const lone = await openApiSocket(server.port, server.token);
    const other = await openApiSocket(server.port, server.token);
    await callOverSocket(lone, 1, 'connections.setOperator', { id: 'embedded', operator: true });
    expect(await operatorSeenBy(lone, 2)).toBe(true);
    expect(await operatorSeenBy(other, 3)).toBe(false);
    const [switched] = await app.services.audit.recent(1);
    const session = switched!.session!;
    expect(session).toMatch(/^socket [0-9a-f]{6}$/);
    lone.close();
    await expect.poll(() => ended).toContain(session);
    other.close();
  });
});
