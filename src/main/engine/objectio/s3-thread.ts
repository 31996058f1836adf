/**
 * The S3 SDK on a thread of its own. The SDK's JavaScript (schema, endpoint rules, middleware,
 * SigV4, XML and header parsing) costs 0.8-1.2 ms of CPU a request on radosgw here, 4-6 ms on
 * a slower box; on the thread that hosts the engine that is time the console's IPC waits
 * behind (a saturating S3 writer spent a fifth of the main thread in it). Here the main thread
 * only posts a command's input and takes its output back (0.06-0.09 ms a request); bodies
 * cross as one copy (a create's payload) or none (a read's body, transferred). A create body
 * from 64 KiB is copied into a reused buffer (`BufferPool`) that moves to the thread and comes
 * back with a successful answer. Measured on radosgw with 4 creates of 1 MiB in flight, the
 * engine's thread spent 0.60-0.80 ms a create against 0.68-1.23 ms with a fresh copy each
 * time, and 0.6-0.7 against 2.3 ms in a process's first seconds, when every copy faults in
 * fresh pages (a 1 MiB copy alone: 24 us into a reused buffer, ~0.8 ms into a fresh one).
 * A read may ask for its body's checksum (replay's segment CRCs), taken on the thread too.
 *
 * One thread per process, shared by every S3 store, kept for the process once started; it
 * holds the process open only while requests are in flight. It never maps an error: it hands
 * back what the SDK threw as a plain shape, and `storageErrorFromS3` maps it on the caller's
 * side, exactly as it maps the SDK's own errors. If the thread dies, every request in flight
 * fails as a lost connection (a create's outcome unknown, a read unavailable) and the next
 * request starts a new thread. A thread that cannot load the SDK has sent nothing: its
 * requests fail as a terminal error naming why (`S3ClientUnavailable`).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { BufferPool } from './buffer-pool';
import { checksumsModulePath, type ChecksumRequest } from './checksum';
import type { S3ErrorShape } from './s3-errors';
import { S3_THREAD_SCRIPT } from './s3-thread-script';
import { startScriptThread } from './script-thread';
import { ThreadReplies } from './thread-replies';
import type {
  CreateBucketCommandInput,
  DeleteObjectCommandInput,
  DeleteObjectsCommandInput,
  DeleteObjectsCommandOutput,
  GetObjectCommandInput,
  GetObjectCommandOutput,
  HeadObjectCommandInput,
  HeadObjectCommandOutput,
  ListObjectsV2CommandInput,
  ListObjectsV2CommandOutput,
  PutObjectCommandInput,
  PutObjectCommandOutput,
  S3ClientConfig,
} from '@aws-sdk/client-s3';

/** The commands the thread runs: an input it is sent, the output fields it answers. */
export interface S3Commands {
  PutObject: {
    input: PutObjectCommandInput & { Body: Uint8Array };
    output: PutObjectCommandOutput;
  };
  GetObject: { input: GetObjectCommandInput; output: GetObjectCommandOutput };
  HeadObject: { input: HeadObjectCommandInput; output: HeadObjectCommandOutput };
  ListObjectsV2: { input: ListObjectsV2CommandInput; output: ListObjectsV2CommandOutput };
  DeleteObject: { input: DeleteObjectCommandInput; output: object };
  DeleteObjects: { input: DeleteObjectsCommandInput; output: DeleteObjectsCommandOutput };
  CreateBucket: { input: CreateBucketCommandInput; output: object };
}
export type S3CommandName = keyof S3Commands;

/** A command's output without the SDK's stream and metadata; a read's body comes as bytes. */
export type S3Answer<C extends S3CommandName> = Omit<
  S3Commands[C]['output'],
  'Body' | '$metadata'
> & {
  /** The body, unless the command has none or it was longer than `maxBodyBytes`. */
  readonly body?: Uint8Array;
  /** The body's checksum asked for in `S3SendOptions`, when the thread could take it. */
  readonly checksum?: number;
};

export interface S3SendOptions {
  /** Sent once, without the SDK's retries (a conditional create). */
  readonly once?: boolean;
  /** A longer body is not read: its stream is dropped and the answer has no `body`. */
  readonly maxBodyBytes?: number;
  /** A checksum of the body to take on the thread, beside the read (replay's segments). */
  readonly checksum?: ChecksumRequest;
}

