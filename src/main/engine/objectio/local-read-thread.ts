/**
 * The local backend's reads on a thread of their own. Recovery reads the last bytes of every
 * object and replay reads each segment its catalog located; on libuv's pool each read is three
 * round trips (open, read, close), each one waking a pool thread and calling back into
 * JavaScript on the main thread, and that main-thread work was most of a 10,000-object open.
 * This thread makes the same three system calls for a batch of files in one go and answers the
 * batch with one message, the bytes transferred. A listing page's `lstat`s (1,000 keys: ~35 ms
 * of the main thread through promises) go the same way, a few hundred to a message.
 *
 * The thread reads into buffers the caller's thread allocated and sent with the request: bytes
 * the thread allocated would come from its own malloc arena and be freed by the main thread, and
 * that mix faulted fresh pages into every later read of the process (measured on replay: four to
 * nine times the page faults, and raw reads slowed four-fold, while the thread was in use).
 *
 * Started only once the process has made `START_AFTER` reads or stats through it (a small
 * open never waits for a thread to start), then kept for the process; it holds the process
 * open only while requests are in flight. It never maps an error: a file it cannot read is answered null
 * and the caller reads it on the pool, where errors are mapped. If the thread cannot start or
 * stops, every read goes to the pool from then on.
 *
 * Its reads are made one after another, where the pool makes four at once: measured on replay,
 * ~10% slower from a cold disk, and about a quarter less CPU a pass from the page cache.
 *
 * A read may ask for a checksum of its bytes (replay's segment CRCs), taken here right after
 * the read while they are in this core's cache: on replay that was 2.6-4.4 ms of the engine's
 * thread a 17 MB pass, a quarter to a half of its time there. The thread loads the same copy of
 * `@node-rs/crc32` as the caller; a thread that cannot answers without the sum, and the caller
 * takes it.
 */
import { constants as fsConstants } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { checksumsModulePath, type ChecksumRequest } from './checksum';
import { readBuffer } from './local-files';
import { PROC_FD_DIR, UNLINKED_SUFFIX } from './local-confinement';
import { startScriptThread } from './script-thread';
import { ThreadReplies } from './thread-replies';

/** How the local backend opens an object to read it: never through a symlink. */
export const LOCAL_READ_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW;

/** What a read of a file gave: `bytesRead` of `bytes` from the asked offset. */
export interface FileRead {
  readonly bytes: Uint8Array;
  readonly bytesRead: number;
  /** The checksum the read asked for, when the thread took it (a full read, the sums loaded). */
  readonly checksum?: number;
}

/** What an `lstat` on the thread found: what an object's metadata is made of. */
export interface ThreadStat {
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly isFile: boolean;
}

/** A read (`length` bytes from `start`, into `into`), or an `lstat` when `length` is STAT. */
interface Request {
  readonly id: number;
  readonly file: string;
  readonly start: number;
  readonly length: number;
  /** A read's buffer, `length` bytes, transferred to the thread and back with the bytes. */
  readonly into?: ArrayBuffer;
  /** The checksum to take of a full read's bytes, on the thread. */
  readonly checksum?: ChecksumRequest;
  /** The real path the opened file must have (`local-confinement.ts`); not read otherwise. */
  readonly expect?: string;
}

/** A read's reply carries `bytes` (null: not read), a stat's `stat` (null: not stat'ed). */
interface Reply {
  readonly id: number;
  readonly bytes?: Uint8Array | null;
  readonly bytesRead?: number;
  readonly checksum?: number;
  readonly stat?: ThreadStat | null;
}

/** A request's `length` meaning "lstat the file" rather than "read it". */
const STAT = -1;

/** Reads through the pool before the thread is started: a scan this long is worth a thread. */
export const START_AFTER = 256;
/** Files read per message: two or more batches in flight let the threads overlap. */
const BATCH = 8;
/** Files stat'ed per message: a listing page's worth in a few messages. */
const STAT_BATCH = 250;

