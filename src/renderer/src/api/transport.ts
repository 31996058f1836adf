/**
 * How the renderer reaches the main process: the preload's named functions in the desktop
 * app, a WebSocket in browser mode. Picked once at start; the rest of the UI sees one client.
 */
import { ApiError, type CallReply } from '../../../shared/api-error';
import type { ApiEvent } from '../../../shared/contract/events';
import type { PreloadBridge } from '../../../shared/ipc-channels';
import { decodeWire, encodeWire } from '../../../shared/wire';

export interface Transport {
  readonly kind: 'ipc' | 'websocket';
  call(name: string, input: unknown): Promise<unknown>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Called when the link to the main process closes (browser mode); the next call reopens it. */
  onDisconnect(listener: () => void): () => void;
}

declare global {
  interface Window {
    cairn?: PreloadBridge;
  }
}

export function pickTransport(): Transport {
  return window.cairn ? ipcTransport(window.cairn) : webSocketTransport();
}

function unwrap(reply: CallReply): unknown {
  if (reply.ok) return reply.result;
  throw new ApiError(reply.error);
}

function ipcTransport(bridge: PreloadBridge): Transport {
  return {
    kind: 'ipc',
    async call(name, input) {
      const procedure = bridge.procedures[name];
      if (procedure === undefined)
        throw new ApiError({
          code: 'UnknownProcedure',
          message: `no procedure is named ${name}`,
          details: {},
        });
      return unwrap(decodeWire(await procedure(encodeWire(input))) as CallReply);
    },
    onEvent: (listener) => bridge.onEvent((payload) => listener(decodeWire(payload) as ApiEvent)),
    // IPC does not disconnect while the window lives.
    onDisconnect: () => () => undefined,
  };
}

function webSocketTransport(): Transport {
  const pending = new Map<number, (reply: CallReply) => void>();
  const listeners = new Set<(event: ApiEvent) => void>();
  const disconnectListeners = new Set<() => void>();
  let nextId = 1;
  let socket: Promise<WebSocket> | null = null;

  const connect = (): Promise<WebSocket> => {
    socket ??= new Promise((resolve, reject) => {
      const token = new URLSearchParams(window.location.search).get('token');
      const url = new URL('/api', window.location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      if (token) url.searchParams.set('token', token);
      const ws = new WebSocket(url);
      ws.onopen = () => resolve(ws);
      ws.onerror = () =>
        reject(
          new ApiError({
            code: 'Disconnected',
            message: 'cannot reach the Cairn server',
            details: {},
          }),
        );
      ws.onclose = () => {
        socket = null;
        for (const [id, settle] of pending) {
          settle({
            id,
            ok: false,
            error: {
              code: 'Disconnected',
              message: 'the connection to the Cairn server closed',
              details: {},
            },
          });
        }
        pending.clear();
        disconnectListeners.forEach((listener) => listener());
      };
      ws.onmessage = (message: MessageEvent<string>) => {
        const data = decodeWire(message.data) as CallReply | { event: ApiEvent };
        if ('event' in data) {
          listeners.forEach((listener) => listener(data.event));
          return;
        }
        const settle = pending.get(data.id);
        pending.delete(data.id);
        settle?.(data);
      };
    });
    return socket;
  };

  return {
    kind: 'websocket',
    async call(name, input) {
      const ws = await connect();
      const id = nextId++;
      const reply = new Promise<CallReply>((resolve) => pending.set(id, resolve));
      ws.send(`${id}\n${name}\n${encodeWire(input)}`);
      return unwrap(await reply);
    },
    onEvent(listener) {
      listeners.add(listener);
      void connect().catch(() => undefined);
      return () => listeners.delete(listener);
    },
    onDisconnect(listener) {
      disconnectListeners.add(listener);
      return () => disconnectListeners.delete(listener);
    },
  };
}