/** The client settings the thread builds its clients from: plain data, cloned to the thread. */
export type S3ThreadClientConfig = Omit<S3ClientConfig, 'sha256' | 'requestHandler'> & {
  readonly requestHandler: {
    readonly connectionTimeout: number;
    readonly requestTimeout: number;
    readonly throwOnRequestTimeout: boolean;
    /** The agents' settings (plain options: the thread builds the agents). */
    readonly httpAgent?: { readonly maxSockets: number };
    readonly httpsAgent?: { readonly maxSockets: number };
  };
};

/** What the SDK threw on the thread, rebuilt here as an Error with the fields that say what it was. */
export class S3ThreadError extends Error implements S3ErrorShape {
  readonly code?: string;
  readonly $fault?: 'client' | 'server';
  readonly $metadata?: { readonly httpStatusCode?: number };

  constructor(copy: S3ErrorShape) {
    super(copy.message ?? '');
    this.name = copy.name ?? 'Error';
    this.code = copy.code;
    this.$fault = copy.$fault;
    this.$metadata = copy.$metadata;
  }
}

/** Every request in flight when the thread stopped: its connection was lost with it. */
const THREAD_STOPPED: S3ErrorShape = {
  name: 'S3ThreadStopped',
  code: 'ECONNRESET',
  message: 'the S3 thread stopped before the answer',
};

/**
 * A thread that could not load the SDK sent nothing: its requests fail as a terminal client
 * error naming why, and for this long every request fails the same way at once rather than
 * starting a thread that would fail again.
 */
const START_RETRY_MS = 5_000;

/** Create bodies from this size cross in pooled buffers: below it a copy costs little. */
const POOLED_BODY_BYTES = 64 * 1024;
/** One writer's creates in flight (`maxInFlightCreates` defaults to 4). */
const BODY_BUFFERS_KEPT = 4;
/** Twice a default full batch (8 MiB): a larger body's buffer is left to the collector. */
const LARGEST_KEPT_BODY = 16 * 1024 * 1024;

function startFailure(error: unknown): S3ErrorShape {
  const why = error instanceof Error ? error.message : String(error);
  return {
    name: 'S3ClientUnavailable',
    $fault: 'client',
    message: `the S3 client could not start (${why})`,
  };
}

type Message =
  | { readonly open: number; readonly config: S3ThreadClientConfig }
  | { readonly close: number }
  | {
      readonly id: number;
      readonly client: number;
      readonly command: S3CommandName;
      readonly input: object;
      readonly once: boolean;
      readonly maxBodyBytes: number;
      /** The body's buffer is the pool's: the thread moves it back with a successful answer. */
      readonly returnBody: boolean;
      readonly checksum?: ChecksumRequest;
    };

/** A request's answer, or the thread saying it could not load the SDK (it then ends). */
type Reply =
  | { readonly failed: string }
  | {
      readonly failed?: undefined;
      readonly id: number;
      readonly output?: object;
      readonly body?: Uint8Array;
      readonly checksum?: number;
      /** A pooled create body's buffer, moved back once the store answered with success. */
      readonly returnedBody?: ArrayBuffer;
      readonly error?: S3ErrorShape;
    };
type Answer = Extract<Reply, { id: number }>;

export class S3Thread {
  private worker: Worker | null = null;
  private failedStart: { readonly error: S3ErrorShape; readonly at: number } | null = null;
  private nextClient = 0;
  private readonly clients = new Map<number, S3ThreadClientConfig>();
  private readonly replies = new ThreadReplies<Answer>();
  /** Large create bodies' buffers between two creates (see the module comment). */
  private readonly bodies = new BufferPool(BODY_BUFFERS_KEPT, LARGEST_KEPT_BODY);

  /** @param sdkPath the SDK's entry the thread loads; resolved from here when absent. */
  constructor(private readonly sdkPath?: string) {}

  /** Registers a client's settings; its requests name the number this returns. */
  open(config: S3ThreadClientConfig): number {
    const client = this.nextClient++;
    this.clients.set(client, config);
    this.worker?.postMessage({ open: client, config } satisfies Message);
    return client;
  }

  /** Closes a client's sockets on the thread; its requests in flight still get their answers. */
  close(client: number): void {
    if (!this.clients.delete(client)) return;
    this.worker?.postMessage({ close: client } satisfies Message);
  }

