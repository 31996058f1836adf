/**
 * The desktop app's sessions: one per window (its web contents' id), so operator mode switched
 * on in one window is not on in another, and the audit log names the window that acted. A
 * window's reload keeps its session; closing it ends the session.
 */
import type { Caller, Session } from '../services/caller';
import { encodeWire } from '../../shared/wire';
import { IPC_EVENT_CHANNEL } from '../../shared/ipc-channels';

export function windowSession(webContentsId: number): Session {
  return { id: `window-${webContentsId}`, name: `window ${webContentsId}` };
}

/** What the window's events go through: the same as `forwardEvents` sends to. */
export interface WindowContents {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, payload: string): void;
}

/**
 * The windows as callers: each window's events go to it alone, and what runs for it (its
 * replays) ends when it closes. IPC gives no signal of the renderer's reading, so a send
 * resolves at once (the window is on this machine, not behind a network, and one replay
 * chunk is bounded).
 */
export class WindowCallers {
  private readonly closing = new Map<number, AbortController>();

  callerOf(contents: WindowContents): Caller {
    let closing = this.closing.get(contents.id);
    if (closing === undefined) {
      closing = new AbortController();
      this.closing.set(contents.id, closing);
    }
    return {
      session: windowSession(contents.id),
      channel: {
        closed: closing.signal,
        send: async (event) => {
          if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, encodeWire(event));
        },
      },
    };
  }

  /** The window `webContentsId` closed: what runs for it ends. */
  closed(webContentsId: number): void {
    this.closing.get(webContentsId)?.abort();
    this.closing.delete(webContentsId);
  }
}
