/**
 * The least any writer must do for the throughput figure's appenders, as a measuring device:
 * one promise per one-entry append, the payloads copied into one object buffer, a CRC32C of
 * it, `concurrency` creates in flight, and every append of a batch answered when its create
 * returns. No ids, index, format, fence, ordering or recovery: it is no WAL, and nothing reads
 * what it writes. Run with the figure's appenders, batch size and window on the same store,
 * its rate / raw creates' says what the appenders sharing the thread with the store's answers
 * cost on this machine whatever the writer; the WAL's ratio is then read against it.
 */
import { crc32c } from '@node-rs/crc32';
import { BufferPool } from '../../src/main/engine/objectio/buffer-pool';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { closedLoop, type LoopCount, type LoopWindow } from './wal-bench';

export interface FloorShape {
  readonly appenders: number;
  readonly payload: Uint8Array;
  readonly maxBatchBytes: number;
  readonly flushIntervalMs: number;
  readonly concurrency: number;
  readonly window: LoopWindow;
  /**
   * `copied`: the payloads copied into the object's buffer and checksummed, as any writer must.
   * `untouched`: the buffer created as it is, no copy and no checksum: what is left is only the
   * appends' promises and the creates, less than any writer can do.
   */
  readonly bodies: 'copied' | 'untouched';
}

/** Closed-loop one-entry appenders on a floor writer over `io`, counted like `appendLoop`. */
export function floorLoop(io: ObjectIo, keyPrefix: string, shape: FloorShape): Promise<LoopCount> {
  const writer = new FloorWriter(io, keyPrefix, shape);
  const payload = shape.payload;
  return closedLoop(shape.appenders, shape.window, payload.length, () => writer.append(payload));
}

type Resolve = () => void;
type Reject = (error: unknown) => void;

interface SealedBatch {
  readonly body: Uint8Array;
  readonly resolves: Resolve[];
  readonly rejects: Reject[];
}

class FloorWriter {
  private payloads: Uint8Array[] = [];
  private resolves: Resolve[] = [];
  private rejects: Reject[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly sealed: SealedBatch[] = [];
  private inFlight = 0;
  private created = 0;
  private readonly buffers: BufferPool;

  constructor(
    private readonly io: ObjectIo,
    private readonly keyPrefix: string,
    private readonly shape: FloorShape,
  ) {
    this.buffers = new BufferPool(shape.concurrency * 2, shape.maxBatchBytes * 2);
  }

  append(payload: Uint8Array): Promise<void> {
    const promise = new Promise<void>(this.keepAnswers);
    this.payloads.push(payload);
    this.bytes += payload.length;
    if (this.bytes >= this.shape.maxBatchBytes) this.seal();
    else this.timer ??= setTimeout(this.sealOnTimer, this.shape.flushIntervalMs);
    return promise;
  }

  /** Every append's executor, made once: no closure and no object per append. */
  private readonly keepAnswers = (resolve: Resolve, reject: Reject): void => {
    this.resolves.push(resolve);
    this.rejects.push(reject);
  };

  private readonly sealOnTimer = (): void => this.seal();

  /** The open batch copied into one buffer with its checksum after it, queued for a create. */
  private seal(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.payloads.length === 0) return;
    const body = this.buffers.takeToOverwrite(this.bytes + 4);
    if (this.shape.bodies === 'copied') copyWithChecksum(this.payloads, body);
    this.sealed.push({ body, resolves: this.resolves, rejects: this.rejects });
    this.payloads = [];
    this.resolves = [];
    this.rejects = [];
    this.bytes = 0;
    this.startCreates();
  }

  private startCreates(): void {
    while (this.inFlight < this.shape.concurrency && this.sealed.length > 0) {
      const batch = this.sealed.shift()!;
      const key = `${this.keyPrefix}/${String(this.created++).padStart(12, '0')}`;
      this.inFlight += 1;
      this.io.putIfAbsent(key, batch.body).then(
        () => this.settle(batch, { ok: true }),
        (error: unknown) => this.settle(batch, { ok: false, error }),
      );
    }
  }

  private settle(batch: SealedBatch, outcome: { ok: true } | { ok: false; error: unknown }): void {
    this.inFlight -= 1;
    this.buffers.give(batch.body);
    if (outcome.ok) for (const resolve of batch.resolves) resolve();
    else for (const reject of batch.rejects) reject(outcome.error);
    this.startCreates();
  }
}

/** The payloads one after another at the start of `body`, their CRC32C after them. */
function copyWithChecksum(payloads: readonly Uint8Array[], body: Uint8Array): void {
  let at = 0;
  for (const payload of payloads) {
    body.set(payload, at);
    at += payload.length;
  }
  new DataView(body.buffer, body.byteOffset).setUint32(at, crc32c(body.subarray(0, at)), true);
}
