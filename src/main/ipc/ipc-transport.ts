/**
 * The Electron transport of the router. One fixed channel; every call's sender is checked
 * (only the app's own top frame may call) before anything is decoded, and the input is
 * validated by the router like any other call. Each window is its own session
 * (`window-sessions.ts`). Electron objects are passed in, so this module imports nothing from
 * Electron and is tested with plain fakes.
 */
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/ipc-channels';
import { encodeWire } from '../../shared/wire';
import { dispatchCall } from '../api/dispatch';
import type { ApiRouter } from '../api/router';
import { toWireError } from '../api/router';
import type { EventBus } from '../services/event-bus';
import { CairnError } from '../engine/errors';
import { isAppUrl } from '../shell/app-origin';
import { WindowCallers, type WindowContents } from './window-sessions';

export interface IpcSenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

export interface IpcInvokeEvent {
  readonly senderFrame: IpcSenderFrame | null;
  /** The calling window's contents: its session and where its own events go. */
  readonly sender: WindowContents;
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, payload: string): void;
}

export class UntrustedSenderError extends CairnError {
  constructor(url: string) {
    super('UntrustedSender', `IPC call refused: ${url || 'an unknown frame'} is not the app`, {
      url,
    });
  }
}

/** The app's own top-level frame, served from its origin, is the only trusted sender. */
export function isTrustedSender(
  event: Pick<IpcInvokeEvent, 'senderFrame'>,
  appOrigin: string,
): boolean {
  try {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isAppUrl(frame.url, appOrigin);
  } catch {
    return false; // A frame disposed mid-call throws when read: it is no sender we trust.
  }
}

function senderUrl(event: Pick<IpcInvokeEvent, 'senderFrame'>): string {
  try {
    return event.senderFrame?.url ?? '';
  } catch {
    return '';
  }
}

let nextCallId = 1;

export function registerIpcTransport(
  ipcMain: IpcMainLike,
  router: ApiRouter,
  appOrigin: string,
  windows: WindowCallers = new WindowCallers(),
): () => void {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, name, encodedInput) => {
    const id = nextCallId++;
    // Whatever fails below, the renderer gets a typed reply, never a rejected invoke.
    try {
      if (!isTrustedSender(event, appOrigin)) {
        throw new UntrustedSenderError(senderUrl(event));
      }
      return await dispatchCall(router, id, name, encodedInput, windows.callerOf(event.sender));
    } catch (error) {
      return encodeWire({ id, ok: false, error: toWireError(error) });
    }
  });
  return () => ipcMain.removeHandler(IPC_CALL_CHANNEL);
}

/** Pushes every service event to one window until it closes. */
export function forwardEvents(events: EventBus, target: EventTarget): () => void {
  const unsubscribe = events.subscribe((event) => {
    if (target.isDestroyed()) {
      unsubscribe();
      return;
    }
    target.send(IPC_EVENT_CHANNEL, encodeWire(event));
  });
  return unsubscribe;
}
