/**
 * One browser-mode WebSocket and everything it may cost the process that hosts the engine:
 * at most `maxCallsInFlight` calls run for it at once, at most `maxQueuedBytes` of replies
 * wait in its send buffer - and the server's sockets together at most their `SendBudget` -
 * (past either, the socket stops being read, so a client that sends without reading backs up
 * in its own TCP window, not in our memory), and at most `maxReplayJobs` replay jobs run for
 * it. It is its caller's channel: a replay's chunks come to this socket alone and the job
 * waits while the socket has no room, so a replay is paced by the reader that asked for it.
 * A socket that does not read is terminated at once, never left to a closing handshake: past
 * its event queue, or once `SILENT_BEATS` heartbeats in a row found it had neither answered a
 * ping nor drained any of a backlog since the one before (a slow reader behind a backlog
 * drains it, so it is not taken for one that does not read). Closing it drops its waiting calls and the replies of the running ones,
 * and ends its replay jobs (its channel's `closed`). Never throws into `ws`.
 */
import type { RawData, WebSocket } from 'ws';
import type { CallReply } from '../../shared/api-error';
import type { ApiEvent } from '../../shared/contract';
import { encodeWire } from '../../shared/wire';
import { callReply } from '../api/dispatch';
import { toWireError, type ApiRouter } from '../api/router';
import type { Caller, CallerChannel, Session } from '../services/caller';
import type { EventBus } from '../services/event-bus';
import { TooManyCallsError } from '../services/errors';
import { reportUnexpected } from '../process-guard';
import { malformedFrameReply, parseSocketCall, type SocketCall } from './socket-calls';
import { SocketReplays } from './socket-replays';
import type { SendBudget } from './send-budget';

const MIB = 1024 * 1024;

export interface SocketLimits {
  /** Calls the router runs at once for one socket; more wait, unread. */
  readonly maxCallsInFlight: number;
  /** Reply bytes handed to the socket and not yet written out; past it, reading stops. */
  readonly maxQueuedBytes: number;
  /** Replay jobs one socket may have running or paused. */
  readonly maxReplayJobs: number;
  /** Calls already read but waiting for a slot (frames that arrived in one TCP read). */
  readonly maxWaitingCalls: number;
}

export const SOCKET_LIMITS: SocketLimits = {
  maxCallsInFlight: 8,
  maxQueuedBytes: 8 * MIB,
  maxReplayJobs: 2,
  maxWaitingCalls: 1024,
};

/** Events past this many queued bytes mean a client that does not read: it is terminated. */
const EVENT_QUEUE_FACTOR = 4;
/** Heartbeats in a row without a sign of reading, after which a socket is terminated. */
export const SILENT_BEATS = 2;

export interface SocketContext {
  readonly router: ApiRouter;
  readonly events: EventBus;
  readonly limits: SocketLimits;
  readonly budget: SendBudget;
  readonly session: Session;
}

export function serveSocket(socket: WebSocket, context: SocketContext): SocketSession {
  const session = new SocketSession(socket, context);
  const unsubscribe = context.events.subscribe((event) => session.sendEvent(event));
  const stopWaking = context.budget.onRoom(() => session.pump());
  socket.on('message', (data: RawData, isBinary: boolean) => session.receive(data, isBinary));
  socket.on('pong', () => session.answered());
  socket.once('close', () => {
    unsubscribe();
    stopWaking();
    session.close();
  });
  socket.on('error', (error) => reportUnexpected('a WebSocket', error));
  return session;
}

