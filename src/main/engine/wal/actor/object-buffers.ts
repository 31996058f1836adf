/**
 * The writer's object buffers: a committed batch's buffer is encoded into again by a later
 * batch. A fresh buffer per object costs the writer more than the encode itself: every one of
 * its pages is faulted in, zeroed and later unmapped, and each megabyte of external memory
 * pulls the next garbage collection closer (measured in the #13 closing note: about 1 us of
 * process CPU per 1 KiB entry).
 *
 * A buffer comes back only from `commitBatch`: by then its create has succeeded, so the store
 * has taken its bytes (the backends copy or write them before they answer), and nothing of
 * the writer reads them again (the catalog keeps the segment index, not the bytes). A buffer
 * is zeroed whenever it is taken, so an encode sees the same bytes as in a fresh buffer.
 */

/** Capacity granularity: batches flushed by their timer vary in size from one to the next. */
const GRANULE = 64 * 1024;

export class ObjectBuffers {
  private readonly idle: ArrayBuffer[] = [];
  private readonly largest: number;

  /**
   * @param keep the most idle buffers held between a commit and the next seal
   * @param largest buffers for objects above this size are left to the garbage collector (an
   * object of one huge entry should not stay resident)
   */
  constructor(
    private readonly keep: number,
    largest: number,
  ) {
    this.largest = roundUp(largest);
  }

  /** `size` zero bytes: the smallest idle buffer that holds them, else a new one. */
  take(size: number): Uint8Array {
    let best = -1;
    for (let index = 0; index < this.idle.length; index++) {
      const capacity = this.idle[index]!.byteLength;
      if (capacity >= size && (best < 0 || capacity < this.idle[best]!.byteLength)) best = index;
    }
    if (best < 0) return new Uint8Array(new ArrayBuffer(roundUp(size)), 0, size);
    const buffer = this.idle.splice(best, 1)[0]!;
    return new Uint8Array(buffer, 0, size).fill(0);
  }

  /** Takes back the buffer of a committed batch's bytes; the caller never reads them again. */
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
