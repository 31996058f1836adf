/**
 * Buffers reused by capacity, for objects that are written and then let go: the WAL writer
 * encodes each sealed batch into one (a committed batch's buffer is encoded into again), and
 * the S3 thread copies each large create body into one that crosses to the thread and comes
 * back with the answer. A fresh buffer per object costs more than what is done with it: every
 * one of its pages is faulted in, zeroed and later unmapped (10-14 us a page on the box of
 * issue #13: a 1 MiB copy took ~0.8 ms and 55-65 faults into a fresh buffer, 24 us into a
 * reused one), and each megabyte of external memory pulls the next collection closer.
 *
 * A buffer comes back only through `give`, from a caller that never reads its bytes again.
 */

/** Capacity granularity: objects (a batch flushed by its timer) vary in size from one to the next. */
const GRANULE = 64 * 1024;

export class BufferPool {
  private readonly idle: ArrayBuffer[] = [];
  private readonly largest: number;

  /**
   * @param keep the most idle buffers held between a give and the next take
   * @param largest buffers for objects above this size are left to the garbage collector (an
   * object of one huge entry should not stay resident)
   */
  constructor(
    private readonly keep: number,
    largest: number,
  ) {
    this.largest = roundUp(largest);
  }

  /**
   * `size` bytes for a caller that writes every one of them before anything reads them: the
   * smallest idle buffer that holds them, not zeroed first (it still holds an earlier object's
   * bytes until they are overwritten), else a new one. Zeroing a reused 1 MiB buffer cost the
   * saturating writer more of its thread than copying the batch's payloads into it.
   */
  takeToOverwrite(size: number): Uint8Array {
    return this.reuse(size) ?? new Uint8Array(new ArrayBuffer(roundUp(size)), 0, size);
  }

  /** A copy of `bytes` at the start of a buffer of the pool. */
  copyOf(bytes: Uint8Array): Uint8Array {
    const copy = this.takeToOverwrite(bytes.length);
    copy.set(bytes);
    return copy;
  }

  /** How many buffers wait idle. */
  idleCount(): number {
    return this.idle.length;
  }

  /** Takes back the buffer under `bytes`; the caller never reads them again. */
  give(bytes: Uint8Array): void {
    const buffer = bytes.buffer;
    // One given twice would be handed to two batches at once.
    if (!(buffer instanceof ArrayBuffer) || this.idle.includes(buffer)) return;
    if (buffer.byteLength > this.largest) return;
    if (this.idle.length < this.keep) {
      this.idle.push(buffer);
      return;
    }
    const smallest = this.smallestIdle();
    if (smallest >= 0 && this.idle[smallest]!.byteLength < buffer.byteLength)
      this.idle[smallest] = buffer;
  }

  /** `size` bytes of the smallest idle buffer that holds them, taken out of the pool; or null. */
  private reuse(size: number): Uint8Array | null {
    let best = -1;
    for (let index = 0; index < this.idle.length; index++) {
      const capacity = this.idle[index]!.byteLength;
      if (capacity >= size && (best < 0 || capacity < this.idle[best]!.byteLength)) best = index;
    }
    return best < 0 ? null : new Uint8Array(this.idle.splice(best, 1)[0]!, 0, size);
  }

  private smallestIdle(): number {
    let smallest = -1;
    for (let index = 0; index < this.idle.length; index++)
      if (smallest < 0 || this.idle[index]!.byteLength < this.idle[smallest]!.byteLength)
        smallest = index;
    return smallest;
  }
}

function roundUp(size: number): number {
  return Math.max(GRANULE, Math.ceil(size / GRANULE) * GRANULE);
}