export class SocketSession implements CallerChannel {
  private inFlight = 0;
  private queuedBytes = 0;
  private closedFlag = false;
  private readonly closing = new AbortController();
  private readonly waiting: SocketCall[] = [];
  /** Senders waiting for room in this socket's queue (a replay between two chunks). */
  private roomWaiters: Array<() => void> = [];
  private readonly caller: Caller;
  private readonly replays: SocketReplays;
  /** Since the last heartbeat: a pong came back, or some of a backlog was written out. */
  private alive = true;
  private silentBeats = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: SocketContext,
  ) {
    this.caller = { session: context.session, channel: this };
    this.replays = new SocketReplays(context.router, this.caller, context.limits.maxReplayJobs);
  }

  /** Aborted when the socket closes: what was sent for it alone stops. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /** Bytes handed to `ws` for this socket and not yet written out. */
  get queued(): number {
    return this.queuedBytes;
  }

  receive(data: RawData, isBinary: boolean): void {
    if (this.closedFlag) return;
    try {
      const call = parseSocketCall(data, isBinary);
      if (call === null) this.sendText(malformedFrameReply());
      else if (this.waiting.length >= this.context.limits.maxWaitingCalls)
        this.sendReply({
          id: call.id,
          ok: false,
          error: toWireError(new TooManyCallsError(this.context.limits.maxWaitingCalls)),
        });
      else {
        this.waiting.push(call);
        this.pump();
      }
    } catch (error) {
      reportUnexpected('a WebSocket message', error);
    }
  }

  /** An event for every window: a socket that let too many pile up is not reading. */
  sendEvent(event: ApiEvent): void {
    if (this.closedFlag) return;
    const text = encodeWire({ event });
    if (this.queuedBytes + text.length > this.context.limits.maxQueuedBytes * EVENT_QUEUE_FACTOR) {
      this.terminate();
      return;
    }
    this.sendText(text);
  }

  /** An event for this socket alone; resolves once the socket (and the server) has room. */
  send(event: ApiEvent): Promise<void> {
    this.sendText(encodeWire({ event }));
    if (this.closedFlag || this.hasSendRoom()) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  answered(): void {
    this.alive = true;
  }

  /** One heartbeat: terminated after `SILENT_BEATS` silent ones, else pinged again. */
  heartbeat(): void {
    if (this.closedFlag) return;
    this.silentBeats = this.alive ? 0 : this.silentBeats + 1;
    if (this.silentBeats >= SILENT_BEATS) {
      this.terminate();
      return;
    }
    this.alive = false;
    try {
      this.socket.ping();
    } catch {
      this.terminate(); // Not open any more: nothing to keep.
    }
  }

  close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.waiting.length = 0;
    // Whatever `ws` still held is dropped with the socket; late callbacks count nothing.
    this.context.budget.release(this.queuedBytes);
    this.queuedBytes = 0;
    this.closing.abort();
    this.wakeSenders();
  }

  /** Starts waiting calls while slots are free, wakes waiting senders, then pauses or resumes reading. */
  pump(): void {
    while (!this.closedFlag && this.waiting.length > 0 && this.hasRoom()) {
      const call = this.waiting.shift() as SocketCall;
      this.inFlight++;
      void this.run(call).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    if (this.hasSendRoom()) this.wakeSenders();
    this.updateFlow();
  }

  private terminate(): void {
    this.socket.terminate();
    this.close();
  }

  private wakeSenders(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const wake of waiters) wake();
  }

  private hasSendRoom(): boolean {
    return this.queuedBytes < this.context.limits.maxQueuedBytes && this.context.budget.hasRoom();
  }

  private hasRoom(): boolean {
    return this.inFlight < this.context.limits.maxCallsInFlight && this.hasSendRoom();
  }

  private updateFlow(): void {
    if (this.closedFlag) return;
    const full = !this.hasRoom() || this.waiting.length > 0;
    if (full && !this.socket.isPaused) this.socket.pause();
    else if (!full && this.socket.isPaused) this.socket.resume();
  }

  private async run(call: SocketCall): Promise<void> {
    try {
      const reply = (): Promise<CallReply> =>
        callReply(this.context.router, call.id, call.name, call.encodedInput, this.caller);
      this.sendReply(
        call.name === 'wal.replay.start' ? await this.replays.start(call.id, reply) : await reply(),
      );
    } catch (error) {
      reportUnexpected('a WebSocket call', error);
    }
  }

  private sendReply(reply: CallReply): void {
    this.sendText(encodeWire(reply));
  }

  private sendText(text: string): void {
    if (this.closedFlag || this.socket.readyState !== this.socket.OPEN) return;
    const bytes = Buffer.byteLength(text, 'utf8');
    this.queuedBytes += bytes;
    this.context.budget.add(bytes);
    this.socket.send(text, () => {
      if (this.closedFlag) return;
      this.queuedBytes -= bytes;
      this.context.budget.release(bytes);
      // Bytes still waiting: a backlog is draining, however slowly (a ping waits behind it).
      if (this.queuedBytes > 0) this.alive = true;
      this.pump();
    });
    this.updateFlow();
  }
}
