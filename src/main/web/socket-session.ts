/**
 * One browser-mode WebSocket and everything it may cost the process that hosts the engine:
 * at most `maxCallsInFlight` calls run for it at once, at most `maxQueuedBytes` of replies
 * wait in its send buffer (past either, the socket stops being read, so a client that sends
 * without reading backs up in its own TCP window, not in our memory), and at most
 * `maxReplayJobs` replay jobs run for it. Closing the socket drops its waiting calls, drops
 * the replies of the running ones and cancels its replay jobs. Never throws into `ws`.
 */
import type { RawData, WebSocket } from 'ws';
import type { CallReply } from '../../shared/api-error';
import type { ReplayProgress } from '../../shared/contract/wal';
import { encodeWire } from '../../shared/wire';
import { callReply } from '../api/dispatch';
import { toWireError, type ApiRouter } from '../api/router';
import type { EventBus } from '../services/event-bus';
import { TooManyCallsError } from '../services/errors';
import { TooManyReplayJobsError } from '../services/wal/errors';
import { reportUnexpected } from '../process-guard';
import { malformedFrameReply, parseSocketCall, type SocketCall } from './socket-calls';

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

/** Events past this many queued bytes mean a client that does not read: it is closed. */
const EVENT_QUEUE_FACTOR = 4;
/** Close code "try again later": the client may reconnect and read this time. */
const CLOSE_NOT_READING = 1013;

const REPLAY_START = 'wal.replay.start';
const LIVE_REPLAY_STATES: ReadonlySet<ReplayProgress['state']> = new Set(['running', 'paused']);

export function serveSocket(
  socket: WebSocket,
  router: ApiRouter,
  events: EventBus,
  limits: SocketLimits = SOCKET_LIMITS,
): void {
  const session = new SocketSession(socket, router, limits);
  const unsubscribe = events.subscribe((event) => session.sendEvent(encodeWire({ event })));
  socket.on('message', (data: RawData, isBinary: boolean) => session.receive(data, isBinary));
  socket.once('close', () => {
    unsubscribe();
    session.close();
  });
  socket.on('error', (error) => reportUnexpected('a WebSocket', error));
}

class SocketSession {
  private inFlight = 0;
  private queuedBytes = 0;
  private closed = false;
  private readonly waiting: SocketCall[] = [];
  /** Replay jobs this socket started that may still run; pruned when a new one is asked. */
  private readonly replayJobs = new Set<string>();
  private replayStarting = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly router: ApiRouter,
    private readonly limits: SocketLimits,
  ) {}

  receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    try {
      const call = parseSocketCall(data, isBinary);
      if (call === null) this.send(malformedFrameReply());
      else if (this.waiting.length >= this.limits.maxWaitingCalls)
        this.sendReply({
          id: call.id,
          ok: false,
          error: toWireError(new TooManyCallsError(this.limits.maxWaitingCalls)),
        });
      else {
        this.waiting.push(call);
        this.pump();
      }
    } catch (error) {
      reportUnexpected('a WebSocket message', error);
    }
  }

  sendEvent(text: string): void {
    if (this.closed) return;
    if (this.queuedBytes + text.length > this.limits.maxQueuedBytes * EVENT_QUEUE_FACTOR) {
      this.socket.close(CLOSE_NOT_READING, 'not reading');
      return;
    }
    this.send(text);
  }

  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    for (const jobId of this.replayJobs) this.cancelReplay(jobId);
    this.replayJobs.clear();
  }

  /** Starts waiting calls while slots are free, then pauses or resumes reading. */
  private pump(): void {
    while (!this.closed && this.waiting.length > 0 && this.hasRoom()) {
      const call = this.waiting.shift() as SocketCall;
      this.inFlight++;
      void this.run(call).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    this.updateFlow();
  }

  private hasRoom(): boolean {
    return (
      this.inFlight < this.limits.maxCallsInFlight && this.queuedBytes < this.limits.maxQueuedBytes
    );
  }

  private updateFlow(): void {
    if (this.closed) return;
    const full = !this.hasRoom() || this.waiting.length > 0;
    if (full && !this.socket.isPaused) this.socket.pause();
    else if (!full && this.socket.isPaused) this.socket.resume();
  }

  private async run(call: SocketCall): Promise<void> {
    try {
      const isReplayStart = call.name === REPLAY_START;
      if (isReplayStart) {
        const refused = await this.reserveReplay(call.id);
        if (refused !== null) return this.sendReply(refused);
        this.replayStarting++;
      }
      const reply = await callReply(this.router, call.id, call.name, call.encodedInput).finally(
        () => {
          if (isReplayStart) this.replayStarting--;
        },
      );
      if (isReplayStart && reply.ok) this.adoptReplay((reply.result as ReplayProgress).jobId);
      this.sendReply(reply);
    } catch (error) {
      reportUnexpected('a WebSocket call', error);
    }
  }

  /** A refusal when this socket has its replay jobs already, else null. */
  private async reserveReplay(id: number): Promise<CallReply | null> {
    for (const jobId of [...this.replayJobs]) {
      const progress = await this.router
        .call('wal.replay.progress', { jobId })
        .then((value) => value as ReplayProgress)
        .catch(() => null);
      if (progress === null || !LIVE_REPLAY_STATES.has(progress.state))
        this.replayJobs.delete(jobId);
    }
    if (this.replayJobs.size + this.replayStarting < this.limits.maxReplayJobs) return null;
    const error = toWireError(new TooManyReplayJobsError(this.limits.maxReplayJobs));
    return { id, ok: false, error };
  }

  private adoptReplay(jobId: string): void {
    // The socket closed while the job was starting: nobody will ever read it.
    if (this.closed) this.cancelReplay(jobId);
    else this.replayJobs.add(jobId);
  }

  private cancelReplay(jobId: string): void {
    this.router.call('wal.replay.cancel', { jobId }).catch(() => undefined);
  }

  private sendReply(reply: CallReply): void {
    this.send(encodeWire(reply));
  }

  private send(text: string): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    const bytes = Buffer.byteLength(text, 'utf8');
    this.queuedBytes += bytes;
    this.socket.send(text, () => {
      this.queuedBytes -= bytes;
      this.pump();
    });
    this.updateFlow();
  }
}
