/**
 * One replay of a region: pulls entries from a read stream and hands them on in chunks of at
 * most `chunkSize` (and about REPLAY_CHUNK_BYTES), so the job never holds more than one chunk
 * (the engine's reader holds a few objects of read-ahead); the sink paces it (the next chunk
 * waits until the reader that asked has room for it), and so may an optional rate (entries per
 * second); pause / resume, and cancellation - with its reason, which the progress carries -
 * through an AbortController that also ends the underlying read and any wait. Payloads are
 * checked whole (the spec's `decode`, when given; up to REPLAY_DECODED_BYTES) and cut to
 * REPLAY_PAYLOAD_BYTES before they leave, but for a `WalEntry`, which leaves whole: the page
 * makes its rows from its bytes. A damaged segment the read skipped leaves as a hole
 * after the entries read before it (never silently), and is counted in the progress. Never
 * writes to storage.
 */
import {
  REPLAY_CHUNK_BYTES,
  REPLAY_DECODED_BYTES,
  REPLAY_PAYLOAD_BYTES,
  type ReplayEntryView,
  type ReplayPayloadView,
  type ReplayProgress,
} from '../../../shared/contract/wal';
import type { ReplayHoleView } from '../../../shared/contract/wal-damage';
import type { WalEntry } from '../../engine/wal/entry';
import { JobControl } from './job-control';

export interface ReplaySpec {
  readonly chunkSize: number;
  readonly ratePerSecond?: number;
  readonly maxEntries?: number;
  readonly latestId: bigint;
  /** The id the replay starts from (default 1: the region's start), where its progress counts from. */
  readonly fromId?: bigint;
  /** What each payload is (a `WalEntry`, JSON, raw); none: payloads go unchecked. */
  readonly decode?: (payload: Uint8Array) => ReplayPayloadView;
}

export interface ReplaySink {
  /**
   * Hands a chunk on; a promise makes the job wait for it before reading on. `holes`: damaged
   * segments skipped after `entries`, in stream order (often none).
   */
  chunk(
    entries: readonly ReplayEntryView[],
    progress: ReplayProgress,
    holes: readonly ReplayHoleView[],
  ): void | Promise<void>;
  done(progress: ReplayProgress): void;
}

/** The holes the job's read met since it last asked (`HoleFeed`). */
export interface HoleSource {
  take(): ReplayHoleView[];
}

const NO_HOLES: HoleSource = { take: () => [] };

/** Chunks per second at most when a pace is set, so a slow pace still shows rows steadily. */
const PACED_CHUNKS_PER_SECOND = 10;

export class ReplayJob {
  private readonly control = new JobControl();
  private delivered = 0;
  private holes = 0;
  private lastId = 0n;
  readonly finished: Promise<void>;

  constructor(
    readonly id: string,
    private readonly source: AsyncIterable<WalEntry>,
    private readonly spec: ReplaySpec,
    private readonly sink: ReplaySink,
    private readonly skipped: HoleSource = NO_HOLES,
  ) {
    this.finished = this.run();
  }

  progress(): ReplayProgress {
    return {
      jobId: this.id,
      state: this.control.state,
      delivered: this.delivered,
      lastId: this.lastId,
      fromId: this.spec.fromId ?? 1n,
      latestId: this.spec.latestId,
      holes: this.holes,
      error: this.control.error,
      cancelReason: this.control.cancelReason,
    };
  }

  get active(): boolean {
    return this.control.active;
  }

  pause(): ReplayProgress {
    this.control.pause();
    return this.progress();
  }

  resume(): ReplayProgress {
    this.control.resume();
    return this.progress();
  }

  cancel(reason: string): ReplayProgress {
    this.control.cancel(reason);
    return this.progress();
  }

  private viewOf(entry: WalEntry): ReplayEntryView {
    const decode = this.spec.decode;
    const data = entry.data;
    if (decode === undefined)
      return { id: entry.id, size: data.length, data: data.slice(0, REPLAY_PAYLOAD_BYTES) };
    const payload: ReplayPayloadView =
      data.length > REPLAY_DECODED_BYTES ? { kind: 'not-decoded' } : decode(data);
    const whole = payload.kind === 'wal-entry';
    return {
      id: entry.id,
      size: data.length,
      data: whole ? data.slice() : data.slice(0, REPLAY_PAYLOAD_BYTES),
      payload,
    };
  }

  private chunkSize(): number {
    const rate = this.spec.ratePerSecond;
    return rate === undefined
      ? this.spec.chunkSize
      : Math.max(1, Math.min(this.spec.chunkSize, Math.ceil(rate / PACED_CHUNKS_PER_SECOND)));
  }

  private async run(): Promise<void> {
    const size = this.chunkSize();
    let chunk: ReplayEntryView[] = [];
    let chunkBytes = 0;
    try {
      for await (const entry of this.source) {
        if (!this.active) break;
        // Holes met before this entry close the chunk of the entries read before them.
        const holes = this.skipped.take();
        if (holes.length > 0) {
          await this.deliver(chunk, holes);
          chunk = [];
          chunkBytes = 0;
          if (!this.active) break;
        }
        const view = this.viewOf(entry);
        chunk.push(view);
        chunkBytes += view.data.length;
        this.lastId = entry.id;
        const reachedMax =
          this.spec.maxEntries !== undefined &&
          this.delivered + chunk.length >= this.spec.maxEntries;
        if (chunk.length >= size || chunkBytes >= REPLAY_CHUNK_BYTES || reachedMax) {
          await this.deliver(chunk);
          chunk = [];
          chunkBytes = 0;
          if (reachedMax) break;
        }
        if (!this.active) break;
      }
      const holes = this.skipped.take();
      if ((chunk.length > 0 || holes.length > 0) && this.active) await this.deliver(chunk, holes);
      this.control.finish();
    } catch (error) {
      this.control.fail(error);
    }
    this.sink.done(this.progress());
  }

  /** Hands a chunk on, then waits out the pace and any pause (cancel ends both). */
  private async deliver(
    chunk: ReplayEntryView[],
    holes: readonly ReplayHoleView[] = [],
  ): Promise<void> {
    this.delivered += chunk.length;
    this.holes += holes.length;
    const taken = this.sink.chunk(chunk, this.progress(), holes);
    if (taken !== undefined) await this.control.untilAborted(taken);
    const rate = this.spec.ratePerSecond;
    if (rate !== undefined) await this.control.sleep((chunk.length / rate) * 1000);
    await this.control.whilePaused();
  }
}
