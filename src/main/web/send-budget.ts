/**
 * The bytes every socket of one server has handed to `ws` and not yet written out, against one
 * cap: past it, no socket reads another call and no replay sends another chunk until some of
 * it drains, so many sockets together hold no more than the cap (plus the replies of calls
 * already running). Sockets waiting for room are told when the total falls back under it.
 */
export class SendBudget {
  private queued = 0;
  private full = false;
  private readonly waiting = new Set<() => void>();

  constructor(readonly maxBytes: number) {}

  get queuedBytes(): number {
    return this.queued;
  }

  hasRoom(): boolean {
    return this.queued < this.maxBytes;
  }

  add(bytes: number): void {
    this.queued += bytes;
    if (this.queued >= this.maxBytes) this.full = true;
  }

  release(bytes: number): void {
    this.queued -= bytes;
    if (!this.full || this.queued >= this.maxBytes) return;
    this.full = false;
    for (const wake of [...this.waiting]) wake();
  }

  /** Calls `wake` each time the total falls back under the cap; returns the unsubscribe. */
  onRoom(wake: () => void): () => void {
    this.waiting.add(wake);
    return () => this.waiting.delete(wake);
  }
}
