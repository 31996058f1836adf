/**
 * Browser mode's transport: HTTP serving the built renderer and a WebSocket carrying the
 * router's calls and events. It listens on 127.0.0.1 only and answers nothing without the
 * run's token (query string or the cookie set on the first visit): 401 otherwise. Each
 * browser is a session of its own (`browser-sessions.ts`). What all clients together may cost
 * is capped: at most `maxSockets` sockets (503 past it), at most `maxQueuedBytes` queued for
 * all of them (`SendBudget`), and a heartbeat every `heartbeatMs` ends sockets that do not read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { contentSecurityPolicy } from '../../shared/csp';
import { MAX_WIRE_MESSAGE_BYTES } from '../../shared/wire';
import type { ApiRouter } from '../api/router';
import type { EventBus } from '../services/event-bus';
import {
  isLoopbackHost,
  newAccessToken,
  offeredToken,
  TOKEN_COOKIE,
  tokenMatches,
} from './access-token';
import {
  serveSocket,
  SOCKET_LIMITS,
  type SocketLimits,
  type SocketSession,
} from './socket-session';
import { BrowserSessions } from './browser-sessions';
import { SendBudget } from './send-budget';
import type { Session } from '../services/caller';
import { requestTarget } from './request-target';
import { strictCookie } from './cookies';
import { loadRendererAsset } from '../renderer-assets';
import { reportUnexpected } from '../process-guard';

export const API_SOCKET_PATH = '/api';

const MIB = 1024 * 1024;

/** What all of one server's clients together may hold. */
export interface ServerLimits {
  /** Open sockets at once; an upgrade past it is refused with 503. */
  readonly maxSockets: number;
  /** Bytes queued for all sockets together (`SendBudget`). */
  readonly maxQueuedBytes: number;
  /** How often each socket is pinged (`SocketSession.heartbeat`). */
  readonly heartbeatMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  maxSockets: 32,
  maxQueuedBytes: 64 * MIB,
  heartbeatMs: 5_000,
};

export interface WebServerOptions {
  readonly router: ApiRouter;
  readonly events: EventBus;
  readonly rendererDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token?: string;
  /** Per-socket limits; SOCKET_LIMITS unless a test narrows them. */
  readonly socketLimits?: SocketLimits;
  /** Limits of all sockets together; SERVER_LIMITS unless a test narrows them. */
  readonly serverLimits?: ServerLimits;
  /** A browser session ended (forgotten, or its one socket closed): its operator switches end. */
  readonly onSessionEnd?: (session: Session) => void;
}

export interface RunningWebServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Open sockets and the bytes queued for them all. */
  stats(): { sockets: number; queuedBytes: number };
  close(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const token = options.token ?? newAccessToken();
  const limits = options.serverLimits ?? SERVER_LIMITS;
  const sessions = new BrowserSessions(options.onSessionEnd ?? (() => undefined));
  const budget = new SendBudget(limits.maxQueuedBytes);
  const live = new Set<SocketSession>();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_WIRE_MESSAGE_BYTES });
  let port = options.port;
  const server = createServer((request, response) => {
    serveHttp(request, response, { ...options, token, port, sessions }).catch((error: unknown) =>
      failRequest(response, error),
    );
  });
  server.on('upgrade', (request, socket: Duplex, head: Buffer) => {
    try {
      // Upgrades already accepted count too: `ws` answers them a turn later.
      if (sockets.clients.size >= limits.maxSockets)
        refuseUpgrade(socket, '503 Service Unavailable');
      else upgrade(request, socket, head, { sockets, token, port });
    } catch {
      refuseUpgrade(socket, '400 Bad Request');
    }
  });
  sockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const owned = sessions.forSocket(request, port);
    const session = serveSocket(socket, {
      router: options.router,
      events: options.events,
      limits: options.socketLimits ?? SOCKET_LIMITS,
      budget,
      session: owned.session,
    });
    live.add(session);
    socket.once('close', () => {
      live.delete(session);
      sessions.endSocketSession(owned);
    });
  });
  const heartbeat = setInterval(() => {
    for (const session of live) session.heartbeat();
  }, limits.heartbeatMs);
  heartbeat.unref();
  port = await listen(server, options.port);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    stats: () => ({ sockets: sockets.clients.size, queuedBytes: budget.queuedBytes }),
    close: () => {
      clearInterval(heartbeat);
      return closeAll(server, sockets);
    },
  };
}

async function serveHttp(
  request: IncomingMessage,
  response: ServerResponse,
  context: WebServerOptions & { token: string; port: number; sessions: BrowserSessions },
): Promise<void> {
  if (!isLoopbackHost(request.headers.host, context.port)) {
    response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('Cairn answers only on 127.0.0.1 or localhost.\n');
    return;
  }
  const url = requestTarget(request, context.port);
  if (url === null) {
    response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('Bad request target.\n');
    return;
  }
  if (!tokenMatches(context.token, offeredToken(request, url))) {
    response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(
      'Unauthorized: open the URL that `cairn serve` printed; it carries the access token.\n',
    );
    return;
  }
  const asset = await loadRendererAsset(context.rendererDir, url.pathname);
  if (asset === null) {
    response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('The renderer is not built: run `npm run build` first.\n');
    return;
  }
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(
      [`ws://127.0.0.1:${context.port}`, `ws://localhost:${context.port}`],
      asset.styleNonce,
    ),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  // Pages make sessions; a script fetching assets without a cookie does not churn them.
  const { setCookie } = asset.contentType.startsWith('text/html')
    ? context.sessions.forPage(request, context.port)
    : { setCookie: null };
  const cookies = [strictCookie(TOKEN_COOKIE, context.token), ...(setCookie ? [setCookie] : [])];
  response.writeHead(200, { ...headers, 'set-cookie': cookies, 'content-type': asset.contentType });
  response.end(asset.body);
}

function upgrade(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  context: { sockets: WebSocketServer; token: string; port: number },
): void {
  const url = requestTarget(request, context.port);
  if (url === null) {
    refuseUpgrade(socket, '400 Bad Request');
    return;
  }
  const origin = request.headers.origin;
  const sameOrigin =
    origin === undefined ||
    origin === `http://127.0.0.1:${context.port}` ||
    origin === `http://localhost:${context.port}`;
  const allowed =
    url.pathname === API_SOCKET_PATH &&
    isLoopbackHost(request.headers.host, context.port) &&
    sameOrigin &&
    tokenMatches(context.token, offeredToken(request, url));
  if (!allowed) {
    refuseUpgrade(socket, '401 Unauthorized');
    return;
  }
  context.sockets.handleUpgrade(request, socket, head, (ws) =>
    context.sockets.emit('connection', ws, request),
  );
}

function refuseUpgrade(socket: Duplex, status: string): void {
  if (socket.writable)
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

/** Whatever failed while serving, the client gets a status and the process keeps running. */
function failRequest(response: ServerResponse, error: unknown): void {
  reportUnexpected('an HTTP request', error);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('Internal error.\n');
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function closeAll(server: Server, sockets: WebSocketServer): Promise<void> {
  for (const client of sockets.clients) client.terminate();
  sockets.close();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