/** Plain CommonJS, evaluated as the thread's script: nothing to bundle or resolve. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync, lstatSync, readlinkSync } = require('node:fs');
// Opened non-blocking: a file that is not a regular one (a FIFO put there by hand) never holds
// the thread; its read comes back short and the caller reads that key with \`get\`.
const FLAGS = workerData.flags;
// The checksums a read may ask for (\`@node-rs/crc32\`, the caller's copy): a thread that cannot
// load them reads on, and the caller takes the sums itself.
let sums = null;
try { sums = require(workerData.checksumsPath); } catch {}
parentPort.on('message', (batch) => {
  const replies = [];
  const transfer = [];
  for (const { id, file, start, length, into, checksum, expect } of batch) {
    if (length === ${STAT}) {
      try {
        const s = lstatSync(file, { bigint: true });
        replies.push({ id, stat: { ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs, isFile: s.isFile() } });
      } catch {
        replies.push({ id, stat: null });
      }
      continue;
    }
    let fd = -1;
    try {
      fd = openSync(file, FLAGS);
      // Not the file the key names (a link on the way): not read here; the pool refuses it.
      if (expect !== undefined) {
        const named = readlinkSync(workerData.procFdDir + '/' + fd);
        if (named !== expect && named !== expect + workerData.unlinkedSuffix) throw new Error();
      }
      const bytes = new Uint8Array(into);
      const bytesRead = readSync(fd, bytes, 0, length, start);
      // Not zeroed when allocated: what the read left unfilled is zeroed here.
      if (bytesRead < length) bytes.fill(0, bytesRead);
      const sum = checksum && sums && bytesRead === length
        ? sums[checksum.algorithm](bytes.subarray(checksum.from, length))
        : undefined;
      replies.push({ id, bytes, bytesRead, checksum: sum });
      transfer.push(bytes.buffer);
    } catch {
      replies.push({ id, bytes: null, bytesRead: -1 });
    } finally {
      if (fd >= 0) {
        try { closeSync(fd); } catch {}
      }
    }
  }
  parentPort.postMessage(replies, transfer);
});
`;

export class LocalReadThread {
  private worker: Worker | null = null;
  private state: 'idle' | 'starting' | 'ready' | 'stopped' = 'idle';
  private reads = 0;
  private readonly replies = new ThreadReplies<Reply | null>();
  private queuedReads: Request[] = [];
  private queuedStats: Request[] = [];
  private flushQueued = false;
  private answeredCount = 0;

  /** @param startAfter reads made through the pool before the thread is started. */
  constructor(private readonly startAfter = START_AFTER) {}

  /** True once reads go to the thread. */
  get running(): boolean {
    return this.state === 'ready';
  }

  /** Reads and stats the thread answered (tests, diagnostics). */
  get answered(): number {
    return this.answeredCount;
  }

  /**
   * Up to `length` bytes of `file` from `start`, read on the thread into a buffer allocated
   * here (`readBuffer`), the bytes past the read zeroed: null when the thread could not read
   * the file (read it on the pool), and null at once - no promise, no buffer - while there is
   * no thread. With `expect`, a file whose descriptor the kernel names otherwise (a link on its
   * path) is not read: null, and the pool refuses it.
   */
  read(
    file: string,
    start: number,
    length: number,
    checksum?: ChecksumRequest,
    expect?: string,
  ): Promise<FileRead | null> | null {
    return this.ask(
      { file, start, length, checksum, expect },
      this.queuedReads,
      ({ bytes, bytesRead, checksum: sum }) =>
        bytes && bytesRead !== undefined ? { bytes, bytesRead, checksum: sum } : null,
      () => readBuffer(length).buffer as ArrayBuffer,
    );
  }

  /**
   * `lstat` of `file` on the thread (a listing page's objects, many at once): null when the
   * thread could not stat it (stat it on the pool, where errors are mapped), and null at once
   * while there is no thread.
   */
  stat(file: string): Promise<ThreadStat | null> | null {
    return this.ask(
      { file, start: 0, length: STAT },
      this.queuedStats,
      (reply) => reply.stat ?? null,
    );
  }

  private ask<T>(
    request: Omit<Request, 'id' | 'into'>,
    queue: Request[],
    answer: (reply: Reply) => T | null,
    into?: () => ArrayBuffer,
  ): Promise<T | null> | null {
    const worker = this.worker;
    if (this.state !== 'ready' || worker === null) {
      if (this.state === 'idle' && ++this.reads >= this.startAfter) this.start();
      return null;
    }
    return new Promise<T | null>((resolve) => {
      const id = this.replies.add(worker, (reply) => {
        const answered = reply === null ? null : answer(reply);
        if (answered !== null) this.answeredCount += 1;
        resolve(answered);
      });
      queue.push({ ...request, id, into: into?.() });
      if (!this.flushQueued) {
        this.flushQueued = true;
        // After the current turn, not its microtasks: reads that a batch's answers set off
        // are made several promise hops after those answers (a scan's fan-out, the link's
        // slots), and a flush queued as a microtask went out with one read each - 10,000
        // messages for a 10,000-object open instead of 1,300.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Ends the thread (started or starting); reads go to the pool from then on. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.stopped();
    await worker?.terminate();
  }

  private flush(): void {
    this.flushQueued = false;
    const reads = this.queuedReads;
    const stats = this.queuedStats;
    this.queuedReads = [];
    this.queuedStats = [];
    const worker = this.worker;
    if (worker === null) return; // Stopped meanwhile: `stopped` answered every request.
    for (let at = 0; at < reads.length; at += BATCH) {
      const batch = reads.slice(at, at + BATCH);
      worker.postMessage(batch, buffersOf(batch));
    }
    for (let at = 0; at < stats.length; at += STAT_BATCH)
      worker.postMessage(stats.slice(at, at + STAT_BATCH));
  }

  private start(): void {
    this.state = 'starting';
    let worker: Worker;
    try {
      worker = startScriptThread(SOURCE, {
        workerData: {
          flags: LOCAL_READ_FLAGS | fsConstants.O_NONBLOCK,
          checksumsPath: checksumsModulePath(),
          procFdDir: PROC_FD_DIR,
          unlinkedSuffix: UNLINKED_SUFFIX,
        },
      });
    } catch {
      this.state = 'stopped';
      return;
    }
    this.worker = worker;
    worker.once('online', () => {
      if (this.state === 'starting') this.state = 'ready';
    });
    worker.on('message', (replies: readonly Reply[]) => this.settle(replies));
    worker.once('error', () => this.stopped());
    worker.once('exit', () => this.stopped());
    // Last: a first 'message' listener references the worker again, so an idle thread that
    // never answered a request would hold the process open for good.
    worker.unref();
  }

  private settle(replies: readonly Reply[]): void {
    for (const reply of replies) this.replies.answer(this.worker, reply.id, reply);
  }

  /** No thread from now on: every request still waiting is answered null (made on the pool). */
  private stopped(): void {
    this.state = 'stopped';
    this.worker = null;
    this.queuedReads = [];
    this.queuedStats = [];
    this.replies.answerAll(null);
  }
}

/** The read buffers a batch carries, moved to the thread rather than copied. */
function buffersOf(batch: readonly Request[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const request of batch) if (request.into !== undefined) buffers.push(request.into);
  return buffers;
}