  /** Runs `command` on the thread; rejects with what the SDK threw, as an `S3ThreadError`. */
  async send<C extends S3CommandName>(
    client: number,
    command: C,
    input: S3Commands[C]['input'],
    options: S3SendOptions = {},
  ): Promise<S3Answer<C>> {
    const reply = await new Promise<Answer>((resolve, reject) => {
      const worker = this.running();
      if (!(worker instanceof Worker)) return reject(new S3ThreadError(worker));
      const { input: cloned, transfer, pooled } = this.clonable(input);
      const id = this.replies.add(worker, (reply) => {
        if (reply.returnedBody !== undefined) this.bodies.give(new Uint8Array(reply.returnedBody));
        if (reply.error === undefined) resolve(reply);
        else reject(new S3ThreadError(reply.error));
      });
      const message: Message = {
        id,
        client,
        command,
        input: cloned,
        once: options.once === true,
        maxBodyBytes: options.maxBodyBytes ?? Number.MAX_SAFE_INTEGER,
        returnBody: pooled,
        checksum: options.checksum,
      };
      worker.postMessage(message, transfer);
    });
    return {
      ...(reply.output as S3Commands[C]['output']),
      body: reply.body,
      checksum: reply.checksum,
    };
  }

  /** Idle create-body buffers held for the next large create (diagnostics and tests). */
  idleBodyBuffers(): number {
    return this.bodies.idleCount();
  }

  /**
   * A create's body crosses as one copy: from `POOLED_BODY_BYTES` into a pooled buffer that
   * is moved (a failed create's is not returned, and the pool makes another); below it, a
   * view of a larger buffer is copied out and that copy moved, and a body that is its whole
   * buffer is cloned. The caller's buffer stays the caller's either way.
   */
  private clonable(input: object): { input: object; transfer: ArrayBuffer[]; pooled: boolean } {
    const body = (input as { Body?: unknown }).Body;
    if (!(body instanceof Uint8Array)) return { input, transfer: [], pooled: false };
    if (body.byteLength >= POOLED_BODY_BYTES) {
      const copy = this.bodies.copyOf(body);
      return {
        input: { ...input, Body: copy },
        transfer: [copy.buffer as ArrayBuffer],
        pooled: true,
      };
    }
    if (body.byteLength === body.buffer.byteLength) return { input, transfer: [], pooled: false };
    // Not `body.slice()`: on a Buffer that is a view of the same memory, often Node's shared
    // pool, which Node 22 refuses to transfer (DataCloneError) and Node 20 silently clones.
    const copy = new Uint8Array(body);
    return { input: { ...input, Body: copy }, transfer: [copy.buffer], pooled: false };
  }

  /** Ends the thread; requests in flight fail as lost connections. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.stopped(worker);
    await worker?.terminate();
  }

  /** The thread, started if need be; what to fail with while a failed start is recent. */
  private running(): Worker | S3ErrorShape {
    if (this.worker !== null) return this.worker;
    if (this.failedStart !== null && Date.now() - this.failedStart.at < START_RETRY_MS)
      return this.failedStart.error;
    let worker: Worker;
    try {
      worker = startScriptThread(S3_THREAD_SCRIPT, {
        env: SHARE_ENV,
        workerData: { sdkPath: this.sdkPath ?? resolveSdk(), checksumsPath: checksumsModulePath() },
      });
    } catch (error) {
      const failure = startFailure(error);
      this.failedStart = { error: failure, at: Date.now() };
      return failure;
    }
    worker.on('message', (reply: Reply) => {
      if (reply.failed !== undefined) this.stopped(worker, startFailure(reply.failed));
      else if (this.worker === worker) this.replies.answer(worker, reply.id, reply);
    });
    worker.once('error', () => this.stopped(worker));
    worker.once('exit', () => this.stopped(worker));
    // After the listener: a first 'message' listener references the worker again.
    worker.unref();
    for (const [client, config] of this.clients)
      worker.postMessage({ open: client, config } satisfies Message);
    this.worker = worker;
    return worker;
  }

  /**
   * No thread from now on; what it had in flight fails: as lost connections, unless the thread
   * said it never loaded the SDK (`failedStart`: then nothing was sent).
   */
  private stopped(worker: Worker | null, failedStart?: S3ErrorShape): void {
    if (worker === null || this.worker !== worker) return;
    this.worker = null;
    let error = THREAD_STOPPED;
    if (failedStart !== undefined) {
      error = failedStart;
      this.failedStart = { error, at: Date.now() };
    }
    this.replies.answerAll({ id: -1, error });
  }
}

/** The SDK's entry, resolved from this module so the thread loads the same copy (throws if missing). */
function resolveSdk(): string {
  return createRequire(join(__dirname, 'index.js')).resolve('@aws-sdk/client-s3');
}

let shared: S3Thread | null = null;

/** The process's S3 thread, started by its first request. */
export function sharedS3Thread(): S3Thread {
  return (shared ??= new S3Thread());
}
