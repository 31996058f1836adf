/** A browser-mode server over a real WAL app, with the limits a test narrows, and a call counter. */
import {
  startWebServer,
  type RunningWebServer,
  type ServerLimits,
} from '../../src/main/web/web-server';
import type { SocketLimits } from '../../src/main/web/socket-session';
import { walApp, type WalApp } from '../wal-api/support';

export async function serveWalApp(
  socketLimits: SocketLimits,
  serverLimits?: ServerLimits,
): Promise<{ app: WalApp; server: RunningWebServer }> {
  const app = await walApp();
  const server = await startWebServer({
    router: app.router,
    events: app.services.events,
    rendererDir: app.dataDir,
    port: 0,
    socketLimits,
    serverLimits,
  });
  return { app, server };
}

/** Counts the router calls started and the most running at once. */
export function countCalls(target: WalApp): { started: () => number; peak: () => number } {
  const original = target.router.call.bind(target.router);
  let started = 0;
  let running = 0;
  let peak = 0;
  target.router.call = async (name, input, caller) => {
    started += 1;
    running += 1;
    peak = Math.max(peak, running);
    try {
      return await original(name, input, caller);
    } finally {
      running -= 1;
    }
  };
  return { started: () => started, peak: () => peak };
}
